#!/usr/bin/env bash
# Guest scenario for kernel-patches 0002-0004, 0007 and 0008
# (IRQF_SAMPLE_DUBIOUS): an e1000 or virtio-net guest NIC on a QEMU dgram
# netdev bound to 127.0.0.1 receives raw Ethernet frames (EtherType 0x88B5,
# no IP) from tests/qemu/send-frames, and the guest
# (tests/qemu/guest/dubious-irqs.sh) compares the NIC's interrupt count from
# /proc/interrupts with the random core's counters under
# /proc/sys/kernel/random.
#
# Five boots, all before the pool is ready (random.trust_cpu=off
# random.trust_bootloader=off rng_core.default_quality=0, no virtio-rng, no
# rngd, nothing that blocks on randomness), under TCG:
#   default: 400 frames/s: dubious_irqs_mixed follows the e1000 interrupts;
#            the pool's credit (entropy_avail, the input pool's credit
#            before it is ready) stays within what the other interrupts
#            can earn; the sysctl kernel.random.credit_dubious_irqs=1 at
#            run time makes irq_credit_bits_dubious grow; once the pool is
#            made ready (blocking getrandom), the counters go on.
#   flood:   frames as fast as the host sends them for 10 s with a trickle
#            of serial-port interrupts: the pool's credit stays within the
#            bound computed from the other interrupts (fails when a flood
#            forces a batch every 1024 interrupts, as patch v1 did).
#   credit:  sysctl.kernel.random.credit_dubious_irqs=1 on the command line
#            makes irq_credit_bits_dubious grow from the start.
#   virtio-default, virtio-flood: default and flood with a virtio-net-pci
#            NIC instead of e1000 (its virtqueue interrupts, marked
#            through the virtio transport by patches 0007 and 0008).
# Each boot goes through tests/qemu/run-scenario: the guest's
# "HOST --seconds N --rate R" lines run send-frames on the host.
# Prints the guest's RESULT lines; exit 0 if all pass, 1 if any fails or the
# guest never finishes, 77 if a prerequisite is missing.
#
# Environment: RNGD_QEMU_KERNEL or RNGD_GUEST_KERNEL (a bzImage; default:
# the one kernel-patches/build-kernel builds or has cached), RNGD_QEMU_INITRD
# (default: a kernel-only one built here), QEMU_TIMEOUT (s per boot, default
# 240), KEEP_LOGS=1 keeps the temp dir, DUBIOUS_BOOTS (default "default
# flood credit virtio-default virtio-flood"), DUBIOUS_FLOOD_RATE (frames/s
# of the flood boots, default 8000), BOOT_EXTRA (kernel arguments added to every boot, for controls).
# shellcheck source=tests/qemu/scenarios/common.sh
. "$(dirname "$0")/common.sh"
scenario=dubious-irqs
command -v python3 >/dev/null || scenario_skip $scenario "python3 missing (send-frames)"
kernel_only_guest $scenario

# Frames per second of the flood boot. As fast as the host can send (0)
# yields fewer interrupts than a paced stream: e1000 and NAPI then poll
# many frames per interrupt. DUBIOUS_FLOOD_RATE=0 sends flat out.
flood_rate=${DUBIOUS_FLOOD_RATE:-8000}

# Two free loopback UDP ports: QEMU listens on the first, frames come from
# the second.
read -r port_guest port_host < <(python3 -c '
import socket
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')
[ -n "${port_host:-}" ] || scenario_error $scenario "no free loopback UDP ports"

# dubious_boot VARIANT [KERNEL ARGUMENTS]: a virtio-* variant gets a
# virtio-net NIC, any other an e1000.
dubious_boot() {
	local nic=e1000
	case $1 in virtio-*) nic=virtio-net-pci ;; esac
	boot -s $scenario -v "$1" -P -r none -A tcg -T "${QEMU_TIMEOUT:-240}" \
		-a "rngd.flood_rate=$flood_rate${2:+ $2}${BOOT_EXTRA:+ $BOOT_EXTRA}" \
		-N "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$port_guest,remote.type=inet,remote.host=127.0.0.1,remote.port=$port_host" \
		-D "$nic,netdev=n0" \
		-- "$qemu_dir/send-frames" --port "$port_guest" --bind-port "$port_host"
}

for b in ${DUBIOUS_BOOTS:-default flood credit virtio-default virtio-flood}; do
	case $b in
	default|flood|virtio-default|virtio-flood) dubious_boot "$b" ;;
	credit) dubious_boot credit sysctl.kernel.random.credit_dubious_irqs=1 ;;
	*) scenario_error $scenario "unknown boot '$b' in DUBIOUS_BOOTS" ;;
	esac
done
finish
