#!/usr/bin/env bash
# Bad input at start-up, as a table: every option's values just
# outside its range on both sides and malformed ones, empty strings, paths
# that are directories, devices, FIFOs, missing, unreadable, /proc files,
# and broken config files. Each row gives the exact exit status and the
# key words its one error line must hold; each run must end within 2 s,
# print exactly one line, and credit nothing (guard.sh watches
# /dev/random; the file sink must stay empty). Rows marked good are the
# range edges just inside, which must be accepted (checked with -l, which
# parses everything and exits 0).
#
# The whole table runs inside one guard.sh namespace (a guard per row
# costs more than rngd does): every row checks that the covered
# /dev/random is still empty, and guard.sh checks it again at the end.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
if [ -z "${STARTUP_INPUT_GUARDED:-}" ]; then
	"$GUARD" -- env STARTUP_INPUT_GUARDED=1 "$BASH" "$0"
	exit $?
fi
[ -f /dev/random ] && [ ! -s /dev/random ] || fail "not inside guard.sh: /dev/random is not the empty stand-in"

"$HELPER" gen random 4 "$T/in" || fail gen
BASE=(-f -q -c /dev/null -x all -r "$T/in" -o "$T/sink")
AS_NOBODY=     # non-empty: run rngd as nobody (root reads everything)
# run_rngd ARGS...: rngd killed if it runs 2 s.
run_rngd() {
	if [ -n "$AS_NOBODY" ]; then
		timeout -s KILL 2 setpriv --reuid=65534 --regid=65534 --clear-groups "$RNGD" "$@"
	else
		timeout -s KILL 2 "$RNGD" "$@"
	fi
}
ROWS=0
FAILED=0
# STARTUP_INPUT_ALL=1: run every row and count the failures (to see how
# much of the table an older rngd fails) instead of stopping at the first.
row_fail() {
	[ -n "${STARTUP_INPUT_ALL:-}" ] || fail "$@"
	echo "FAIL: $*" >&2
	FAILED=$((FAILED + 1))
}

# bad STATUS 'KEY WORDS|MORE KEY WORDS' ARGS...: ARGS come after BASE.
bad() {
	local want_rc=$1 words=$2 rc lines w
	shift 2
	rm -f "$T/sink"
	run_rngd "${BASE[@]}" "$@" > "$T/o" 2> "$T/e"
	rc=$?
	ROWS=$((ROWS + 1))
	[ ! -s /dev/random ] || { row_fail "rngd $*: wrote to the guarded /dev/random"; return 0; }
	[ "$rc" = 137 ] && { row_fail "rngd $*: still running after 2 s"; return 0; }
	[ "$rc" = "$want_rc" ] || { row_fail "rngd $*: exit $rc, expected $want_rc: $(cat "$T/e")"; return 0; }
	lines=$(wc -l < "$T/e")
	[ "$lines" = 1 ] && [ ! -s "$T/o" ] || {
		row_fail "rngd $*: expected one line, got $lines on stderr: $(cat "$T/e") and stdout: $(head -c 300 "$T/o")"
		return 0
	}
	IFS='|' read -r -a w <<< "$words"
	for word in "${w[@]}"; do
		grep -qF -- "$word" "$T/e" || { row_fail "rngd $*: '$(cat "$T/e")' lacks '$word'"; return 0; }
	done
	[ ! -s "$T/sink" ] || { row_fail "rngd $*: bytes reached the sink"; return 0; }
}

# good ARGS...: accepted (with -l: parse, list the sources, exit 0).
good() {
	local rc
	run_rngd -c /dev/null -l "$@" > "$T/o" 2> "$T/e"
	rc=$?
	ROWS=$((ROWS + 1))
	[ ! -s /dev/random ] || { row_fail "rngd -l $*: wrote to the guarded /dev/random"; return 0; }
	[ "$rc" = 0 ] && [ ! -s "$T/e" ] || { row_fail "rngd -l $*: exit $rc, expected 0 and silence: $(cat "$T/e")"; return 0; }
}

