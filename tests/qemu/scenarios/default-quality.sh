#!/usr/bin/env bash
# (a) rng_core.default_quality caps virtio-rng: 1000 without the parameter,
# 0 with it; the pre-ready boot line leaves the pool not ready in /init;
# control: time to crng init done without rngd, capped at 60 s.
. "$(dirname "$0")/common.sh"
boot -s default-quality -v own -T 60
boot -s default-quality -v cap0 -a rng_core.default_quality=0 -T 60
boot -s default-quality -v preready -P -T 120
finish
