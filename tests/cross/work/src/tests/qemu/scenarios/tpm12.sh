#!/usr/bin/env bash
# Scenario 4: TPM 1.2 (swtpm) through tcsd in the guest, rngd's tpm source.
. "$(dirname "$0")/common.sh"
boot -s tpm12 -P -r none -t 1.2 -T 150
finish
