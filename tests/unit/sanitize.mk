# tests/unit/sanitize.mk: make check runs every cmocka unit test
# (tests/unit/test_* in TESTS, but the TSan ones) a second time, built
# with ASan+UBSan in a tree of its own, so no test needs a sanitizer twin:
#   sanitize/src    the tarball's files (make distdir; the source folder
#                   may be configured in place, which rules out a VPATH
#                   build of it; cp -p keeps mtimes, so a re-run rebuilds
#                   only what changed)
#   sanitize/build  configured once with this tree's configure options,
#                   CFLAGS and LDFLAGS plus SANITIZE_FLAGS, and
#                   --disable-sanitize-check (it does not recurse); the
#                   libraries the tests link are built with them too.
# Any sanitizer report fails its test (-fno-sanitize-recover), so make
# check. Skipped where $(CC) cannot link the sanitizers (HAVE_ASAN).
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANITIZE_CHECK = @enable_sanitize_check@
if HAVE_ASAN
SANITIZE_CC_LINKS = yes
else
SANITIZE_CC_LINKS = no
endif

check-local: check-sanitize
clean-local: clean-sanitize
.PHONY: check-sanitize clean-sanitize
check-sanitize:
	@if test '$(SANITIZE_CHECK)' = no; then \
		echo "check-sanitize: configured with --disable-sanitize-check; skipped"; exit 0; fi; \
	if test '$(SANITIZE_CC_LINKS)' != yes; then \
		echo "check-sanitize: $(CC) cannot link -fsanitize=address,undefined; the unit tests' sanitizer run is skipped"; exit 0; fi; \
	tests=; for t in $(TESTS); do case $$t in \
		tests/unit/test_*_tsan) ;; tests/unit/test_*) tests="$$tests $$t" ;; esac; done; \
	if test -z "$$tests"; then echo "check-sanitize: no unit test in TESTS"; exit 0; fi; \
	$(MKDIR_P) sanitize/build && \
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=sanitize/src > sanitize/distdir.log 2>&1 || \
		{ cat sanitize/distdir.log; echo "check-sanitize: make distdir failed"; exit 1; }; \
	if test ! -f sanitize/build/config.status || test sanitize/build/config.status -ot config.status; then \
		echo "check-sanitize: configuring sanitize/build with $(SANITIZE_FLAGS)"; \
		eval "set x $$(./config.status --config)"; shift; \
		(cd sanitize/build && ../src/configure "$$@" --srcdir=../src --disable-sanitize-check \
			CFLAGS='$(CFLAGS) $(SANITIZE_FLAGS)' LDFLAGS='$(LDFLAGS) $(SANITIZE_FLAGS)') \
			> sanitize/configure.log 2>&1 || \
			{ tail -30 sanitize/configure.log; echo "check-sanitize: configure failed"; exit 1; }; \
	fi; \
	echo "check-sanitize: the unit tests again, built with $(SANITIZE_FLAGS) in sanitize/build"; \
	$(MAKE) $(AM_MAKEFLAGS) -C sanitize/build check-TESTS TESTS="$$tests" check_PROGRAMS= check_SCRIPTS= || \
		{ echo "check-sanitize: a unit test failed under ASan+UBSan (sanitize/build/test-suite.log)"; exit 1; }
clean-sanitize:
	-test ! -d sanitize || chmod -R u+w sanitize
	-rm -rf sanitize
