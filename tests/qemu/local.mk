# tests/qemu: the QEMU guest suite. `make check-qemu` builds (or reuses) the
# patched guest kernel, checks the patches, builds the initramfs with this
# build's rngd and rngtest, and runs every scenario in tests/qemu/scenarios.
# Kernel code only ever runs inside these guests.
.PHONY: check-qemu
check-qemu: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(BASH) $(srcdir)/tests/qemu/check-qemu

# The demo guest: rngd feeding the patched kernel, live statistics, shutdown.
.PHONY: demo-qemu
demo-qemu: all
	$(BASH) $(srcdir)/tests/qemu/demo $(abs_top_builddir)

clean-local: clean-qemu
.PHONY: clean-qemu
clean-qemu:
	rm -rf tests/qemu/work

EXTRA_DIST += tests/qemu/check-qemu tests/qemu/run-scenario tests/qemu/demo \
	tests/qemu/make-initramfs tests/qemu/guest-getrandom.c \
	tests/qemu/send-frames \
	tests/qemu/guest/init tests/qemu/guest/lib.sh tests/qemu/guest/probe.sh \
	tests/qemu/guest/default-quality.sh tests/qemu/guest/good-backend.sh \
	tests/qemu/guest/bad-backend.sh tests/qemu/guest/rate-limited.sh \
	tests/qemu/guest/hot-unplug.sh tests/qemu/guest/throughput.sh \
	tests/qemu/guest/tpm12.sh tests/qemu/guest/tpm20.sh tests/qemu/guest/demo.sh \
	tests/qemu/scenarios/common.sh \
	tests/qemu/scenarios/default-quality.sh tests/qemu/scenarios/good-backend.sh \
	tests/qemu/scenarios/bad-backend.sh tests/qemu/scenarios/rate-limited.sh \
	tests/qemu/scenarios/hot-unplug.sh tests/qemu/scenarios/throughput.sh \
	tests/qemu/scenarios/tpm12.sh tests/qemu/scenarios/tpm20.sh \
	tests/qemu/scenarios/dubious-irqs.sh tests/qemu/scenarios/virtio-throughput.sh \
	tests/qemu/guest/dubious-irqs.sh tests/qemu/guest/virtio-throughput.sh \
	tests/qemu/scenarios/egd-credit.sh tests/qemu/guest/egd-credit.sh \
	tests/integration/raw-egd-server.py
