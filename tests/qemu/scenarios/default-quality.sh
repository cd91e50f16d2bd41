#!/usr/bin/env bash
# (a) rng_core.default_quality caps virtio-rng: 1000 without the parameter,
# 0 with =0, 512 with =512; tpm-rng-0 (declares none) gets 0, 0 and 512.
# The pre-ready boot line leaves the pool not ready in /init; control: time
# to crng init done without rngd, capped at 60 s. Without the parameter it
# reads 0 and refuses values outside 0..1024. switch: with two devices, a
# quality raised through rng_quality survives a switch away and back, and a
# device registering competes with its capped quality.
. "$(dirname "$0")/common.sh"
# A TPM 2.0 brings tpm-rng-0, a driver that declares no quality.
boot -s default-quality -v own -t 2.0 -T 60
boot -s default-quality -v cap0 -t 2.0 -a rng_core.default_quality=0 -T 60
boot -s default-quality -v cap512 -t 2.0 -a rng_core.default_quality=512 -T 60
boot -s default-quality -v preready -P -T 120
# Two devices: a raised quality survives switching away and back; a device
# registering competes with its capped quality.
boot -s default-quality -v switch -t 2.0 -a rng_core.default_quality=512 -T 60
finish
