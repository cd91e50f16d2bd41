#!/usr/bin/env python3
# Checks the accounting test's record (credit-accounting.sh): the mock
# kernel's log of every call against rngd's own counters and the sources.
#   credit-accounting.py MOCKLOG EPB_MAX_JSON SOURCES_JSON RUNLOG...
# FIPS_BLOCK_BITS (fips/fips.h's) must be in the environment.
# EPB_MAX_JSON: {"file": 0.004, ...} the highest credit each instance had.
# SOURCES_JSON: {"good": PATH, "biased": PATH, "stuck": PATH, "repeat": PATH}
import json
import re
import sys

from fips_env import fips_constant


BLOCK_BITS = fips_constant("FIPS_BLOCK_BITS")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


mocklog, epb_max, sources = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
runlogs = sys.argv[4:]
data = {k: open(v, 'rb').read()[4:] for k, v in sources.items()}

# ---- the mock's record, per run (each run opens the device once) -------
runs = []
for line in open(mocklog):
    f = line.split()
    if f[0] == 'open':
        runs.append({'adds': [], 'reseeds': 0})
    elif f[0] == 'add':
        runs[-1]['adds'].append((int(f[1]), int(f[2]), int(f[3]), int(f[4]), bytes.fromhex(f[5]) if len(f) > 5 else b''))
    elif f[0] == 'reseed':
        runs[-1]['reseeds'] += 1
if len(runs) != len(runlogs):
    fail("%d runs opened the mock kernel, %d rngd logs" % (len(runs), len(runlogs)))

# ---- 1. the counters rngd prints equal what the mock received ----------
sink_re = re.compile(r'summary: sink kernel: bytes written (\d+), bits credited (\d+) while the pool was '
                     r'filling \((\d+) bytes\), bytes mixed after it was ready (\d+), reseeds (\d+)')
passed_total = {}
for i, (run, path) in enumerate(zip(runs, runlogs)):
    text = open(path).read()
    m = sink_re.search(text)
    if not m:
        fail("run %d: no sink summary line" % (i + 1))
        continue
    w, c, b, a, r = map(int, m.groups())
    got = (sum(x[0] for x in run['adds']), sum(x[2] for x in run['adds']),
           sum(x[0] for x in run['adds'] if not x[3]), sum(x[0] for x in run['adds'] if x[3]), run['reseeds'])
    print("run %d: rngd says written %d, credited %d while filling (%d bytes), %d bytes after ready, %d reseeds; "
          "the mock got %d, %d, %d, %d, %d" % ((i + 1, w, c, b, a, r) + got))
    if (w, c, b, a, r) != got:
        fail("run %d: rngd's counters differ from what the mock kernel received" % (i + 1))
    for name, n in re.findall(r'notice: (file(?:\.\d+)?): summary: [a-z]+, bytes read \d+, blocks passed (\d+)', text):
        passed_total[name] = passed_total.get(name, 0) + int(n)
    per_source = sum(int(x) for x in re.findall(r'notice: file(?:\.\d+)?: summary: .*?bits credited (\d+)', text))
    if per_source != c:
        fail("run %d: sources' bits credited add up to %d, the sink's to %d" % (i + 1, per_source, c))

# ---- 2. credit handed over <= sum over passing blocks of BLOCK_BITS x epb ----
handed = sum(x[1] for run in runs for x in run['adds'])
bound = sum(n * BLOCK_BITS * epb_max.get(name, 0) for name, n in passed_total.items())
print("credit handed to the kernel %d bits, bound %.0f (blocks passed %s)" % (handed, bound, passed_total))
if handed > bound:
    fail("credit handed (%d) exceeds the passing blocks' worth (%.0f)" % (handed, bound))

# ---- 3. never for a failed block; 4. no byte crosses the sink twice ----
mixed_bad = 0
good_ranges = []
for run in runs:
    for length, credit, counted, ready, payload in run['adds']:
        bad = payload in data['biased'] or payload in data['stuck']
        if bad and credit:
            fail("%d bits handed with %d bytes of a failing source" % (credit, length))
        mixed_bad += bad
        at = data['good'].find(payload)
        if at >= 0:
            good_ranges.append((at, at + length))
good_ranges.sort()
overlaps = sum(1 for a, b in zip(good_ranges, good_ranges[1:]) if b[0] < a[1])
print("%d writes from the good source, %d overlapping; %d writes of failed blocks mixed with 0 credit"
      % (len(good_ranges), overlaps, mixed_bad))
if overlaps:
    fail("%d writes repeat bytes of the good source that already crossed the sink" % overlaps)
if not good_ranges or not mixed_bad:
    fail("the run did not exercise both credited and mixed writes")
sys.exit(1 if failures else 0)
