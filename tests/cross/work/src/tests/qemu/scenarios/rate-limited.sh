#!/usr/bin/env bash
# Scenario 3: QEMU rate-limits virtio-rng to 1 KiB/s; rngd starved.
. "$(dirname "$0")/common.sh"
boot -s rate-limited -v 1024 -R ,max-bytes=1024,period=1000 -a rng_core.default_quality=0 -T 120
finish
