#!/usr/bin/env bash
# The installed rngd.service: systemd-analyze security --offline must rate
# its exposure 2.0 or lower, and systemd-analyze verify must accept it.
set -euo pipefail

unit="$top_builddir/rngd/rngd.service"
max_exposure=2.0
if ! command -v systemd-analyze >/dev/null; then
	echo "FAIL: systemd-analyze missing (tools/install-deps installs systemd)"
	exit 1
fi
[ -f "$unit" ] || { echo "FAIL: $unit was not built"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# systemd-analyze names the unit after the file: keep the real name.
cp "$unit" "$tmp/rngd.service"

fail=0
out=$(systemd-analyze security --offline=true --no-pager "$tmp/rngd.service" 2>&1) || true
echo "$out" | grep -E '^✗|Overall' || true
exposure=$(sed -n 's/.*Overall exposure level for rngd.service: \([0-9.]*\).*/\1/p' <<<"$out")
if [ -z "$exposure" ]; then
	echo "FAIL: no overall exposure in the output:"
	echo "$out"
	exit 1
fi
if awk -v e="$exposure" -v m="$max_exposure" 'BEGIN { exit !(e <= m) }'; then
	echo "exposure $exposure <= $max_exposure"
else
	echo "FAIL: exposure $exposure > $max_exposure"
	fail=1
fi
# Its own verdict too: --threshold counts in tenths.
if ! systemd-analyze security --offline=true --threshold=20 "$tmp/rngd.service" >/dev/null 2>&1; then
	echo "FAIL: systemd-analyze security --threshold=20 rejects the unit"
	fail=1
fi

# verify checks that ExecStart= is executable: point it at a stand-in, so
# the unit's syntax is checked without an installed rngd. --man=no: the
# man pages are not installed either.
mkdir "$tmp/sbin"
printf '#!/bin/sh\nexit 0\n' >"$tmp/sbin/rngd"
chmod +x "$tmp/sbin/rngd"
mkdir "$tmp/verify"
sed "s|^ExecStart=[^ ]*/rngd |ExecStart=$tmp/sbin/rngd |" "$unit" >"$tmp/verify/rngd.service"
grep -q "^ExecStart=$tmp/sbin/rngd " "$tmp/verify/rngd.service" || { echo "FAIL: no ExecStart= to rewrite"; exit 1; }
if ! vout=$(systemd-analyze verify --man=no "$tmp/verify/rngd.service" 2>&1) || [ -n "$vout" ]; then
	echo "FAIL: systemd-analyze verify:"
	echo "$vout"
	fail=1
else
	echo "systemd-analyze verify: clean"
fi
exit $fail
