# tests/qemu: owned by the QEMU guest suite work.
.PHONY: check-qemu
check-qemu:
	@echo "check-qemu: no guest scenarios yet"
