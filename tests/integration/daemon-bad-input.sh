#!/usr/bin/env bash
# Zeros, a stuck pattern, a repeated block and a biased stream: none of
# their failing blocks reach the sink, and every failing block is counted.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

for kind in zeros stuck repeat biased; do
	rm -f "$T/sink" "$T/log"
	"$HELPER" gen "$kind" 40 "$T/in" || fail "gen $kind"
	read -r _ passed _ failed < <("$HELPER" expect "$T/in" "$T/expect") || fail "expect"
	start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
	wait_log "no usable source left"
	stop_rngd TERM
	[ "$RC" = 0 ] || fail "$kind: rngd exited $RC"
	touch "$T/sink"
	cmp "$T/sink" "$T/expect" || fail "$kind: the sink holds more than the passing blocks"
	# 40 failures, 5 logged one by one: the rest are counted, not logged.
	logged=$(grep -c "notice: file: block failed" "$T/log")
	[ "$logged" -le 5 ] || fail "$kind: $logged failure messages, the rate limit allows 5"
	[ "$kind" = repeat ] || grep -q "notice: file: $(( 40 - logged )) repeated messages were suppressed" "$T/log" ||
		fail "$kind: suppressed messages not counted"
	got=$(summary_field file failed)
	[ "$got" = "$failed" ] || fail "$kind: $got failures counted, expected $failed"
	case $kind in
	repeat) # the first copy is a fine block; every later copy fails
		[ "$passed" = 1 ] && [ "$failed" = 39 ] || fail "repeat: passed $passed failed $failed"
		[ "$(grep -oE 'repeated-block [0-9]+' "$T/log" | tail -1 | awk '{print $NF}')" = 39 ] ||
			fail "repeat: the repeated-block test did not count 39 failures" ;;
	*)	[ "$passed" = 0 ] && [ "$failed" = 40 ] || fail "$kind: passed $passed failed $failed"
		[ ! -s "$T/sink" ] || fail "$kind: bytes reached the sink" ;;
	esac
	echo "ok: $kind: $failed failing blocks counted, none in the sink"
done
