# Resident memory of a running process, for tests/integration/idle-memory.sh
# and bench/rngd-idle (sourced, not run). Everything is read from /proc:
#   VmHWM    /proc/PID/status: the peak resident size since exec
#   RssAnon, RssFile  the current split of the resident size (the kernel
#            keeps no split of the peak); with an idle daemon current and
#            peak differ by start-up's transient pages only
#   mappings /proc/PID/smaps: Rss per mapped file ([heap], [stack], [anon]
#            for the rest), so a library that should not be there shows up
#            by name with its cost
# File-backed Rss counts whole fault-around windows (64 kB by default) of
# a library around every page touched, which is why libc costs ~1 MB even
# to a program that only sleeps: the reference run measures that floor.

# mem_field PID FIELD: FIELD's kB from /proc/PID/status (VmHWM, RssAnon, RssFile).
mem_field() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

# mem_mappings PID [N]: the N (default 8) largest mappings, "kB name" per line.
mem_mappings() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { name = $6 == "" ? "[anon]" : $6 }
		/^Rss:/ { rss[name] += $2 }
		END { for (n in rss) if (rss[n] > 0) printf "%d %s\n", rss[n], n }' "/proc/$1/smaps" |
		sort -rn | head -n "${2:-8}"
}

# mem_thread_stacks PID STACK_KB: resident kB of each anonymous mapping of
# exactly STACK_KB (rngd's thread stacks, rngd/thread_stack.h): the pages
# a thread ever touched, i.e. its stack's high-water mark.
mem_thread_stacks() {
	awk -v want="$2" '
		function hexval(s,   i, c, v) {
			v = 0
			for (i = 1; i <= length(s); i++) {
				c = index("0123456789abcdef", substr(s, i, 1)) - 1
				v = v * 16 + c
			}
			return v
		}
		/^[0-9a-f]+-[0-9a-f]+ / {
			split($1, a, "-")
			stack = $2 == "rw-p" && $6 == "" && (hexval(a[2]) - hexval(a[1])) / 1024 == want
		}
		/^Rss:/ && stack { printf "%s ", $2 }' "/proc/$1/smaps"
	echo
}

# The libraries only a TPM or PKCS#11 source (or the old libsystemd link)
# brings in; none may be mapped unless such a source is enabled and runs.
MEM_OPTIONAL_LIBS='libm\.so|libtspi\.so|libtss2-|libp11-kit\.so|libcrypto\.so|libsystemd\.so'

# mem_optional_libs PID: the optional libraries mapped, one per line.
mem_optional_libs() {
	awk '{ print $6 }' "/proc/$1/maps" | { grep -E "$MEM_OPTIONAL_LIBS" || true; } | sort -u
}

# mem_reference_hwm [PREFIX...]: VmHWM of tests/integration/idle-reference,
# a C program that logs one line and waits (libc and the loader alone),
# measured now on this machine: same libc, same fault-around. PREFIX runs
# it (e.g. setarch -R, as idle-memory.sh runs rngd).
mem_reference_hwm() {
	local pid hwm
	env "$@" "$top_builddir/tests/integration/idle-reference" 2>/dev/null &
	pid=$!
	sleep 0.5
	hwm=$(mem_field "$pid" VmHWM)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$hwm"
}
