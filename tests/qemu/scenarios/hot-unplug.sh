#!/usr/bin/env bash
# Scenario 6: device_del / device_add of the virtio-rng device under rngd.
. "$(dirname "$0")/common.sh"
boot -s hot-unplug -a rng_core.default_quality=0 -T 180
finish
