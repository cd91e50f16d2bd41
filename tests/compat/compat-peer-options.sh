#!/usr/bin/env bash
# Every option of every peer's own rngd(8) page is accepted by rngd in that
# peer's personality: rng-tools-debian 2.3 and rng-tools5 from Debian's
# packages (apt-get download + dpkg -x, never installed), rng-tools 6.17
# from tests/compat/rng-tools-6.17-options.8 (no Debian package; provenance
# in that file). A page option this test has no sample value for, or that
# rngd refuses, fails the test. Then a few meanings, checked through what
# rngd prints (-O SRC lists a source's credit), and unknown options.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
FETCH=$top_srcdir/tests/compat/peer-fetch.sh

# The .TP entries of a page's OPTIONS section: every -X and --long there.
page_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$1" | awk '/^\.TP/{getline; print}' |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' |
		grep -oE '(^|[ ,])--?[A-Za-z?][A-Za-z_-]*' | sed 's/^[ ,]*//' | sort -u
}

# sample PERSONALITY OPTION: a value to run the option with ("" for a
# flag); exit 1 when the test does not know the option.
sample() {
	case "$1:$2" in
	*:-b|*:--background|*:-f|*:--foreground|*:-\?|*:--help|*:-V|*:--version) echo "" ;;
	*:-o|*:--random-device) echo "$T/sink" ;;
	*:-r|*:--rng-device) echo /dev/urandom ;;
	*:-s|*:--random-step) echo 64 ;;
	*:-p|*:--pid-file|debian:--pidfile) echo "$T/pid" ;;
	rng-tools:-W|rng-tools:--fill-watermark|rng-tools5:-W|rng-tools5:--fill-watermark) echo 2048 ;;
	rng-tools:-d|rng-tools:--debug|rng-tools:-l|rng-tools:--list|rng-tools:-i|rng-tools:--ignorefail) echo "" ;;
	rng-tools:-t|rng-tools:--test|rng-tools:-u|rng-tools:--use-slow-sources) echo "" ;;
	rng-tools:-q|rng-tools:--quiet|rng-tools:-v) echo "" ;;
	rng-tools:-x|rng-tools:--exclude) echo pkcs11 ;;
	rng-tools:-n|rng-tools:--include) echo hwrng ;;
	rng-tools:-O|rng-tools:--option) echo hwrng:device:/dev/urandom ;;
	rng-tools:-e|rng-tools:--entropy-count) echo 8 ;;
	rng-tools:-R|rng-tools:--force-reseed|rng-tools:--force_reseed) echo 300 ;;
	rng-tools:-D|rng-tools:--drop-privileges) echo daemon:daemon ;;
	debian:-S|debian:--stats-interval) echo 3600 ;;
	debian:-R|debian:--rng-driver) echo stream ;;
	debian:--hrng) echo intelfwh ;;
	debian:-H|debian:--rng-entropy) echo 1.0 ;;
	debian:-Q|debian:--rng-quality) echo high ;;
	debian:-B|debian:--rng-buffers) echo 3 ;;
	debian:-W|debian:--fill-watermark) echo 50% ;;
	debian:-t|debian:--feed-interval|debian:--timeout) echo 60 ;;
	debian:-T|debian:--rng-timeout) echo 10 ;;
	rng-tools5:-d|rng-tools5:--no-drng|rng-tools5:-n|rng-tools5:--no-tpm) echo 1 ;;
	rng-tools5:-q|rng-tools5:--quiet|rng-tools5:-v|rng-tools5:--verbose) echo "" ;;
	*) return 1 ;;
	esac
}

