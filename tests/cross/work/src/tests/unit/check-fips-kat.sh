#!/bin/bash
# make check: the committed known-answer file matches its generator.
set -eu
exec python3 "$top_srcdir/tests/unit/fips-kat.py" --check "$top_srcdir/tests/unit/data/fips-kat.txt"
