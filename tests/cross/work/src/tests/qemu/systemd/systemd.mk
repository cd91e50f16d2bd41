# tests/qemu/systemd: rngd.service under a real systemd in a Debian 12
# guest (debootstrap root filesystem cached under RNGD_ROOTFS_CACHE, Debian's
# own kernel, QEMU TCG, virtio-rng). Needs root, debootstrap and network
# access to a Debian mirror for the first (cold) run.
.PHONY: check-qemu-systemd
check-qemu-systemd: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(BASH) $(srcdir)/tests/qemu/systemd/run-systemd

EXTRA_DIST += tests/qemu/systemd/build-rootfs tests/qemu/systemd/packages \
	tests/qemu/systemd/run-systemd tests/qemu/systemd/guest-check \
	tests/qemu/systemd/rngd-guest-check.service
