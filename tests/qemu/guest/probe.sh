# The KVM probe and smoke test: reaching /init is the whole test.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
result boot PASS "reached /init at $(uptime_s) s"
