#!/usr/bin/env bash
# Run the kernel's scripts/checkpatch.pl --strict on every patch listed in
# series; each must report 0 errors and 0 warnings. checkpatch runs from an
# unpacked linux-source-6.1 tree: one left by build-kernel in the cache if
# there is one, else the parts it needs unpacked into a temp folder.
# Exit 77 (skipped) when linux-source-6.1 is not installed.
set -euo pipefail

here=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/kernel-patches
tarball=/usr/src/linux-source-6.1.tar.xz
cache_root=${RNGD_KERNEL_CACHE:-/var/cache/rngd-kernel}

tree=
for t in "$cache_root"/*/linux-source-6.1; do
	# Only finished trees: another run may be unpacking or removing one.
	[ -f "$t/../stamp" ] && [ -f "$t/scripts/checkpatch.pl" ] && [ -f "$t/MAINTAINERS" ] &&
		{ tree=$t; break; }
done
tmp=
trap '[ -n "$tmp" ] && rm -rf "$tmp"' EXIT
if [ -z "$tree" ]; then
	[ -f "$tarball" ] || { echo "check-patches: SKIP: $tarball missing (apt-get install linux-source-6.1)"; exit 77; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rngd-checkpatch.XXXXXX")
	# checkpatch wants to see the top of a kernel tree and reads its own
	# data files from scripts/; the rest of the tree is not needed.
	tar -C "$tmp" -xf "$tarball" --wildcards 'linux-source-6.1/scripts/*' \
		'linux-source-6.1/COPYING' 'linux-source-6.1/CREDITS' 'linux-source-6.1/Kbuild' \
		'linux-source-6.1/MAINTAINERS' 'linux-source-6.1/Makefile' 'linux-source-6.1/README' \
		'linux-source-6.1/include/linux/kernel.h' 'linux-source-6.1/init/main.c' \
		'linux-source-6.1/ipc/util.c' 'linux-source-6.1/kernel/fork.c' 'linux-source-6.1/lib/string.c' \
		'linux-source-6.1/fs/open.c' 'linux-source-6.1/arch/Kconfig' 'linux-source-6.1/drivers/Kconfig' \
		'linux-source-6.1/Documentation/Changes'
	tree=$tmp/linux-source-6.1
fi

n=0 bad=0
while read -r line; do
	line=${line%%#*}
	line=$(echo "$line" | xargs)
	[ -n "$line" ] || continue
	n=$((n + 1))
	patch=$here/$line
	if [ ! -f "$patch" ]; then
		echo "check-patches: FAIL $line: listed in series but missing"
		bad=$((bad + 1))
		continue
	fi
	# The unpacked tree has no git history, so checkpatch cannot look up
	# the commit a Fixes: tag names and would warn about every one.
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --ignore UNKNOWN_COMMIT_ID "$patch" 2>&1) || true
	summary=$(echo "$out" | grep -E '^total: ' || echo "no summary")
	if echo "$summary" | grep -q '^total: 0 errors, 0 warnings'; then
		echo "check-patches: PASS $line ($summary)"
	else
		echo "check-patches: FAIL $line ($summary)"
		echo "$out" | sed 's/^/  | /'
		bad=$((bad + 1))
	fi
done < "$here/series"
echo "check-patches: $n patches, $bad failing"
[ "$bad" = 0 ]
