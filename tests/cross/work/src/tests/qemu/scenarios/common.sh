# shellcheck shell=bash
# Sourced by every host-side scenario script: boot() runs one guest through
# run-scenario, collects its lines, and remembers a failure.
set -uo pipefail
qemu_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
status=0
boot() {
	"$qemu_dir/run-scenario" "$@" || status=1
}
# A temp folder removed on every exit path.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rngd-scenario.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
finish() { exit "$status"; }
