#!/usr/bin/env bash
# A regular-file source with credit is never credited twice
# across restarts (Restart=on-failure, the watchdog, a hand restart): its
# read offset is kept in --state-dir. A restart loop: SIGKILL mid-file (a
# crash), SIGTERM, and runs after the end; every block of the file reaches
# the sink at most once, and a run after the end credits nothing, whatever
# path names the file, and with a record an older rngd wrote.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

blocks=400
"$HELPER" gen random $blocks "$T/a" || fail gen
: > "$T/sink"
# -s 64 into a FIFO read slowly: rngd is mid-file when it is killed.
mkfifo "$T/fifo"
runs=0
for sig in KILL TERM; do
	( while :; do head -c 20000 ; sleep 0.05; done < "$T/fifo" >> "$T/sink" ) &
	reader=$!
	start_rngd -x all -r "$T/a" -O file:entropy_per_bit:1 -o "$T/fifo" -s 64 --state-dir="$T/state"
	sleep 0.6
	stop_rngd $sig
	kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
	runs=$((runs + 1))
done
# Then to the end, and twice more after it.
for i in 1 2; do
	start_rngd -x all -r "$T/a" -O file:entropy_per_bit:1 -o "$T/sink" --state-dir="$T/state"
	if [ "$i" = 1 ]; then wait_log "file: (exhausted|end of data)" 30; sleep 0.3; fi
	sleep 0.3
	stop_rngd TERM
	cp "$T/log" "$T/log.end$i"
done
grep -q "read to its end by an earlier run" "$T/log.end2" || fail "the run after the end did not see the file as read"
credited=$(grep -E "notice: file: summary:" "$T/log.end2" | grep -oE "bits credited [0-9]+" | awk '{print $NF}')
[ "${credited:-0}" = 0 ] || fail "a run after the end credited $credited bits"

# The record is the file's, not the path's: a symbolic link, a hard link
# or '//' to the same file finds it (each credited the whole file again).
ln -s "$T/a" "$T/a.symlink"
ln "$T/a" "$T/a.hardlink"
# A record written by an older rngd, named after the path as written,
# still counts for its file.
mkdir "$T/legacy"
python3 - "$T/a" "$T/legacy" <<'PY' || fail "cannot write the old record"
import os, sys
path, folder = sys.argv[1], sys.argv[2]
def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h
st = os.stat(path)
data = open(path, 'rb').read()
line = "%d %d %d %d %d %d %016x" % (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // 10**9,
                                   st.st_mtime_ns % 10**9, st.st_size, fnv1a(data[-64:]))
with open(os.path.join(folder, "file-offset-%016x" % fnv1a(path.encode())), "w") as f:
    f.write(line.ljust(127) + "\n")
PY
for alt in "$T/a.symlink:state" "$T/a.hardlink:state" "$T//a:state" "$T/a:legacy"; do
	start_rngd -x all -r "${alt%:*}" -O file:entropy_per_bit:1 -o "$T/sink.alt" --state-dir="$T/${alt##*:}"
	sleep 0.5
	stop_rngd TERM
	grep -q "read to its end by an earlier run" "$T/log" || fail "${alt%:*} (${alt##*:}): not seen as read: $(grep file: "$T/log")"
	[ ! -s "$T/sink.alt" ] || fail "${alt%:*} (${alt##*:}): the file was read again"
done

# Files the paths at start do not show as one (rngd_check_shared_files()
# refuses those): checked when a source opens (rngd/file_clash.c).
# The sink's own file, missing at start (the sink creates it): never read.
start_rngd -x all -r "$T/late" -O file:entropy_per_bit:1 -o "$T/late" --state-dir="$T/state2"
wait_log "late is the file the sink writes: not read"
sleep 1
stop_rngd TERM
[ "$(summary_field file "bytes read")" = 0 ] || fail "the sink's own file was read: $(grep 'file: summary' "$T/log")"
# One file for two sources, made after the start: one reads it.
start_rngd -x all -r "$T/late2" -r "$T/late2" -O file:entropy_per_bit:1 -O file.2:entropy_per_bit:1 \
	-o "$T/sink2" --state-dir="$T/state2"
