# tests/cross/cross.mk: cross builds of rngd, rngtest and the unit tests for
# arm64 and 64-bit POWER, run under qemu-user (tests/cross/check-cross.sh).
# Part of make check; the work tree it builds in is tests/cross/work/
# under the build folder.
TESTS += tests/cross/check-cross.sh
EXTRA_DIST += tests/cross/check-cross.sh

clean-local: clean-cross
.PHONY: clean-cross
clean-cross:
	rm -rf tests/cross/work
