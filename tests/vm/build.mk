# Real-kernel tier: tests that need the md driver run inside a VM that boots
# Debian's kernel under qemu (tests/vm/run-in-vm). docs/vm-tests.md says more.

VM_MD_DUMP := $(BUILD)/tests/vm/md-dump

ALL_TARGETS  += $(VM_MD_DUMP)
DEB_PACKAGES += qemu-system-x86 linux-image-amd64 busybox-static kmod cpio mdadm fio

# Prints the md model library's reading of the arrays, for comparison with the
# kernel's own files inside the VM.
$(VM_MD_DUMP): $(BUILD)/tests/vm/md-dump.o $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^

# The suite `make check` runs: one VM boot for the md model and the collectd
# plugin, one for the service. It needs mdboostd and mdraid.so, which `check`
# builds through `all`.
INTEGRATION_TESTS += tests/vm/real-kernel

# The rebuild benchmark in the VM; writes docs/benchmarks.md and its plot.
DEB_PACKAGES  += gnuplot-nox jq
BENCH_TARGETS += bench-rebuild

.PHONY: bench-rebuild
bench-rebuild: $(ALL_TARGETS) ## Rebuild rate against a reader's rate per recipe, in the VM (docs/benchmarks.md)
	tests/vm/bench
