#!/usr/bin/env bash
# man/rngtest.1 renders without warnings and documents every option that
# `rngtest --help` lists, every report line and every exit code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/rngtest-lib.sh"

page=$top_srcdir/man/rngtest.1
check "man page exists" [ -r "$page" ]

if command -v man >/dev/null; then
	MANWIDTH=1000 man --warnings -l "$page" >"$work/page.txt" 2>"$work/warn.txt" || true
elif command -v groff >/dev/null; then
	groff -man -Tutf8 -ww -rLL=1000n "$page" >"$work/page.txt" 2>"$work/warn.txt" || true
else
	bad "neither man nor groff is installed (apt-get install man-db)"
	finish
	exit 1
fi
check "renders without warnings" [ ! -s "$work/warn.txt" ]
cat "$work/warn.txt"
check "renders to text" grep -q 'EXIT STATUS' "$work/page.txt"

# Hyphens in the page are \- and may come out as U+2010 in some locales.
text=$(LC_ALL=C sed 's/\xe2\x80\x90/-/g' "$work/page.txt" | tr -s ' ')
"$ours" --help >"$work/help.txt"
for opt in $(grep -oE -- '--[a-z0-9-]+' "$work/help.txt" | sort -u) $(grep -oE -- '(^| )-[a-zA-Z?]' "$work/help.txt" | tr -d ' ' | sort -u); do
	check "documents $opt" grep -qF -- "$opt" <<<"$text"
done
for line in 'bits received from input' 'bits sent to output' 'FIPS 140-2 successes' \
	'FIPS 140-2 failures' 'Monobit' 'Poker' 'Runs' 'Long run' 'Continuous run' \
	'Repeated block (last 64)' 'Repetition count' 'Adaptive proportion' \
	'input channel speed' 'FIPS tests speed' 'output channel speed' 'Program run time' \
	'entropy source exhausted!' 'error reading input' 'error writing to output'; do
	check "documents the line '$line'" grep -qF -- "$line" <<<"$text"
done
for code in 0 1 10 11 12; do
	check "documents exit code $code" grep -qE "^ +$code +[A-Z]" <<<"$text"
done
finish
