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
for opt in $("$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null --help | grep -oE -- '--[a-z-]+' | sort -u); do
	grep -qF -- "$opt" <<< "$text" || { echo "FAIL: rngd.8 does not document $opt"; exit 1; }
done
# The text of rngd.8's entry for option $1 (its tag line not included).
man_entry() {
	awk -v opt="$1" '
		/^       [-A-Za-z]/ { inside = index($0, opt "=") || index($0, opt " ") || $NF == opt; next }
		inside' <<< "$text"
}
# Every "(default N)" of --help (the values rngd starts with, see
# test_daemon_options) is the default rngd.8 gives in that option's entry.
checked=0
while read -r opt value; do
	entry=$(man_entry "$opt")
	grep -qiE -- "default $value\b" <<< "$entry" ||
		{ echo "FAIL: rngd.8's $opt entry does not give its default $value (rngd --help does)"; exit 1; }
	checked=$((checked + 1))
done < <("$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null --help |
	sed -nE 's/^.*(--[a-z0-9-]+)[= ].*\(default ([0-9]+).*$/\1 \2/p')
[ "$checked" -ge 13 ] || { echo "FAIL: only $checked numeric defaults found in --help"; exit 1; }
# Every "[MIN..MAX]" of --help (what the parser takes, see test_daemon_options)
# is the range rngd.8 gives in that option's entry, as "MIN to MAX".
checked=0
while read -r opt min max; do
	entry=$(man_entry "$opt")
	grep -qE -- "(^|[ (])${min//./\\.} to ${max//./\\.}\b" <<< "$(tr -s ' \t\n' '   ' <<< "$entry")" ||
		{ echo "FAIL: rngd.8's $opt entry does not give its range $min to $max (rngd --help does)"; exit 1; }
	checked=$((checked + 1))
done < <("$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null --help |
	sed -nE 's/^ *(-[a-zA-Z], )?(--[a-z0-9-]+)[= ].*\[([0-9.]+)\.\.([0-9.]+)\]$/\2 \3 \4/p')
[ "$checked" -ge 14 ] || { echo "FAIL: only $checked numeric ranges found in --help"; exit 1; }
for sig in SIGTERM SIGINT SIGUSR1 SIGHUP; do
	grep -q "$sig" <<< "$text" || { echo "FAIL: rngd.8 does not document $sig"; exit 1; }
done
grep -q "EXIT STATUS" <<< "$text" || { echo "FAIL: no EXIT STATUS"; exit 1; }
echo "ok: man pages render silently and document every option"
