#!/usr/bin/env bash
# Scenario 7: raw dd from /dev/hwrng vs rngd's passing rate (benchmark).
. "$(dirname "$0")/common.sh"
boot -s throughput -a rng_core.default_quality=0 -T 120
finish
