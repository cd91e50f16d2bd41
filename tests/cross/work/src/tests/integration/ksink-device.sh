#!/usr/bin/env bash
# The kernel sink's real ioctls, with /dev/random replaced by a regular file
# in a private mount namespace: RNDADDENTROPY must fail with a clear ENOTTY
# and the file must stay untouched. This machine's pool is never reached.
set -euo pipefail

probe="$top_builddir/tests/integration/ksink_probe"
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: needs root and unshare -m"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake="$tmp/random"
printf 'guard file\n' >"$fake"

run_probe() {
	unshare -m --propagation private bash -c \
		'mount --bind "$1" /dev/random && shift && exec "$@"' _ "$fake" "$probe" "$@"
}

fail=0
for mode in "" --watermark; do
	if ! out=$(run_probe $mode 2>&1); then
		echo "FAIL: ksink_probe $mode: $out"
		fail=1
		continue
	fi
	echo "ksink_probe $mode:"
	echo "$out" | sed 's/^/  /'
	grep -q '^write: Inappropriate ioctl for device$' <<<"$out" || { echo "FAIL: no ENOTTY"; fail=1; }
	grep -q '^phase: ' <<<"$out" || { echo "FAIL: no phase line"; fail=1; }
done
[ "$(cat "$fake")" = "guard file" ] || { echo "FAIL: the stand-in /dev/random changed"; fail=1; }
# The namespace is gone with the probe: the host's device is untouched.
[ -c /dev/random ] || { echo "FAIL: /dev/random is no longer a character device"; fail=1; }
exit $fail
