# rngd/devwatch.mk: the device watch (uevents for the hwrng source, instead
# of polling rng_current), the udev rule that lets the unprivileged rngd
# open hardware RNGs that appear after its privilege drop, and their tests.

RNGD_DEVWATCH_SOURCES = rngd/device_watch.c rngd/device_watch.h \
	rngd/hwrng_watch.c rngd/hwrng_watch.h
rngd_rngd_SOURCES += $(RNGD_DEVWATCH_SOURCES)
# Every program that links loop.c links the watch it runs.
DAEMON_LOOP_TEST_FILES += $(RNGD_DEVWATCH_SOURCES)
tests_integration_rngd_mockkernel_SOURCES += $(RNGD_DEVWATCH_SOURCES)

# ---- tests ----------------------------------------------------------------
check_PROGRAMS += tests/integration/uevent-send
tests_integration_uevent_send_SOURCES = tests/integration/uevent-send.c
tests_integration_uevent_send_LDADD =
DEVWATCH_INTEGRATION_TESTS = tests/integration/daemon-device-events.sh \
	tests/integration/daemon-device-fds.sh
TESTS += $(DEVWATCH_INTEGRATION_TESTS)
EXTRA_DIST += $(DEVWATCH_INTEGRATION_TESTS)

if HAVE_CMOCKA
DEVWATCH_UNIT_FILES = tests/unit/test_device_watch.c rngd/device_watch.c rngd/device_watch.h
check_PROGRAMS += tests/unit/test_device_watch
TESTS += tests/unit/test_device_watch
tests_unit_test_device_watch_SOURCES = $(DEVWATCH_UNIT_FILES)
endif

# ---- the udev rule ------------------------------------------------------------
# Under the prefix (make udevrulesdir=... to put it elsewhere), where
# systemd-udevd reads packaged rules: /usr/lib/udev/rules.d for --prefix=/usr.
udevrulesdir = $(prefix)/lib/udev/rules.d
dist_udevrules_DATA = rngd/udev/60-rngd.rules