# ---- numbers: both edges, outside and inside, and malformed -------------
# option, lowest, highest, what the message calls the range
while read -r opt lo hi range; do
	below=$(( lo - 1 ))
	[ "$lo" = 0 ] && below=-1
	bad 2 "--$opt needs|$range, not '$below'" --"$opt=$below"
	bad 2 "--$opt needs|$range, not '$((hi + 1))'" --"$opt=$((hi + 1))"
	good --"$opt=$lo"
	good --"$opt=$hi"
	for junk in abc 1x 0x10 ' 1' +1 1.5 99999999999999999999999; do
		bad 2 "--$opt needs|not '$junk'" --"$opt=$junk"
	done
done <<'TABLE'
fill-watermark 0 4096 0..4096
random-step 1 65536 1..65536
stats-interval 1 86400 1..86400
quarantine-after 0 1000000 0..1000000
topup-interval 1 86400 1..86400
topup-bytes 1 4096 1..4096
egd-rate 0 1000000000 0..1000000000
egd-burst 1 16777216 1..16777216
egd-clients 1 4096 1..4096
egd-prime 0 4096 0..4096
TABLE
# Seconds with a fraction.
bad 2 "--ready-timeout needs seconds 0..60, not '60.001'" --ready-timeout=60.001
bad 2 "--ready-timeout needs seconds 0..60, not '-0.001'" --ready-timeout=-0.001
bad 2 "--ready-timeout needs|not 'nan'" --ready-timeout=nan
bad 2 "--ready-timeout needs|not 'inf'" --ready-timeout=inf
good --ready-timeout=0
good --ready-timeout=60
bad 2 "--open-wait needs seconds 0..3600, not '3601'" --open-wait=3601
good --open-wait=0
for opt in retest-after retest-max; do
	bad 2 "--$opt needs seconds 0.001..86400, not '0.0009'" --$opt=0.0009
	bad 2 "--$opt needs seconds 0.001..86400, not '86400.001'" --$opt=86400.001
	bad 2 "--$opt needs|not '1e'" --$opt=1e
	good --$opt=0.001
	good --$opt=86400
done
# Octal.
bad 2 "--egd-socket-mode needs octal permissions 0..0777, not '01000'" --egd-socket-mode=01000
bad 2 "--egd-socket-mode needs octal|not '8'" --egd-socket-mode=8
bad 2 "--egd-socket-mode needs octal|not '-1'" --egd-socket-mode=-1
good --egd-socket-mode=0
good --egd-socket-mode=0777
# Short options take the same checks.
bad 2 "-W needs|not '4097'" -W 4097
bad 2 "-s needs|not '0'" -s 0
bad 2 "--on-fail needs drop or mix, not 'Drop'" --on-fail=Drop
bad 2 "-O needs SOURCE:KEY:VALUE, not 'file:path'" -O file:path
bad 2 "needs a number 0.0..1.0, not '1.01'" -O file:entropy_per_bit:1.01
bad 2 "needs a number 0.0..1.0, not '-0.01'" -O file:entropy_per_bit:-0.01
bad 2 "needs an integer -1000..1000, not '1001'" -O file:priority:1001
bad 2 "needs an integer -1000..1000, not '-1001'" -O file:priority:-1001
bad 2 "--hwrng-sysfs needs an absolute path, not 'sys'" --hwrng-sysfs=sys
bad 2 "--state-dir needs an absolute path, not 'run'" --state-dir=run
bad 2 "--egd-socket needs an absolute path under 108 bytes" --egd-socket="/$(printf 'x%.0s' $(seq 120))"
# A control character in a value stays on the one line.
bad 2 "-s needs|not '1?2'" -s $'1\n2'

