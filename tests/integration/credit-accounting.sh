#!/usr/bin/env bash
# The credit accounting test: rngd built with a recording mock of the
# kernel interface (rngd-mockkernel: linux 5.18+'s input pool, ready at
# 256 counted bits) runs a mixed set of sources (good, biased, repeated,
# stuck) with --on-fail=mix, takes SIGHUPs (one that fails), and is
# restarted. credit-accounting.py then checks: credit handed to the
# kernel <= passing blocks x 20000 x entropy_per_bit and never for a failed
# block; no byte of the good source crosses the sink twice (across the
# restart too); the counters rngd prints equal what the mock received.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
RNGD=$MOCKKERNEL
export RNGD_MOCK_KERNEL_LOG=$T/kernel.log RNGD_MOCK_KERNEL_STATE=$T/kernel.state

"$HELPER" gen random 300 "$T/good" || fail gen
"$HELPER" gen biased 60 "$T/biased" || fail gen
"$HELPER" gen repeat 60 "$T/repeat" || fail gen
"$HELPER" gen stuck 60 "$T/stuck" || fail gen
# The repeated source earns nothing (its first block would pass and fill
# the pool at once): the pool fills from the good source, while the biased
# and stuck ones, credited and read first, fail, are mixed and quarantined.
conf() { # GOOD_CREDIT [EXTRA LINE [GOOD PRIORITY]]
	cat <<CONF
exclude = all
rng-device = $T/good
rng-device = $T/biased
rng-device = $T/repeat
rng-device = $T/stuck
option = file:entropy_per_bit:$1
option = file.2:entropy_per_bit:1
option = file.3:entropy_per_bit:0
option = file:priority:${3:-0}
option = file.4:entropy_per_bit:0.5
option = file.2:priority:3
option = file.3:priority:2
option = file.4:priority:1
CONF
	[ -n "${2:-}" ] && echo "$2"
	return 0
}
conf 0.004 > "$T/conf"
args=(-c "$T/conf" -o /dev/null
      --on-fail=mix --quarantine-after=3 --retest-after=0.3 --retest-max=0.6
      --topup-interval=1 --topup-bytes=$FIPS_BLOCK_BYTES --stats-file="$T/metrics" --stats-interval=1)

# Run 1: fill, ready, top-ups; a SIGHUP that lowers the good source's
# credit, then one that fails (and must change nothing).
start_rngd "${args[@]}"
wait_log "first credited block written; ready" 30
sleep 2
conf 0.002 > "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded"
conf 0.003 "option = file:entropy_per_bit:lots" > "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "configuration not reloaded [(]"
sleep 1.5
kill -USR1 "$RNGD_PID"
wait_log "notice: rngd: stats: sink kernel"
stop_rngd TERM
[ "$RC" = 0 ] || fail "run 1: rngd exited $RC"
cp "$T/log" "$T/run1.log"
# The good source is read no further ahead of demand than its queue (four
# blocks) and the block in hand, SIGHUPs (re-opens) included.
read_good=$(summary_field file "bytes read")
taken_good=$(summary_field file "blocks passed")
[ "$read_good" -le $(( 4 + BLOCK * (taken_good + 5) )) ] ||
	fail "the good source was read far ahead: $read_good bytes for $taken_good blocks taken"
grep -q "rngd_sink_bits_credited_total" "$T/metrics" || fail "no stats file"
metric() { awk -v m="$1" '$1 ~ "^"m"[{]" || $1 == m {print $2}' "$T/metrics"; }
for m in rngd_sink_bits_credited_total rngd_sink_bytes_filling_total rngd_sink_bytes_after_ready_total rngd_sink_reseeds_total; do
	echo "$m $(metric $m)" >> "$T/metrics.run1"
done

# Run 2: a restart; the kernel's pool stays ready, the files resume where
# run 1 left them (the good source now first, so it surely feeds the sink).
conf 0.002 "" 10 > "$T/conf"
start_rngd "${args[@]}"
wait_log "rngd: feeding the kernel sink" 30
sleep 2.5
stop_rngd TERM
[ "$RC" = 0 ] || fail "run 2: rngd exited $RC"
cp "$T/log" "$T/run2.log"

# The stats file at exit says what the summary says.
summary=$(grep -E "notice: rngd: summary: sink kernel" "$T/run1.log")
read -r c b a r < <(sed -E 's/.*bits credited ([0-9]+) while the pool was filling \(([0-9]+) bytes\), bytes mixed after it was ready ([0-9]+), reseeds ([0-9]+).*/\1 \2 \3 \4/' <<<"$summary")
got=$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $2}' "$T/metrics.run1")
[ "$got" = "$c $b $a $r" ] || fail "stats file ($got) differs from the summary ($c $b $a $r)"

grep -hE "notice: file[.0-9]*: summary" "$T/run1.log" "$T/run2.log" | cut -c1-160
FIPS_BLOCK_BITS=$FIPS_BLOCK_BITS python3 "$top_srcdir/tests/integration/credit-accounting.py" "$T/kernel.log" \
	'{"file": 0.004, "file.2": 1, "file.3": 0, "file.4": 0.5}' \
	"{\"good\": \"$T/good\", \"biased\": \"$T/biased\", \"repeat\": \"$T/repeat\", \"stuck\": \"$T/stuck\"}" \
	"$T/run1.log" "$T/run2.log" || fail "accounting"
echo "ok: two runs, two SIGHUPs (one failing): credit and counters match the kernel mock"
