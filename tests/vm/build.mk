# Real-kernel tier: tests that need the md driver run inside a VM that boots
# Debian's kernel under qemu (tests/vm/run-in-vm). docs/vm-tests.md says more.

VM_MD_DUMP := $(BUILD)/tests/vm/md-dump

VM_NOTIFY_PROBE := $(BUILD)/tests/vm/md-notify-probe

ALL_TARGETS  += $(VM_MD_DUMP) $(VM_NOTIFY_PROBE)
DEB_PACKAGES += qemu-system-x86 linux-image-amd64 busybox-static kmod cpio mdadm fio xz-utils zstd

# Prints the md model library's reading of the arrays, for comparison with the
# kernel's own files inside the VM.
$(VM_MD_DUMP): $(BUILD)/tests/vm/md-dump.o $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^

# Which of md's files wake a poll() reader on which event (suite-policy.sh).
$(VM_NOTIFY_PROBE): $(BUILD)/tests/vm/md-notify-probe.o
	$(CC) $(LDFLAGS) -o $@ $^

# The suites `make check` runs, one VM boot each so that each stays inside the
# runner's per-test time limit: the md model and the collectd plugin on raid1
# and raid5, then on raid6 and raid10, and the service (on disks bounded to
# 4 MB/s each, so that its recoveries last as long on an idle host as on a
# loaded one; tests/vm/real-kernel says why), and the service beside mdadm
# reshaping through its backup file, and the installed unit under systemd as
# PID 1 (make install, D-Bus activation, the journal), check windows, and what
# md itself accepts and how it throttles (the docs' statements about md, the
# fake kernel's rules). They need mdboostd and
# mdraid.so, which `check` builds through `all`. And run-in-vm's own boots
# (real-kernel-boot: a boot that never reaches its script is taken again).
# Every tests/vm/real-kernel-* script is one.
VM_TESTS += $(sort $(wildcard tests/vm/real-kernel-*))

# The VM tools' own refusals and skips, without booting or fetching anything.
INTEGRATION_TESTS += tests/integration/vm-arguments

# The kernels the tier boots, fetched from Debian's archive (tests/vm/fetch-kernel)
# and never installed on the host: `make check` and `make check-vm` take the
# oldest and the newest supported (Debian 12's 6.1, the newest in
# trixie-backports), `make check-kernels` every one admins run (Debian 13's
# 6.12 too). A kernel the archive cannot give is skipped with the reason.
# Each test is named and logged per kernel: bookworm:real-kernel-raid15.
VM_KERNELS    ?= bookworm trixie-backports
CHECK_KERNELS ?= bookworm trixie trixie-backports
VM_SUITE       = $(foreach k,$(VM_KERNELS),--kernel=$(k) $(VM_TESTS))

.PHONY: check-kernels
check-kernels: deps-if-missing all tools ## Run the real-kernel tier on 6.1, 6.12 and the newest backports kernel (CHECK_KERNELS=)
	@$(RUN_SUITE) $(foreach k,$(CHECK_KERNELS),--kernel=$(k) $(VM_TESTS))

# The rebuild benchmark in the VM; writes docs/benchmarks.md and its plot.
DEB_PACKAGES  += gnuplot-nox jq
BENCH_TARGETS += bench-rebuild

.PHONY: bench-rebuild
bench-rebuild: $(ALL_TARGETS) ## Rebuild rate against a reader's rate per recipe, in the VM (docs/benchmarks.md)
	tests/vm/bench

# The NAS workloads on modelled hard disks; writes docs/benchmarks-nas.md and its plots.
BENCH_TARGETS += bench-workloads

.PHONY: bench-workloads
bench-workloads: $(ALL_TARGETS) $(TOOL_TARGETS) ## A rebuild under each NAS workload and recipe, on modelled hard disks in the VM (docs/benchmarks-nas.md)
	tests/vm/bench-workloads
