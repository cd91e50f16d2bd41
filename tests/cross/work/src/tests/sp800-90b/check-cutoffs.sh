#!/bin/bash
# make check: the committed SP 800-90B cut-off table matches its generator.
set -eu
exec python3 "$top_srcdir/tests/sp800-90b/cutoffs.py" --check "$top_srcdir/tests/sp800-90b/cutoffs.txt"
