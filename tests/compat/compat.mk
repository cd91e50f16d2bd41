# tests/compat/compat.mk: rng-tools users' command lines and config files,
# each started under guard.sh.
COMPAT_TESTS = \
	tests/compat/compat-peer-options.sh \
	tests/compat/compat-shipped.sh
TESTS += $(COMPAT_TESTS)
EXTRA_DIST += $(COMPAT_TESTS) \
	tests/compat/peer-fetch.sh \
	tests/compat/shipped.txt \
	tests/compat/rng-tools-debian.active \
	tests/compat/rng-tools-6.17-options.8
