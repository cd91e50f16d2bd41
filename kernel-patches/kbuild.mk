# kernel-patches/kbuild.mk: checks of patches 0002-0006 and their guest
# scenarios. check-kernel-build unpacks linux-source-6.1 and compiles every
# object the series touches with W=1, before the series, after each prefix
# of it (incrementally) and after all of it (a few minutes of CPU; a pass is
# cached), so it is not part of `make check`; check-long and tools/test-all
# run it.
EXTRA_DIST += \
	kernel-patches/check-kernel-build \
	kernel-patches/drivers.config \
	tests/qemu/send-frames \
	tests/qemu/scenarios/dubious-irqs.sh \
	tests/qemu/scenarios/virtio-throughput.sh

# Exit status 77 (linux-source-6.1, QEMU or the guest harness missing) is a
# skip, reported but not an error.
KPATCH_RUN = st=0; "$$@" || st=$$?; \
	if [ $$st = 77 ]; then echo "$$2: skipped"; elif [ $$st != 0 ]; then exit $$st; fi

.PHONY: check-kernel-build check-qemu-kpatch check-long-kpatch
check-kernel-build:
	@set -- $(BASH) $(srcdir)/kernel-patches/check-kernel-build; $(KPATCH_RUN)

# The guest scenarios of patches 0002-0006, for running them on their own.
check-qemu-kpatch:
	@set -- $(BASH) $(srcdir)/tests/qemu/scenarios/dubious-irqs.sh; $(KPATCH_RUN)
	@set -- $(BASH) $(srcdir)/tests/qemu/scenarios/virtio-throughput.sh; $(KPATCH_RUN)

check-long-kpatch: check-kernel-build
check-long: check-long-kpatch
