#!/usr/bin/env bash
# Print the absolute path of rng-tools-debian's rngtest, unpacked with
# `apt-get download` + `dpkg -x` and never installed (installing the package
# would start its rngd against this machine's pool). The unpacked tree is
# cached per package version under /var/cache/rngd-test/peer, or under
# $TMPDIR when that is not writable. Exits non-zero with one line on stderr
# when the peer cannot be had: callers must fail, not skip.
set -euo pipefail

pkg=rng-tools-debian
die() { echo "rngtest-peer-fetch: $*" >&2; exit 1; }

candidate_version() {
	apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1
}

version=$(candidate_version)
if [ -z "$version" ] && [ "$(id -u)" -eq 0 ]; then
	# A machine whose package lists were never fetched knows no versions.
	apt-get update -qq >/dev/null 2>&1 || true
	version=$(candidate_version)
fi
[ -n "$version" ] || die "apt knows no version of $pkg (is a Debian mirror configured?)"

cache=${RNGTEST_PEER_CACHE:-/var/cache/rngd-test/peer}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${TMPDIR:-/tmp}/rngd-test-peer-$(id -u)
	mkdir -p "$cache"
fi
dest=$cache/$version
peer=$dest/usr/bin/rngtest

exec 9>"$cache/.lock"
flock 9
if [ ! -x "$peer" ]; then
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# apt's download sandbox user must be able to write here.
	chmod 0755 "$tmp"
	if ! (cd "$tmp" && apt-get download -q "$pkg=$version" >"$tmp/apt.log" 2>&1); then
		cat "$tmp/apt.log" >&2
		die "apt-get download $pkg=$version failed"
	fi
	deb=$(find "$tmp" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	[ -n "$deb" ] || die "apt-get download left no .deb"
	[ "$(dpkg-deb -f "$deb" Package)" = "$pkg" ] || die "$deb is not $pkg"
	dpkg-deb -x "$deb" "$tmp/root"
	[ -x "$tmp/root/usr/bin/rngtest" ] || die "$deb has no usr/bin/rngtest"
	rm -rf "$dest"
	mv "$tmp/root" "$dest"
fi
echo "$peer"