# try PERSONALITY OPTION: rngd takes it. --option=hwrng (rngd's own long
# option, which every personality passes through) makes the run build the
# source set, print hwrng's keys and exit, without probing any source.
try() {
	local value args
	value=$(sample "$1" "$2") || fail "$1's page has $2, which this test (and so rngd's table) does not know"
	args=("$2")
	if [ -n "$value" ]; then
		case $2 in --*) args=("$2=$value") ;; *) args=("$2" "$value") ;; esac
	fi
	"$GUARD" -- "$RNGD" --compat="$1" --config=/dev/null "${args[@]}" --option=hwrng > "$T/out" 2> "$T/err"
	rc=$?
	[ "$rc" = 0 ] || fail "$1 ${args[*]}: exit $rc: $(cat "$T/err")"
	! grep -qi "unknown\|unhandled" "$T/err" || fail "$1 ${args[*]}: $(cat "$T/err")"
	checked=$((checked + 1))
}

checked=0
debian=$("$FETCH" rng-tools-debian) || fail "cannot fetch rng-tools-debian"
r5=$("$FETCH" rng-tools5) || fail "cannot fetch rng-tools5"
zcat "$debian/usr/share/man/man8/rngd.8.gz" > "$T/debian.8"
zcat "$r5/usr/share/man/man8/rngd.8.gz" > "$T/rng-tools5.8"
cp "$top_srcdir/tests/compat/rng-tools-6.17-options.8" "$T/rng-tools.8"
for p in rng-tools debian rng-tools5; do
	opts=$(page_options "$T/$p.8")
	[ "$(echo "$opts" | wc -l)" -ge 20 ] || fail "$p's page gave only: $opts"
	for o in $opts; do try "$p" "$o"; done
done
echo "ok: $checked options from the three peers' pages accepted"

# A peer personality's --help lists that peer's options, every one of its
# page, with what each becomes (it printed rng-tools 6's, where -t is not
# the feed interval and -n not "no TPM").
for p in debian rng-tools5; do
	"$GUARD" -- "$RNGD" --compat="$p" --config=/dev/null --help > "$T/help" 2> "$T/err" || fail "$p --help: $(cat "$T/err")"
	listed=$(grep -oE '^ +(-., )?--[A-Za-z_-]+' "$T/help" | tr -d ' ' | tr ',' '\n')
	for o in $(page_options "$T/$p.8"); do
		echo "$listed" | grep -qxF -- "$o" || fail "$p --help does not list $o"
	done
done
# argp's --usage, which all three peers had: exit 0 with the help (it was
# "unknown option", exit 2); with a value it is an error naming --usage.
for p in rng-tools debian rng-tools5; do
	"$GUARD" -- "$RNGD" --compat="$p" --config=/dev/null --usage > "$T/usage" 2> "$T/err" ||
		fail "$p --usage: exit $?, $(cat "$T/err")"
	head -1 "$T/usage" | grep -q '^Usage: rngd ' || fail "$p --usage printed no usage line: $(head -1 "$T/usage")"
	if "$GUARD" -- "$RNGD" --compat="$p" --config=/dev/null --usage=1 > /dev/null 2> "$T/err"; then
		fail "$p --usage=1 was accepted"
	fi
	grep -q -- "option '--usage' takes no value" "$T/err" || fail "$p --usage=1: $(cat "$T/err")"
done
# rng-tools 6's -V with a value: named as written, not as the --version
# it maps to (nor "unknown option '-V'").
"$GUARD" -- "$RNGD" --config=/dev/null -V=x > /dev/null 2> "$T/err" && fail "-V=x was accepted"
grep -q -- "option '-V' takes no value" "$T/err" || fail "-V=x: $(cat "$T/err")"
# The usage line names the program, not the path it was run by.
"$GUARD" -- "$RNGD" --compat=debian --help | head -1 | grep -qx 'Usage: rngd \[OPTION\]\.\.\.' ||
	fail "debian --help: the usage line is $("$GUARD" -- "$RNGD" --compat=debian --help | head -1)"
"$GUARD" -- "$RNGD" --compat=debian --help | grep -qE -- '^  -t, --feed-interval=VALUE +rngd --topup-interval' ||
	fail "debian --help: -t is not the feed interval"
"$GUARD" -- "$RNGD" --compat=rng-tools5 -\? | grep -qE -- '^  -n, --no-tpm=VALUE +1: rngd -x tpm' ||
	fail "rng-tools5 -?: -n is not no-tpm"

