#!/usr/bin/env bash
# Scenario 6: device_del / device_add of the virtio-rng device under rngd,
# alone and with a TPM 2.0 (tpm-rng-0) for the kernel to switch to.
. "$(dirname "$0")/common.sh"
boot -s hot-unplug -v plain -a rng_core.default_quality=0 -T 120
boot -s hot-unplug -v tpm -t 2.0 -a rng_core.default_quality=0 -T 150
finish
