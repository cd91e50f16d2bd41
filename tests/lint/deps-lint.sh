#!/usr/bin/env bash
# tools/lint-deps on the tree passes, and it bites: a package list without
# debootstrap, an unmapped command, a probed-then-skipped command and a
# mis-mapped command each fail with the command and what to do.
set -u
: "${top_srcdir:?run from make check}"
lint=$top_srcdir/tools/lint-deps
T=$(mktemp -d "${TMPDIR:-/tmp}/rngd-lint.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dpkg-query > /dev/null || { echo "SKIP: not a Debian system"; exit 77; }

"$lint" > "$T/out" 2>&1 || { cat "$T/out" >&2; fail "the tree does not pass tools/lint-deps"; }

# 1. debootstrap removed from tools/install-deps.
sed 's/ debootstrap / /' "$top_srcdir/tools/install-deps" > "$T/install-deps"
! grep -qw debootstrap "$T/install-deps" || fail "could not remove debootstrap from the copy"
LINT_DEPS_INSTALL_DEPS=$T/install-deps "$lint" > "$T/out" 2>&1 && fail "no failure without debootstrap"
grep -q "command 'debootstrap' needs package 'debootstrap': add it to tools/install-deps" "$T/out" ||
	fail "the failure does not name debootstrap: $(cat "$T/out")"

# 2-4. A small tree: an unmapped command, a command that is probed and then
# skipped (still a dependency), a mis-mapped one.
mkdir -p "$T/tree/tools" "$T/tree/tests"
cp "$top_srcdir/tools/install-deps" "$T/tree/tools/"
cat > "$T/tree/tests/t.sh" <<'SCRIPT'
#!/bin/bash
frobnicate --all | sort
SCRIPT
printf 'sort coreutils\n' > "$T/tree/tools/deps.map"
LINT_DEPS_ROOT=$T/tree "$lint" > "$T/out" 2>&1 && fail "an unmapped command passed"
grep -q "tests/t.sh:2: command 'frobnicate' is not in tools/deps.map" "$T/out" ||
	fail "unmapped command not named: $(cat "$T/out")"

cat > "$T/tree/tests/t.sh" <<'SCRIPT'
#!/bin/bash
command -v piuparts > /dev/null || { echo "SKIP: no piuparts"; exit 77; }
SCRIPT
printf 'piuparts piuparts\n' > "$T/tree/tools/deps.map"
LINT_DEPS_ROOT=$T/tree "$lint" > "$T/out" 2>&1 && fail "a probed command whose package is not listed passed"
grep -q "command 'piuparts' needs package 'piuparts'" "$T/out" || fail "probed command not named: $(cat "$T/out")"

cat > "$T/tree/tests/t.sh" <<'SCRIPT'
#!/bin/bash
sort < /dev/null
SCRIPT
printf 'sort sed\n' > "$T/tree/tools/deps.map"
LINT_DEPS_ROOT=$T/tree "$lint" > "$T/out" 2>&1 && fail "a mis-mapped command passed"
grep -q "'sort' is mapped to 'sed' but dpkg -S says coreutils" "$T/out" || fail "mis-map not named: $(cat "$T/out")"
echo "ok: lint-deps passes the tree and names an unlisted, an unmapped, a probed and a mis-mapped command"
