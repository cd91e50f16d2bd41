# The KVM probe and smoke test: reaching /init is the whole test.
result boot PASS "reached /init at $(uptime_s) s"
