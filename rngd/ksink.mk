# rngd/ksink.mk: the kernel sink, rng_quality, privileges, systemd notify,
# rngd.service and its sysusers.d file, and their tests. Included from
# rngd/local.mk: the rngd program lists $(RNGD_KSINK_SOURCES) in its
# SOURCES. No library: privs.c sets capabilities with capset(2) and prctl(2).

RNGD_KSINK_SOURCES = \
	rngd/sink_kernel.c rngd/kernel_entropy.c rngd/kernel_entropy.h \
	rngd/hwrng_quality.c rngd/hwrng_quality_state.c rngd/hwrng_quality.h rngd/hwrng_quality_state.h \
	rngd/privs.c rngd/privs.h \
	rngd/notify.c rngd/notify.h

# ---- systemd unit and user ----------------------------------------------
systemdsystemunit_DATA = rngd/rngd.service
dist_sysusers_DATA = rngd/sysusers.d/rngd.conf
EXTRA_DIST += rngd/rngd.service.in
CLEANFILES += rngd/rngd.service

rngd/rngd.service: rngd/rngd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) rngd && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' $(srcdir)/rngd/rngd.service.in > $@.tmp && \
	mv $@.tmp $@

# ---- unit tests (cmocka): every kernel call is mocked ----------------------
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sink_kernel tests/unit/test_hwrng_quality \
	tests/unit/test_privs tests/unit/test_notify
TESTS += tests/unit/test_sink_kernel tests/unit/test_hwrng_quality \
	tests/unit/test_privs tests/unit/test_notify

KSINK_SINK_TEST_FILES = tests/unit/test_sink_kernel.c rngd/sink_kernel.c \
	rngd/kernel_entropy.h rngd/sink.h
KSINK_QUALITY_TEST_FILES = tests/unit/test_hwrng_quality.c rngd/hwrng_quality.c rngd/hwrng_quality_state.c \
	rngd/hwrng_quality.h
KSINK_PRIVS_TEST_FILES = tests/unit/test_privs.c rngd/privs.c rngd/privs.h
KSINK_NOTIFY_TEST_FILES = tests/unit/test_notify.c rngd/notify.c rngd/notify.h
# The stand-in sysfs plays the kernel's rng_quality_store() inside pwrite().
KSINK_QUALITY_WRAP = -Wl,--wrap=pwrite

tests_unit_test_sink_kernel_SOURCES = $(KSINK_SINK_TEST_FILES)
tests_unit_test_hwrng_quality_SOURCES = $(KSINK_QUALITY_TEST_FILES)
tests_unit_test_hwrng_quality_LDFLAGS = $(KSINK_QUALITY_WRAP)
tests_unit_test_privs_SOURCES = $(KSINK_PRIVS_TEST_FILES)
tests_unit_test_notify_SOURCES = $(KSINK_NOTIFY_TEST_FILES)
endif

# ---- integration tests ---------------------------------------------------------
check_PROGRAMS += tests/integration/ksink_probe
tests_integration_ksink_probe_SOURCES = tests/integration/ksink_probe.c \
	rngd/sink_kernel.c rngd/kernel_entropy.c rngd/kernel_entropy.h rngd/sink.h
tests_integration_ksink_probe_CFLAGS = $(AM_CFLAGS)
tests_integration_ksink_probe_LDADD =
# The security test reads the unit exactly as make install would install it.
check_SCRIPTS += rngd/rngd.service
TESTS += tests/integration/ksink-device.sh tests/integration/ksink-security.sh
EXTRA_DIST += tests/integration/ksink-device.sh tests/integration/ksink-security.sh
