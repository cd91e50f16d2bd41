#!/usr/bin/env bash
# peer-fetch.sh PACKAGE: print the folder where Debian's PACKAGE
# (rng-tools-debian or rng-tools5) is unpacked with `apt-get download` +
# `dpkg -x`, never installed (its rngd would feed this machine's pool).
# Cached per version (also for tests/integration/rngtest-peer-fetch.sh). Exits
# non-zero with one line when the peer cannot be had: callers fail.
set -euo pipefail

pkg=${1:?usage: peer-fetch.sh PACKAGE}
case $pkg in rng-tools-debian|rng-tools5) ;; *) echo "peer-fetch: not a peer: $pkg" >&2; exit 2 ;; esac
die() { echo "peer-fetch: $*" >&2; exit 1; }

candidate_version() {
	apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1
}
version=$(candidate_version)
if [ -z "$version" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq >/dev/null 2>&1 || true
	version=$(candidate_version)
fi
[ -n "$version" ] || die "apt knows no version of $pkg (is a Debian mirror configured?)"

cache=${RNGTEST_PEER_CACHE:-/var/cache/rngd-test/peer}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${TMPDIR:-/tmp}/rngd-test-peer-$(id -u)
	mkdir -p "$cache"
fi
dest=$cache/$pkg-$version

exec 9>"$cache/.lock-$pkg"
flock 9
if [ ! -f "$dest/usr/share/man/man8/rngd.8.gz" ]; then
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	chmod 0755 "$tmp"
	if ! (cd "$tmp" && apt-get download -q "$pkg=$version" >"$tmp/apt.log" 2>&1); then
		cat "$tmp/apt.log" >&2
		die "apt-get download $pkg=$version failed"
	fi
	deb=$(find "$tmp" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	[ -n "$deb" ] || die "apt-get download left no .deb"
	[ "$(dpkg-deb -f "$deb" Package)" = "$pkg" ] || die "$deb is not $pkg"
	dpkg-deb -x "$deb" "$tmp/root"
	[ -f "$tmp/root/usr/share/man/man8/rngd.8.gz" ] || die "$deb has no rngd(8)"
	rm -rf "$dest"
	mv "$tmp/root" "$dest"
fi
echo "$dest"
