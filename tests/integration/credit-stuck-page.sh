#!/usr/bin/env bash
# A device stuck on one buffer that is not a whole number of blocks (a
# driver handing out the same 4096-byte page) earns credit for its first
# bytes only: no block equals another, every FIPS 140-2 test passes, and
# only the repeated-block test's lagged half (fips/lagged.c) sees that
# each block repeats bytes already read. Credited at 1 bit per bit into
# a file sink, the credit is at most that of the blocks before the repeat.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen page 200 "$T/page" || fail gen
start_rngd -x all -r "$T/page" -O file:entropy_per_bit:1 -o "$T/sink" --quarantine-after=1000000
wait_log "file: exhausted|no usable source left" 30
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
passed=$(summary_field file "blocks passed")
repeats=$(grep -E "notice: file: summary:" "$T/log" | grep -oE "repeated-block [0-9]+" | awk '{print $NF}')
credited=$(summary_field file "bits credited")
# The first 4096 bytes fill one block and part of a second, which passes
# or fails by where its repeat begins; every later block fails.
[ "${passed:-x}" -le 2 ] || fail "$passed blocks of a stuck 4096-byte buffer passed"
[ "${repeats:-0}" -ge 197 ] || fail "only ${repeats:-0} blocks failed the repeated-block test"
[ "${credited:-x}" -le $((2 * FIPS_BLOCK_BITS)) ] || fail "$credited bits credited for at most 2 fresh blocks"
[ "$(stat -c %s "$T/sink")" -le $((2 * BLOCK)) ] || fail "the sink got more than 2 blocks"
echo "ok: stuck 4096-byte buffer: $passed blocks passed, $repeats failed as repeats, $credited bits credited"
