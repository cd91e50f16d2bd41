#!/usr/bin/env bash
# Print the absolute path of rng-tools-debian's rngtest, unpacked with
# `apt-get download` + `dpkg -x` and never installed (installing the package
# would start its rngd against this machine's pool). Fetching and the cache
# per package version are tests/compat/peer-fetch.sh's. Exits non-zero with
# one line on stderr when the peer cannot be had: callers must fail, not skip.
set -euo pipefail

die() { echo "rngtest-peer-fetch: $*" >&2; exit 1; }
dest=$("$(dirname "$0")/../compat/peer-fetch.sh" rng-tools-debian) || exit 1
peer=$dest/usr/bin/rngtest
[ -x "$peer" ] || die "rng-tools-debian in $dest has no usr/bin/rngtest"
echo "$peer"
