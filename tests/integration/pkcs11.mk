# tests/integration/pkcs11.mk: the PKCS#11 source against SoftHSM2 (issue
# 17), through the daemon under guard.sh, with a fault-injecting wrapper
# module (pkcs11-unplug.so) that pulls the token out mid-run.
EXTRA_DIST += tests/integration/source-pkcs11.sh tests/integration/pkcs11-unplug.c
if HAVE_P11KIT
TESTS += tests/integration/source-pkcs11.sh
check_SCRIPTS += tests/integration/pkcs11-unplug.so
CLEANFILES += tests/integration/pkcs11-unplug.so
tests/integration/pkcs11-unplug.so: tests/integration/pkcs11-unplug.c
	@$(MKDIR_P) tests/integration
	$(CC) $(AM_CFLAGS) $(CFLAGS) ${P11KIT_CFLAGS} -fPIC -shared -o $@ $(srcdir)/tests/integration/pkcs11-unplug.c -ldl
endif
