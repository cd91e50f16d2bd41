# kernel-patches: patches against Debian's linux-source-6.1 for the QEMU
# guest kernel (never built for or loaded into the build machine's kernel).
# check-patches.sh runs checkpatch.pl --strict on every patch in series
# (skipped when linux-source-6.1 is not installed).
TESTS += kernel-patches/check-patches.sh

.PHONY: check-kernel-patches
check-kernel-patches:
	top_srcdir='$(abs_top_srcdir)' $(BASH) $(srcdir)/kernel-patches/check-patches.sh

EXTRA_DIST += kernel-patches/series kernel-patches/guest.config \
	kernel-patches/build-kernel kernel-patches/check-patches.sh kernel-patches/README \
	kernel-patches/drivers.config \
	kernel-patches/0000-cover-letter.patch \
	kernel-patches/0001-hwrng-core-let-a-set-default_quality-cap-each-device-once-at-registr.patch \
	kernel-patches/0002-random-mix-dubious-interrupts-without-crediting-them.patch \
	kernel-patches/0003-genirq-add-IRQF_SAMPLE_DUBIOUS.patch \
	kernel-patches/0004-net-mark-interrupts-of-attacker-timed-NICs-IRQF_SAMPLE_DUBIOUS.patch \
	kernel-patches/0005-hwrng-virtio-do-not-drop-the-second-half-of-every-fill-in-copy_data.patch \
	kernel-patches/0006-hwrng-virtio-request-more-than-64-bytes-per-virtqueue-round-trip.patch \
	kernel-patches/0007-virtio-let-a-driver-have-its-virtqueue-interrupts-marked-dubious.patch \
	kernel-patches/0008-virtio_net-mark-its-virtqueue-interrupts-IRQF_SAMPLE_DUBIOUS.patch \
	kernel-patches/6.12/series \
	kernel-patches/6.12/0001-random-mix-dubious-interrupts-without-crediting-them.patch \
	kernel-patches/6.12/0002-genirq-add-IRQF_SAMPLE_DUBIOUS.patch \
	kernel-patches/6.12/0003-net-mark-interrupts-of-attacker-timed-NICs-IRQF_SAMPLE_DUBIOUS.patch \
	kernel-patches/6.12/0004-hwrng-virtio-do-not-drop-the-second-half-of-every-fill-in-copy_data.patch \
	kernel-patches/6.12/0005-hwrng-virtio-request-more-than-64-bytes-per-virtqueue-round-trip.patch \
	kernel-patches/6.12/0006-virtio-let-a-driver-have-its-virtqueue-interrupts-marked-dubious.patch \
	kernel-patches/6.12/0007-virtio_net-mark-its-virtqueue-interrupts-IRQF_SAMPLE_DUBIOUS.patch
