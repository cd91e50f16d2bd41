#!/usr/bin/env bash
# make check: every fuzz harness for a short, bounded time (10 s, at most
# 2 million inputs each). `make fuzz` runs them long.
exec "$top_srcdir/tests/fuzz/run-fuzz.sh" "${FUZZ_CHECK_SECONDS:-10}" 2000000
