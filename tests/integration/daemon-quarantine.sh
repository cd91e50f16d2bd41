#!/usr/bin/env bash
# A source that goes bad midway is quarantined (after 3 failed blocks in a
# row), and the run carries on with a second source; the sink holds only
# passing blocks of each source, each source's in its own order.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen random 100 "$T/good" || fail gen
"$HELPER" gen zeros 100 "$T/zeros" || fail gen
cat "$T/good" <(tail -c +5 "$T/zeros") > "$T/a"    # 100 random blocks, then 100 zero blocks
"$HELPER" gen random 300 "$T/b" || fail gen
"$HELPER" expect "$T/a" "$T/expect_a" > /dev/null || fail expect
read -r _ passed_b _ _ < <("$HELPER" expect "$T/b" "$T/expect_b") || fail expect

start_rngd -x all -r "$T/a" -r "$T/b" -O file:priority:5 -o "$T/sink" --retest-after=0.2 --retest-max=0.4
wait_log "file: quarantined after 3 failed blocks in a row"
wait_log "file.2: exhausted"
wait_log "file: exhausted" 60
wait_log "no usable source left"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
read -r _ got_a _ got_b < <("$HELPER" merge "$T/sink" "$T/expect_a" "$T/expect_b") || fail "the sink holds a block that is not a passing block in order"
[ "$got_b" = "$passed_b" ] || fail "only $got_b of the second source's $passed_b passing blocks reached the sink"
[ "$got_a" -ge 90 ] || fail "only $got_a of the first source's good blocks reached the sink"
[ "$(summary_field file quarantines)" -ge 1 ] || fail "no quarantine counted"
grep -q "re-test block failed" "$T/log" || fail "the quarantined source was not re-tested"
echo "ok: source 1 quarantined after $got_a good blocks; source 2 delivered all $got_b"