# ---- empty strings ---------------------------------------------------------
for opt in rng-device random-device pid-file drop-privileges exclude include option fill-watermark \
	random-step on-fail stats-file stats-interval ready-timeout open-wait quarantine-after retest-after \
	retest-max topup-interval topup-bytes hwrng-sysfs state-dir egd-socket egd-socket-mode \
	egd-socket-group egd-rate egd-burst egd-clients egd-prime; do
	case $opt in
	option) bad 2 "--option needs SOURCE:KEY:VALUE, not ''" --$opt= ;;
	*) bad 2 "--$opt needs" --$opt= ;;
	esac
done
bad 2 "the config file name is empty" -c ''

# ---- the config file: only a regular file, at most 1 MiB ---------------------
mkdir "$T/dir"
mkfifo "$T/fifo"
bad 2 "$T/dir: is a directory, not a config file" -c "$T/dir"
bad 2 "/dev/zero: is a character device, not a config file" -c /dev/zero
bad 2 "$T/fifo: is a FIFO, not a config file" -c "$T/fifo"
bad 2 "$T/none: No such file or directory" -c "$T/none"
bad 2 "/proc/version: is a kernel file (procfs), not a config file" -c /proc/version
bad 2 "/proc/self/status: is a kernel file (procfs)" -c /proc/self/status
bad 2 "/sys/kernel/uevent_seqnum: is a kernel file (sysfs)" -c /sys/kernel/uevent_seqnum
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' > "$T/big.conf"
bad 2 "$T/big.conf: is 1048577 bytes, more than the 1048576 (1 MiB)" -c "$T/big.conf"
printf 'quiet = yes\0\n' > "$T/nul.conf"
bad 2 "$T/nul.conf:1: a NUL byte" -c "$T/nul.conf"
printf '\xff\xfeq\0u\0i\0' > "$T/utf16.conf"
bad 2 "$T/utf16.conf:1: a NUL byte: a binary or UTF-16 file" -c "$T/utf16.conf"
{ printf 'quiet = yes\n# '; head -c 5000 /dev/zero | tr '\0' 'x'; printf '\n'; } > "$T/long.conf"
bad 2 "$T/long.conf:2: line longer than 4096 bytes" -c "$T/long.conf"
# CRLF line ends are tolerated: line 1 loads, line 2 is reported without its CR.
printf 'random-step = 100\r\nbogus = 1\r\n' > "$T/crlf.conf"
bad 2 "$T/crlf.conf:2: unknown key 'bogus'" -c "$T/crlf.conf"
grep -q $'\r' "$T/e" && row_fail "a CR reached the message"
printf 'random-step = 0\r\n' > "$T/crlf2.conf"
bad 2 "$T/crlf2.conf:1: 'random-step' needs a byte count 1..65536, not '0'" -c "$T/crlf2.conf"
# A UTF-8 byte order mark before the first key is skipped.
printf '\xef\xbb\xbfbogus = 1\n' > "$T/bom.conf"
bad 2 "$T/bom.conf:1: unknown key 'bogus'" -c "$T/bom.conf"
grep -q $'\xef' "$T/e" && row_fail "the BOM reached the message"
# Only before the first line: elsewhere it is part of a key.
printf 'quiet = yes\n\xef\xbb\xbfbogus = 1\n' > "$T/bom2.conf"
bad 2 "$T/bom2.conf:2: unknown key '"$'\xef\xbb\xbf'"bogus'" -c "$T/bom2.conf"
# Files that load to their last line (a key left there on purpose): a
# Windows-edited one with a BOM and CRLF, and one of exactly 1 MiB.
printf '\xef\xbb\xbf# rngd.conf\r\nrandom-step = 100\r\n\r\nquiet = yes\r\nend = 1\r\n' > "$T/dos.conf"
bad 2 "$T/dos.conf:5: unknown key 'end'" -c "$T/dos.conf"
{ head -c $((1024 * 1024 - 8)) /dev/zero | tr '\0' '\n'; printf 'end = 1\n'; } > "$T/mib.conf"
bad 2 "$T/mib.conf:$((1024 * 1024 - 7)): unknown key 'end'" -c "$T/mib.conf"
# Unreadable: as nobody (root reads everything).
chmod 0755 "$T"
printf 'quiet = yes\n' > "$T/secret.conf"
chmod 0000 "$T/secret.conf"
AS_NOBODY=1
bad 2 "$T/secret.conf: Permission denied" -c "$T/secret.conf"
bad 1 "pid file $T/dir/rngd.pid: Permission denied" -p "$T/dir/rngd.pid"
AS_NOBODY=