keys() { "$GUARD" -- "$RNGD" --config=/dev/null "$@" 2> "$T/err"; }
# -e is a ceiling, never a raise; -O written per source wins.
keys -e 2 -O hwrng | grep -q "entropy_per_bit=0.250" || fail "-e 2 did not cap hwrng at 0.250"
keys -e 8 -O hwrng | grep -q "entropy_per_bit=0.500" || fail "-e 8 changed hwrng's 0.500"
keys -e 2 -O hwrng:entropy_per_bit:0.9 -O hwrng | grep -q "entropy_per_bit=0.900" || fail "-O after -e lost"
keys -O 0 | grep -q "^hwrng: .*device=/dev/hwrng" || fail "-O 0 (rng-tools' index of hwrng) listed no keys"
# debian: -H is the -r device's credit, as written; its default 1.0 is not taken.
keys --compat=debian --option=hwrng | grep -q "entropy_per_bit=0.500" || fail "debian: hwrng credit changed without -H"
keys --compat=debian -H 0.9 --option=hwrng | grep -q "entropy_per_bit=0.900" || fail "debian -H 0.9 not applied"
keys --compat=debian -W 90% -H 0.25 -r "$T/pid" --option=file | grep -q "entropy_per_bit=0.250" ||
	fail "debian -H with -r FILE did not go to the file source"
# --hrng=help lists the names and exits 0, as the peer does.
"$GUARD" -- "$RNGD" --compat=debian --hrng=help > "$T/out" 2> "$T/err" || fail "--hrng=help: $(cat "$T/err")"
grep -q "^  viapadlock .*padlock source" "$T/out" || fail "--hrng=help: $(cat "$T/out")"
# The program name chooses the personality.
abs_rngd=$(cd "$(dirname "$RNGD")" && pwd)/rngd
ln -s "$abs_rngd" "$T/rngd-debian"
"$GUARD" -- "$T/rngd-debian" --config=/dev/null -H 0.75 --option=hwrng 2> "$T/err" | grep -q "entropy_per_bit=0.750" ||
	fail "rngd-debian did not read -H as rng-tools-debian's: $(cat "$T/err")"
ln -s "$abs_rngd" "$T/rngd5"
"$GUARD" -- "$T/rngd5" --config=/dev/null -d 1 -v > "$T/out" 2> "$T/err" || fail "rngd5 -d 1 -v: $(cat "$T/err")"
grep -A1 "^rdrand" "$T/out" | grep -q "disabled" || fail "rngd5 -d 1 left rdrand enabled"
# rng-tools sources this build lacks: -x accepted, -n warned, rngd still starts.
start_rngd -x all -n jitter -r /dev/urandom -o "$T/sink"
wait_log "hwrng: opened /dev/urandom"
stop_rngd TERM
[ "$RC" = 0 ] || fail "-n jitter: rngd exited $RC"
grep -q "warning: rngd: -n jitter: this rngd has no jitter source; use " "$T/log" || fail "-n jitter: no warning"
# Unknown options no peer has: exit 2 and one line.
for bad in --no-such-option -Z; do
	"$GUARD" -- "$RNGD" --config=/dev/null "$bad" > "$T/out" 2> "$T/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "$bad: exit $rc, $(wc -l < "$T/err") lines"
done
"$GUARD" -- "$RNGD" --compat=debian --config=/dev/null -x hwrng > /dev/null 2> "$T/err"
[ $? = 2 ] && [ "$(cat "$T/err")" = "rngd: unknown option '-x' (rng-tools-debian); for rngd's own -x, write --exclude" ] ||
	fail "debian -x: $(cat "$T/err")"
"$GUARD" -- "$RNGD" --config=/dev/null -H 1.0 > /dev/null 2> "$T/err"
[ $? = 2 ] || fail "-H outside the debian personality was accepted"
echo "ok: -e ceiling, -O SRC, -r device, -H, program names, -n of a missing source, unknown options"
