#!/usr/bin/env bash
# rngd.8 and rngd.conf.5 render without warnings, and rngd.8 documents
# every option rngd --help lists and every exit status rngd uses.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
command -v man > /dev/null || { echo "SKIP: no man"; exit 77; }
for page in rngd.8 rngd.conf.5; do
	out=$(man --warnings -l "$top_srcdir/man/$page" 2>&1 > /dev/null)
	[ -z "$out" ] || { echo "FAIL: $page: $out"; exit 1; }
done
text=$(MANWIDTH=200 man -l "$top_srcdir/man/rngd.8" 2>/dev/null | col -b)
for opt in $("$top_builddir/rngd/rngd" --help | grep -oE -- '--[a-z-]+' | sort -u); do
	grep -qF -- "$opt" <<< "$text" || { echo "FAIL: rngd.8 does not document $opt"; exit 1; }
done
for sig in SIGTERM SIGINT SIGUSR1 SIGHUP; do
	grep -q "$sig" <<< "$text" || { echo "FAIL: rngd.8 does not document $sig"; exit 1; }
done
grep -q "EXIT STATUS" <<< "$text" || { echo "FAIL: no EXIT STATUS"; exit 1; }
echo "ok: man pages render silently and document every option"
