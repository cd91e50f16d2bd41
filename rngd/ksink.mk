# rngd/ksink.mk: the kernel sink, rng_quality, privileges, systemd notify,
# rngd.service and its sysusers.d file, and their tests. Included from
# rngd/local.mk: the rngd program lists $(RNGD_KSINK_SOURCES) in its
# SOURCES, adds $(RNGD_KSINK_CFLAGS) to its CFLAGS and $(RNGD_KSINK_LIBS)
# to its LDADD.

RNGD_KSINK_SOURCES = \
	rngd/sink_kernel.c rngd/kernel_entropy.c rngd/kernel_entropy.h \
	rngd/hwrng_quality.c rngd/hwrng_quality.h \
	rngd/privs.c rngd/privs.h \
	rngd/notify.c rngd/notify.h
RNGD_KSINK_CFLAGS = $(CAP_CFLAGS) $(SYSTEMD_CFLAGS)
RNGD_KSINK_LIBS = $(CAP_LIBS) $(SYSTEMD_LIBS)

# ---- systemd unit and user ----------------------------------------------
systemdsystemunit_DATA = rngd/rngd.service
dist_sysusers_DATA = rngd/sysusers.d/rngd.conf
EXTRA_DIST += rngd/rngd.service.in
CLEANFILES += rngd/rngd.service

rngd/rngd.service: rngd/rngd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) rngd && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' $(srcdir)/rngd/rngd.service.in > $@.tmp && \
	mv $@.tmp $@
