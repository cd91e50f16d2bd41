#!/usr/bin/env bash
# The CLI tests and the peer cross-check again, on rngtest built with
# AddressSanitizer and UndefinedBehaviorSanitizer. A sanitizer report
# exits 86, which every exit-code check of those tests rejects.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:?top_builddir must be set (make check sets it)}"
export RNGTEST=$top_builddir/tests/integration/rngtest_asan
export ASAN_OPTIONS=exitcode=86:abort_on_error=0
export UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
rc=0
bash "$here/rngtest-cli.sh" || rc=1
bash "$here/rngtest-peer.sh" || rc=1
exit "$rc"
