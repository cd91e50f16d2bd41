#!/usr/bin/env bash
# Scenario 5: TPM 2.0 (swtpm --tpm2) behind tpm-tis, rngd's tpm2 source.
. "$(dirname "$0")/common.sh"
boot -s tpm20 -P -r none -t 2.0 -T 150
finish