# ---- the pid file ------------------------------------------------------------
printf 'root:x:0:0:root:/root:/bin/bash\n' > "$T/passwd"
ln -s "$T/passwd" "$T/link.pid"
bad 1 "pid file $T/dir: is a directory, not a regular file" -p "$T/dir"
bad 1 "pid file /dev/null: is a character device, not a regular file" -p /dev/null
bad 1 "pid file $T/fifo: is a FIFO, not a regular file" -p "$T/fifo"
bad 1 "pid file $T/none/rngd.pid: No such file or directory" -p "$T/none/rngd.pid"
bad 1 "pid file /proc/version: is a kernel file (procfs), not a pid file" -p /proc/version
bad 1 "pid file $T/passwd: holds something other than a pid; not overwriting it" -p "$T/passwd"
[ "$(cat "$T/passwd")" = "root:x:0:0:root:/root:/bin/bash" ] || row_fail "the non-pid file was changed"
bad 1 "pid file $T/link.pid: is a symbolic link" -p "$T/link.pid"

# ---- the sink and the sources ------------------------------------------------
bad 1 "cannot open the file sink $T/dir: Is a directory" -o "$T/dir"
bad 1 "sink /dev/zero: a character device but not the kernel's random device" -o /dev/zero
bad 1 "sink /proc/version: a kernel file (procfs)" -o /proc/version
bad 1 "cannot open the file sink $T/none/sink: No such file or directory" -o "$T/none/sink"
bad 2 "-r $T/dir: is a directory, not a regular file, FIFO or character device" -r "$T/dir"
bad 2 "-r /proc/version: is a kernel file (procfs), not an entropy source" -r /proc/version
# One file read twice (each reader reads all of it: credited twice), or
# read and written by the sink (rngd reads its own output for ever), by
# whatever path: a hard link, a symbolic link, '//'.
ln "$T/in" "$T/in.hardlink"
ln -s "$T/in" "$T/in.symlink"
bad 2 "file ($T/in) and file.2 ($T/in.hardlink) read the same file: its bytes would be credited twice" \
	-r "$T/in.hardlink"
bad 2 "file ($T/in) and file.2 ($T//in) read the same file" -r "$T//in"
bad 2 "file reads $T/in, the file the sink (-o $T/in.symlink) writes: rngd would read and credit its own output" \
	-o "$T/in.symlink"
bad 2 "file.2 reads $T/fifo, the file the sink (-o $T/fifo) writes" -r "$T/fifo" -o "$T/fifo"
bad 1 "egd|exists and is not a socket" --egd-socket="$T/dir"
bad 1 "egd|socket group 'nosuchgroup' does not exist" --egd-socket="$T/egd.sock" --egd-socket-group=nosuchgroup

# ---- users and groups --------------------------------------------------------
bad 2 "-D nosuchuser: no user 'nosuchuser'" -D nosuchuser
bad 2 "-D nobody:nosuchgroup: no group 'nosuchgroup'" -D nobody:nosuchgroup
bad 2 "-D nosuchuser:nogroup: no user 'nosuchuser'" -D nosuchuser:nogroup
bad 2 "-D nobody:: needs USER or USER:GROUP" -D nobody:
bad 2 "-D needs USER or USER:GROUP, not ':root'" -D :root

[ "$FAILED" = 0 ] || fail "$FAILED of $ROWS rows failed"
echo "ok: $ROWS start-up inputs: exact status, one line naming the cause, under 2 s, nothing credited"
