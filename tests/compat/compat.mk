# tests/compat/compat.mk: rng-tools users' command lines and config files
# (issue 13), each started under guard.sh.
COMPAT_TESTS =
TESTS += $(COMPAT_TESTS)
EXTRA_DIST += $(COMPAT_TESTS)
