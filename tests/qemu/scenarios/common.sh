# shellcheck shell=bash
# Sourced by every host-side scenario script: boot() runs one guest through
# run-scenario, collects its lines, and remembers a failure.
# KEEP_LOGS=1 keeps the temp folder and each boot's console in it.
set -uo pipefail
qemu_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
status=0 boots=0
boot() {
	local keep=()
	boots=$((boots + 1))
	[ "${KEEP_LOGS:-0}" = 1 ] && keep=(-l "$scratch/console.$boots")
	"$qemu_dir/run-scenario" "${keep[@]}" "$@" || status=1
}
# A temp folder removed on every exit path.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rngd-scenario.XXXXXX")
remove_scratch() {
	if [ "${KEEP_LOGS:-0}" = 1 ]; then
		echo "logs kept in $scratch" >&2
	else
		rm -rf "$scratch"
	fi
}
trap remove_scratch EXIT
finish() { exit "$status"; }

# For the scenarios that need only the patched kernel (no rngd), so that
# they also run on their own (make check-qemu-kpatch, or by hand): exits
# 77 if QEMU or the guest harness is missing; without the suite's
# RNGD_QEMU_KERNEL it takes RNGD_GUEST_KERNEL or the kernel
# kernel-patches/build-kernel has cached (or builds), and without its
# RNGD_QEMU_INITRD it builds a kernel-only initramfs in $scratch.
kernel_only_guest() {
	local name=$1 kernel
	command -v qemu-system-x86_64 >/dev/null || scenario_skip "$name" "qemu-system-x86_64 missing"
	[ -x "$qemu_dir/make-initramfs" ] || scenario_skip "$name" "tests/qemu/make-initramfs missing"
	if [ ! -f "$qemu_dir/guest/init" ] || [ ! -f "$qemu_dir/guest/lib.sh" ]; then
		scenario_skip "$name" "tests/qemu/guest/init or lib.sh missing"
	fi
	kernel=${RNGD_QEMU_KERNEL:-${RNGD_GUEST_KERNEL:-}}
	if [ -z "$kernel" ]; then
		kernel=$("$qemu_dir/../../kernel-patches/build-kernel") ||
			scenario_error "$name" "build-kernel failed"
	fi
	[ -f "$kernel" ] || scenario_error "$name" "no kernel image at $kernel"
	export RNGD_QEMU_KERNEL=$kernel
	[ -n "${RNGD_QEMU_INITRD:-}" ] && return 0
	cc -O2 -static -o "$scratch/guest-getrandom" "$qemu_dir/guest-getrandom.c" ||
		scenario_error "$name" "cannot build tests/qemu/guest-getrandom.c statically"
	"$qemu_dir/make-initramfs" -o "$scratch/initrd.gz" -g "$qemu_dir/guest" \
		-p "$scratch/guest-getrandom" 2>/dev/null ||
		scenario_error "$name" "make-initramfs failed"
	export RNGD_QEMU_INITRD=$scratch/initrd.gz
}
scenario_skip() { echo "$1: SKIP: $2"; exit 77; }
scenario_error() { echo "$1: error: $2" >&2; exit 1; }