# Made only once rngd is past its start-up check (which would refuse
# the two paths as one file: a slow start, under TSan, saw it there).
wait_log "file.2: cannot open yet"
"$HELPER" gen random 40 "$T/late2" || fail gen
# The second to open is refused; or, when the first has read it all by
# then (a slow start), finds it read to its end in their one record.
wait_log "late2 is the file file(.2)? reads: not read, as its bytes would be credited twice|late2 was read to its end by an earlier run|late2 is read by another rngd on the state folder" 20
wait_log "exhausted" 20
stop_rngd TERM
both=$(( $(summary_field file "bits credited") + $(summary_field file.2 "bits credited") ))
[ "$both" -le $(( 40 * FIPS_BLOCK_BITS )) ] || fail "$both bits credited for a file of 40 blocks"
# Standard output appended to the file a source reads: refused at start.
"$GUARD" -- "$RNGD" -f -c /dev/null -x all -r "$T/late2" -o - >> "$T/late2" 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "the file the sink (-o -) writes" "$T/err" || fail "-o - into the file read: exit $rc, $(cat "$T/err")"

# Two rngd on one state folder and one credited file (the service and a
# hand-run one): both read it from the same offset and credited its bytes
# twice. The record's lock keeps the second out while the first runs;
# once the first is gone the second resumes at the kept offset, here the
# end.
"$HELPER" gen random 100 "$T/shared" || fail gen
start_rngd -x all -r "$T/shared" -O file:entropy_per_bit:1 -o "$T/sink.s1" --state-dir="$T/state3"
wait_log "file: exhausted"
"$GUARD" -p "$T/pid2" -- "$RNGD" -f -c /dev/null -x all -r "$T/shared" -O file:entropy_per_bit:1 \
	-o "$T/sink.s2" --state-dir="$T/state3" 2> "$T/log2" &
second=$!
for _ in $(seq 100); do grep -q "shared is read by another rngd on the state folder" "$T/log2" 2>/dev/null && break; sleep 0.05; done
grep -q "shared is read by another rngd on the state folder" "$T/log2" ||
	fail "a second rngd on the same file and state folder was not kept out: $(grep file: "$T/log2")"
stop_rngd TERM
for _ in $(seq 100); do grep -q "shared was read to its end by an earlier run" "$T/log2" && break; sleep 0.05; done
grep -q "shared was read to its end by an earlier run" "$T/log2" ||
	fail "the second rngd did not take the file over at the first one's offset: $(grep file: "$T/log2" | tail -2)"
kill -TERM "$(cat "$T/pid2")"; wait "$second"
first=$(summary_field file "bits credited")
second_bits=$(sed -n 's/.*notice: file: summary: .*bits credited \([0-9]*\),.*/\1/p' "$T/log2")
[ "$first" -le $(( 100 * FIPS_BLOCK_BITS )) ] && [ "$second_bits" = 0 ] ||
	fail "one file of 100 blocks credited $first + ${second_bits:-?} bits by two rngd"
[ ! -s "$T/sink.s2" ] || fail "the second rngd wrote the shared file's bytes again"

# A file credited 0 at start keeps no record: a SIGHUP that raises its
# credit must not credit it (the next run would read it from its start
# again), and says so rather than "configuration reloaded" alone.
"$HELPER" gen random 400 "$T/zero" || fail gen
: > "$T/zconf"
( while :; do head -c 20000 ; sleep 0.05; done < "$T/fifo" > /dev/null ) &
reader=$!
start_rngd -c "$T/zconf" -x all -r "$T/zero" -o "$T/fifo" -s 64
wait_log "file: opened"
echo "option = file:entropy_per_bit:1" > "$T/zconf"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded"
grep -q "warning: rngd: file: the credit set does not take" "$T/log" ||
	fail "a credit raised by SIGHUP on a zero-credit file was not refused aloud: $(grep rngd: "$T/log" | tail -3)"
