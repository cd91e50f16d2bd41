# rngd: the daemon. KSINK's fragment (kernel sink, rng_quality, privileges,
# systemd) lists its files in RNGD_KSINK_SOURCES.
include rngd/ksink.mk

RNGD_CORE_SOURCES = \
	rngd/config.c \
	rngd/credit.c rngd/credit.h \
	rngd/log.c rngd/log.h \
	rngd/loop.c rngd/loop.h rngd/thread_stack.h rngd/eventfd.h rngd/poll_timeout.h \
	rngd/loop_jobs.c rngd/loop_jobs.h rngd/every.h rngd/loop_state.h rngd/block_flow.c rngd/block_flow.h \
	rngd/policy.c rngd/policy.h \
	rngd/reader.c rngd/reader.h rngd/deadline.h rngd/start_open.c \
	rngd/slot.c rngd/slot.h rngd/slow_call.c rngd/slow_call.h \
	rngd/file_clash.c rngd/file_clash.h \
	rngd/options.c rngd/options.h rngd/options_table.c rngd/options_table.h rngd/argv_scan.c rngd/argv_scan.h rngd/defaults.h \
	rngd/secret_mem.c rngd/secret_mem.h \
	rngd/sink.h \
	rngd/sink_file.c \
	rngd/sink_null.c rngd/sink_null.h \
	rngd/reload_check.c rngd/reload_check.h \
	rngd/source_set.c rngd/source_set.h rngd/source_list.c rngd/source_list.h \
	rngd/stats.c rngd/stats.h

sbin_PROGRAMS += rngd/rngd
# main.c's start-up steps, on its struct rngd (rngd/daemon.h).
RNGD_DAEMON_SOURCES = rngd/daemon.h rngd/daemon_hwrng.c rngd/daemon_egd.c rngd/daemon_sink.c rngd/daemon_checks.c \
	rngd/background.c rngd/background.h
rngd_rngd_SOURCES = rngd/main.c $(RNGD_DAEMON_SOURCES) $(RNGD_CORE_SOURCES) $(RNGD_KSINK_SOURCES)
rngd_rngd_LDADD = sources/libsources.a fips/libfips.a $(SOURCES_LIBS) $(FIPS_LIBS)

# rng-tools-debian's and rng-tools5's program names: started as rngd-debian
# or rngd5, rngd reads its command line as that peer's (rngd/compat_load.c).
# Relative links beside rngd; their names are matched as they are, so
# --program-transform-name changes only the name they point at.
# (configure.ac has no AC_PROG_LN_S: ln -s, as on every Linux system.)
RNGD_COMPAT_LINKS = rngd-debian rngd5
.PHONY: install-exec-hook-rngd-links uninstall-hook-rngd-links
install-exec-hook: install-exec-hook-rngd-links
install-exec-hook-rngd-links:
	@target=`echo rngd | sed '$(transform)'`; \
	for l in $(RNGD_COMPAT_LINKS); do \
		echo " ln -s $$target '$(DESTDIR)$(sbindir)/$$l'"; \
		rm -f "$(DESTDIR)$(sbindir)/$$l" && ln -s "$$target" "$(DESTDIR)$(sbindir)/$$l" || exit 1; \
	done
uninstall-hook: uninstall-hook-rngd-links
uninstall-hook-rngd-links:
	for l in $(RNGD_COMPAT_LINKS); do rm -f "$(DESTDIR)$(sbindir)/$$l"; done
