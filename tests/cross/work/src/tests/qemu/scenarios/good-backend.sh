#!/usr/bin/env bash
# Scenario 1: virtio-rng on the host's /dev/urandom, pre-ready boot line,
# rngd with the hwrng source and the kernel sink makes the pool ready.
. "$(dirname "$0")/common.sh"
boot -s good-backend -P -T 120
finish
