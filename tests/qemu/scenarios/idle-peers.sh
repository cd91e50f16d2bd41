#!/usr/bin/env bash
# Scenario idle-peers: rngd's idle cost on a real kernel once the pool is
# ready, and Debian's jitterentropy-rngd's beside it, measured in the guest
# only (tests/qemu/guest/idle-peers.sh); virtio-rng on the host's urandom.
. "$(dirname "$0")/common.sh"
boot -s idle-peers -T 240
finish
