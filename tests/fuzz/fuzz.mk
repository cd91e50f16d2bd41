# tests/fuzz/: libFuzzer harnesses, built by clang with
# -fsanitize=fuzzer,address,undefined straight from the sources they test
# (configure's CC may be gcc, which has no libFuzzer). Owned by the
# hardening work.
#
#   make check   runs each harness 10 s from its seed corpus (fuzz-check.sh)
#   make fuzz    runs each FUZZ_SECONDS (default 600)
CLANG ?= clang
FUZZ_SECONDS ?= 600
# No -Werror: clang may warn where gcc does not, in code this fragment
# does not own; warnings still show in the build log.
FUZZ_CFLAGS = -std=gnu11 -g -O1 -Wall -Wextra -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I$(abs_top_builddir) -I.
# Rules compile from the source tree with its relative paths (so
# $(FIPS_SOURCES) serves as it is) and write into the build tree.
FUZZ_BUILD = cd $(top_srcdir) && $(SHELL) tests/fuzz/build-harness.sh $(abs_top_builddir)/$@ $(CLANG) $(FUZZ_CFLAGS)
FUZZ_HARNESSES = tests/fuzz/fuzz_config tests/fuzz/fuzz_cli tests/fuzz/fuzz_gate tests/fuzz/fuzz_sysstat \
	tests/fuzz/fuzz_egd
FUZZ_OPTIONS_DEPS = $(top_srcdir)/rngd/options.c $(top_srcdir)/rngd/options_table.c $(top_srcdir)/rngd/argv_scan.c $(top_srcdir)/rngd/argv_scan.h $(top_srcdir)/sources/parse_num.c $(top_srcdir)/rngd/config.c $(top_srcdir)/rngd/options.h $(top_srcdir)/rngd/defaults.h config.h

check_SCRIPTS += $(FUZZ_HARNESSES)
TESTS += tests/fuzz/fuzz-check.sh
CLEANFILES += $(FUZZ_HARNESSES)
EXTRA_DIST += \
	tests/fuzz/fuzz_config.c tests/fuzz/fuzz_cli.c tests/fuzz/fuzz_gate.c tests/fuzz/fuzz_sysstat.c tests/fuzz/fuzz_check.h \
	tests/fuzz/build-harness.sh tests/fuzz/run-fuzz.sh tests/fuzz/fuzz-check.sh tests/fuzz/options.dict \
	tests/fuzz/corpus

tests/fuzz/fuzz_config: $(top_srcdir)/tests/fuzz/fuzz_config.c $(top_srcdir)/tests/fuzz/fuzz_check.h $(FUZZ_OPTIONS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_BUILD) tests/fuzz/fuzz_config.c rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c -lm

tests/fuzz/fuzz_cli: $(top_srcdir)/tests/fuzz/fuzz_cli.c $(top_srcdir)/tests/fuzz/fuzz_check.h $(FUZZ_OPTIONS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_BUILD) tests/fuzz/fuzz_cli.c rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c -lm

# fips/libfips.a stands for the gate's sources: it is rebuilt when they change.
tests/fuzz/fuzz_gate: $(top_srcdir)/tests/fuzz/fuzz_gate.c fips/libfips.a \
		$(top_srcdir)/tests/reference/fips_reference.c $(top_srcdir)/tests/reference/fips_reference.h \
		$(top_srcdir)/tests/lib/splitmix64.h
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_BUILD) tests/fuzz/fuzz_gate.c $(FIPS_SOURCES) tests/reference/fips_reference.c -lm

tests/fuzz/fuzz_sysstat: $(top_srcdir)/tests/fuzz/fuzz_sysstat.c $(top_srcdir)/tests/fuzz/fuzz_check.h $(top_srcdir)/sources/sysstat_parse.c \
		$(top_srcdir)/sources/sysstat_parse.h config.h
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_BUILD) tests/fuzz/fuzz_sysstat.c sources/sysstat_parse.c

# The EGD request parser and client state machine (one harness, shared
# with its make-check replay in tests/fuzz/test_egd_fuzz.c).
tests/fuzz/fuzz_egd: $(top_srcdir)/tests/fuzz/test_egd_fuzz.c $(top_srcdir)/rngd/egd_proto.c \
		$(top_srcdir)/rngd/egd_reserve.c $(top_srcdir)/rngd/egd_proto.h $(top_srcdir)/tests/lib/splitmix64.h config.h
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_BUILD) -DEGD_LIBFUZZER -pthread tests/fuzz/test_egd_fuzz.c rngd/egd_proto.c rngd/egd_reserve.c

.PHONY: fuzz
fuzz: $(FUZZ_HARNESSES)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(BASH) $(top_srcdir)/tests/fuzz/run-fuzz.sh $(FUZZ_SECONDS)
