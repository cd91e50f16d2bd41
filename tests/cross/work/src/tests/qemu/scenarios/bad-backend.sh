#!/usr/bin/env bash
# Scenario 2: virtio-rng fed zeros, a stuck byte pattern, and biased bits
# (P(1) = 3/4) from host files; rngd must credit none of it.
. "$(dirname "$0")/common.sh"
size=$((16 * 1024 * 1024))
# A stuck output that keeps half its bits set: only the pattern tests see it.
head -c "$size" /dev/zero | tr '\0' '\132' > "$scratch/stuck"
# Each byte the OR of two random bytes: every bit is 1 with probability 3/4.
python3 -c '
import os, sys
n = int(sys.argv[1]); out = open(sys.argv[2], "wb")
for _ in range(n // 65536):
    a = int.from_bytes(os.urandom(65536), "little")
    b = int.from_bytes(os.urandom(65536), "little")
    out.write((a | b).to_bytes(65536, "little"))
' "$size" "$scratch/biased"
boot -s bad-backend -v zeros -P -r /dev/zero -T 120
boot -s bad-backend -v stuck -P -r "$scratch/stuck" -T 120
boot -s bad-backend -v biased -P -r "$scratch/biased" -T 120
finish
