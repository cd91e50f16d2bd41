# tests/deb: the Debian package (debian/). make deb builds it from make
# dist's tarball in a scratch folder (tests/deb/build-deb); make check-deb
# runs lintian on it, then installs, upgrades, removes and purges it in the
# Debian 12 systemd guest (tests/deb/run-deb-guest; root, QEMU TCG).
DEB_ARCH = $$(dpkg --print-architecture)
DEB_CHANGES = rngd_$(PACKAGE_VERSION)_$(DEB_ARCH).changes

.PHONY: deb check-deb check-deb-lintian check-deb-guest
deb:
	$(MAKE) $(AM_MAKEFLAGS) dist-gzip
	$(BASH) $(srcdir)/tests/deb/build-deb $(distdir).tar.gz $(abs_top_builddir)

# These two take the package make deb left in the build tree.
check-deb-lintian:
	$(BASH) $(srcdir)/tests/deb/run-lintian $(abs_top_builddir)/$(DEB_CHANGES)

check-deb-guest:
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(BASH) $(srcdir)/tests/deb/run-deb-guest $(abs_top_builddir)/rngd_$(PACKAGE_VERSION)_$(DEB_ARCH).deb

# Lintian first: a package lintian rejects is not worth booting.
check-deb: deb
	$(MAKE) $(AM_MAKEFLAGS) check-deb-lintian
	$(MAKE) $(AM_MAKEFLAGS) check-deb-guest

CLEANFILES += rngd-deb-build.log
clean-local: clean-local-deb
.PHONY: clean-local-deb
clean-local-deb:
	rm -f rngd_*.deb rngd-dbgsym_*.deb rngd_*.changes rngd_*.buildinfo

EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/tests/control debian/tests/smoke \
	debian/rngd.postrm \
	debian/rngd.install debian/rngd.links debian/rngd.docs debian/10-debian-defaults.conf \
	debian/rngd.postinst debian/rngd.NEWS debian/rngd.triggers \
	tests/deb/build-deb tests/deb/run-lintian tests/deb/run-deb-guest \
	tests/deb/guest-deb tests/deb/rngd-deb-check.service