# Said again at the next reload that still sets it: it still does not take.
kill -HUP "$RNGD_PID"
for _ in $(seq 100); do [ "$(grep -c 'configuration reloaded' "$T/log")" -ge 2 ] && break; sleep 0.05; done
[ "$(grep -c "file: the credit set does not take" "$T/log")" = 2 ] ||
	fail "the second reload setting the credit said nothing: $(grep rngd: "$T/log" | tail -3)"
# Nor does it claim the credit it did not give ("earns 1.000 ... (was 0.000)").
! grep -q "file: earns" "$T/log" || fail "a reload claimed a credit that does not take: $(grep 'file: earns' "$T/log")"
sleep 0.5
stop_rngd TERM
kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
[ "$(summary_field file "blocks passed")" -gt 0 ] 2>/dev/null || fail "no block of the zero-credit file passed after the reload"
[ "$(summary_field file "bits credited")" = 0 ] || fail "a zero-credit file was credited $(summary_field file "bits credited") bits after a SIGHUP"

# A zero-credit file made after the start keeps no offset and so is not
# allowed credit, which it never had: nothing to say (it logged an empty
# warning line).
mv "$T/log" "$T/log.before-late"
start_rngd -x all -r "$T/made-late" -o "$T/made-late.sink" --state-dir="$T/state"
sleep 0.3
cp "$T/a" "$T/made-late"
# Its first open says what it is credited, as the start's lines do, and
# not "again".
wait_log "file: opened $T/made-late after [0-9]+ failed opens? in [0-9.]+ s, 0\\.000 entropy bits per bit credited, priority -?[0-9]+" 20
sleep 0.5
stop_rngd TERM
! grep -q "file: opened again" "$T/log" || fail "the late file's first open said 'opened again'"
! grep -E "(warning|error): file: *$" "$T/log" || fail "an empty line for a late zero-credit file"
[ "$(summary_field file "blocks passed")" -gt 0 ] 2>/dev/null || fail "no block of the late file passed"
mv "$T/log.before-late" "$T/log"

# A dry run (-t) reads a credited file but keeps no offset of it: the
# real run after it still has the whole file (it said "exhausted").
"$HELPER" gen random 20 "$T/dry" || fail gen
start_rngd -t -x all -r "$T/dry" -O file:entropy_per_bit:1 --state-dir="$T/state.dry"
sleep 1
stop_rngd TERM
[ -z "$(ls -A "$T/state.dry" 2>/dev/null)" ] || fail "-t kept a read offset: $(ls "$T/state.dry")"
# It shows what the real run would earn, not 0 for the offset it keeps not.
grep -q "file: opened $T/dry, 1.000 entropy bits per bit credited" "$T/log" ||
	fail "-t's opened line: $(grep 'file: opened' "$T/log")"
mv "$T/log" "$T/log.before-dry"
start_rngd -x all -r "$T/dry" -O file:entropy_per_bit:1 -o "$T/dry.sink" --state-dir="$T/state.dry"
wait_log "file: (exhausted|end of data)" 20
stop_rngd TERM
[ "$(summary_field file "blocks passed")" -gt 0 ] 2>/dev/null || fail "after a -t run the real run read nothing of the file"
mv "$T/log.before-dry" "$T/log"

python3 - "$T/a" "$T/sink" $blocks "$BLOCK" <<'PY' || fail "a block reached the sink twice"
import sys
src = open(sys.argv[1], 'rb').read()[4:]
sink = open(sys.argv[2], 'rb').read()
n = int(sys.argv[3])
b = int(sys.argv[4])
twice = [i for i in range(n) if sink.count(src[i * b:i * b + 32]) > 1]
seen = sum(1 for i in range(n) if src[i * b:i * b + 32] in sink)
print("blocks in the sink: %d of %d, twice: %d" % (seen, n, len(twice)))
sys.exit(1 if twice or seen < n // 2 else 0)
PY
echo "ok: $runs interrupted runs and 2 after them, 3 by other paths and 1 with an old record; no block of the file credited twice; the sink's own file and a file two sources name, both made after the start, read by none and one; a SIGHUP cannot credit a zero-credit file; a late zero-credit file opens without an empty warning"
