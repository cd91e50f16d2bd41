#!/usr/bin/env bash
# Run a command that may feed entropy where it cannot reach this machine's
# pool: in a private mount namespace (unshare -m) where /dev/random (and
# /dev/hwrng, if present) are bind-mounted over by empty regular files,
# and this machine's hwrng sysfs folder (/sys/class/misc/hw_random:
# rng_current, rng_quality) by an empty tmpfs, so that nothing run here
# can read or set the real device's credit (tests use --hwrng-sysfs
# stand-ins).
#
#   guard.sh [-w] [-p PIDFILE] -- COMMAND [ARG]...
#
# -p: write the command's pid (it is exec'd, so signals reach it directly).
# -w: the test means to write to /dev/random; without it, anything written
#     there fails the guard (exit 99) whatever the command returned.
# -H STANDIN: bind STANDIN (a character device such as /dev/urandom) over
#     /dev/hwrng instead of an empty file, so a command line naming
#     /dev/hwrng runs as written; skips (77) where /dev/hwrng does not exist.
# Exit: the command's status, 77 (skip) without root or unshare, 99 if
# /dev/random was written unasked.
set -u
allow_write=0
pidfile=
hwrng_standin=
while [ $# -gt 0 ]; do
	case $1 in
	-w) allow_write=1; shift ;;
	-p) pidfile=$2; shift 2 ;;
	-H) hwrng_standin=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "guard.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "guard.sh: no command" >&2; exit 2; }

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "guard.sh: needs root and unshare -m; skipping" >&2
	exit 77
fi

if [ -n "$hwrng_standin" ] && [ ! -e /dev/hwrng ]; then
	echo "guard.sh: no /dev/hwrng to cover with $hwrng_standin; skipping" >&2
	exit 77
fi

gdir=$(mktemp -d "${TMPDIR:-/tmp}/rngd-guard.XXXXXX")
trap 'rm -rf "$gdir"' EXIT
: > "$gdir/random"
: > "$gdir/hwrng"
export GUARD_DIR=$gdir GUARD_PIDFILE=$pidfile GUARD_HWRNG=${hwrng_standin:-$gdir/hwrng}

unshare -m --propagation private -- bash -c '
	set -e
	mount --bind "$GUARD_DIR/random" /dev/random
	if [ -e /dev/hwrng ]; then mount --bind "$GUARD_HWRNG" /dev/hwrng; fi
	hw=$(readlink -f /sys/class/misc/hw_random 2>/dev/null || true)
	if [ -n "$hw" ] && [ -d "$hw" ]; then mount -t tmpfs -o size=16k,mode=0755 rngd-guard "$hw"; fi
	# Refuse to run unless the bind really took: a bug must not reach the pool.
	[ -f /dev/random ] || { echo "guard.sh: /dev/random is not covered" >&2; exit 98; }
	[ ! -e /sys/class/misc/hw_random/rng_quality ] || { echo "guard.sh: hw_random sysfs is not covered" >&2; exit 98; }
	if [ -n "$GUARD_PIDFILE" ]; then echo $$ > "$GUARD_PIDFILE"; fi
	exec "$@"
' guard "$@" &
child=$!
# Pass TERM/INT on, so killing the test does not orphan the command.
signalled=0
trap 'kill -TERM $child 2>/dev/null; signalled=1' TERM INT
wait $child
rc=$?
# A trapped signal ends the wait early, and the check is for the command's
# end: 10 s for it to go, then SIGKILL (timeout(1) sends only one signal).
for ((i = 0; i < 100; i++)); do
	kill -0 "$child" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$child" 2>/dev/null; then
	kill -KILL "$child" 2>/dev/null
fi
# The command's own status, not the interrupted wait's 128 + signal.
if [ "$signalled" = 1 ]; then
	wait "$child" 2>/dev/null
	rc=$?
fi
# The test is a builtin: timeout(1) signals its whole process group, which
# killed a stat(1) here and read as a write that never happened.
if [ "$allow_write" = 0 ] && [ -s "$gdir/random" ]; then
	echo "guard.sh: FAIL: $(stat -c %s "$gdir/random") bytes were written to the guarded /dev/random" >&2
	exit 99
fi
if [ "$allow_write" = 1 ]; then
	stat -c %s "$gdir/random" > "${GUARD_WRITTEN:-/dev/null}"
fi
exit $rc
