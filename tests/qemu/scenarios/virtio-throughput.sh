#!/usr/bin/env bash
# Guest scenario for kernel-patches 0004 (virtio_rng.buffer_size): raw
# /dev/hwrng throughput under QEMU (TCG) with the default buffer and with
# the old 64-byte requests, in the same boot (the driver is unbound, the
# parameter changed and the driver bound again), measured default / 64 /
# default so that drift in the host's load shows. Target: the default at
# least 4 times the 64-byte rate. Also checks the parameter's bounds, that
# unbinding the device ends a reader blocked on it, and, on a second boot
# with QEMU's max-bytes=4096,period=1000 rate limit, that the guest reads
# at least 95 % of what QEMU grants in 10 s (half of it, with copy_data()
# unfixed). The guest half is tests/qemu/guest/virtio-throughput.sh.
#
# Prints RESULT and BENCH lines; exit 0 if all checks pass, 1 if one fails
# or a guest never finishes, 77 if a prerequisite is missing.
# Environment: RNGD_QEMU_KERNEL or RNGD_GUEST_KERNEL (a bzImage; default:
# the one kernel-patches/build-kernel builds or has cached), RNGD_QEMU_INITRD
# (default: a kernel-only one built here), QEMU_TIMEOUT (s per boot,
# default 300), KEEP_LOGS=1 keeps the temp dir, THROUGHPUT_TARGET (default
# 4), THROUGHPUT_BOOTS (default "rates partial"), BOOT_EXTRA (kernel
# arguments added to every boot, for controls, e.g.
# BOOT_EXTRA=virtio_rng.buffer_size=64 THROUGHPUT_BOOTS=partial).
# shellcheck source=tests/qemu/scenarios/common.sh
. "$(dirname "$0")/common.sh"
scenario=virtio-throughput
kernel_only_guest $scenario

# QEMU's rate limit for the partial-fills boot: a page per second, so that
# every request of the default buffer is a fill QEMU cuts short or delays.
partial_max_bytes=4096 partial_period=1000
settings="rngd.target=${THROUGHPUT_TARGET:-4} rngd.max_bytes=$partial_max_bytes rngd.period=$partial_period"

# throughput_boot VARIANT [virtio-rng-pci options]
throughput_boot() {
	boot -s $scenario -v "$1" -R "${2:-}" -A tcg -T "${QEMU_TIMEOUT:-300}" \
		-a "rng_core.default_quality=0 $settings${BOOT_EXTRA:+ $BOOT_EXTRA}"
}

for b in ${THROUGHPUT_BOOTS:-rates partial}; do
	case $b in
	rates) throughput_boot rates ;;
	partial) throughput_boot partial ",max-bytes=$partial_max_bytes,period=$partial_period" ;;
	*) scenario_error $scenario "unknown boot '$b' in THROUGHPUT_BOOTS" ;;
	esac
done
finish
