#!/usr/bin/env bash
# The TPM 2.0 and PKCS#11 sources dlopen() their libraries (sources/dl.c).
# With the library hidden (an empty file bind-mounted over it inside
# guard.sh's private mount namespace) rngd -l must say which library is not
# installed, where with it the same source gets as far as its device or
# module. rngd -l only probes: nothing is fed anywhere.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
command -v ldconfig > /dev/null || { echo "SKIP: no ldconfig to find the libraries"; exit 77; }
: > "$T/empty"
: > "$T/module.so"
ran=0

# lib_path SONAME: where the loader finds SONAME, resolved; empty if nowhere.
lib_path() {
	local p
	p=$(ldconfig -p | awk -v n="$1" '$1 == n { print $NF; exit }')
	[ -n "$p" ] && readlink -f "$p"
}

# listing SONAME-TO-HIDE RNGD-ARGS...: rngd -l's output, the library hidden
# if SONAME-TO-HIDE is not "-".
listing() {
	local hide=$1 path=
	shift
	[ "$hide" = - ] || path=$(lib_path "$hide")
	"$GUARD" -- bash -c '[ -z "$1" ] || mount --bind "$2" "$1" || exit 3; shift 2; exec "$@"' \
		_ "$path" "$T/empty" "$RNGD" -l -c /dev/null "$@" 2>&1
}

# check SOURCE SONAME RNGD-ARGS...
check() {
	local src=$1 soname=$2 out
	shift 2
	[ -n "$(lib_path "$soname")" ] || { echo "$soname not installed here: $src not checked"; return; }
	out=$(listing - "$@" | grep "^$src ")
	[ -n "$out" ] || fail "$src: not listed by rngd -l"
	echo "$out" | grep -q "not installed" && fail "$src with $soname present: $out"
	out=$(listing "$soname" "$@" | grep "^$src ")
	echo "$src, $soname hidden: $out"
	echo "$out" | grep -qE "^$src +no .*$soname not installed" ||
		fail "$src with $soname hidden does not say so: $out"
	ran=1
}

if grep -q '^#define HAVE_TSS2_ESYS 1' "$top_builddir/config.h"; then
	# A TCTI other than the default device goes straight to the library.
	check tpm2 libtss2-tctildr.so.0 -O tpm2:tcti:swtpm:host=127.0.0.1,port=1
	check tpm2 libtss2-esys.so.0 -O tpm2:tcti:swtpm:host=127.0.0.1,port=1
fi
if grep -q '^#define HAVE_P11KIT 1' "$top_builddir/config.h"; then
	check pkcs11 libp11-kit.so.0 -O pkcs11:module:"$T/module.so"
fi
[ "$ran" = 1 ] || { echo "SKIP: built without tss2 and p11-kit, or their libraries are not installed"; exit 77; }
exit 0
