#!/bin/sh
# build-harness.sh OUT CLANG [CFLAGS... SOURCES...]
# Build one libFuzzer harness with clang. When clang or its libFuzzer
# runtime is missing, write a placeholder that exits 77, so make check
# reports the fuzz test as skipped rather than failing the build; a
# compile error with a working clang fails as usual.
out=$1 clang=$2
shift 2
probe=$(mktemp -d "${TMPDIR:-/tmp}/rngd-fuzz-probe.XXXXXX") || exit 1
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" > /dev/null 2>&1; then
	echo "build-harness: $clang cannot build libFuzzer programs; $out will skip" >&2
	printf '#!/bin/sh\necho "%s: not built: no clang with -fsanitize=fuzzer" >&2\nexit 77\n' "$out" > "$out"
	chmod +x "$out"
	exit 0
fi
exec "$clang" -o "$out" "$@"
