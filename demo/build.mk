# make demo: the whole stack on a real md array rebuilding in a VM
# (demo/run; docs/demo.md). The VM tier's packages (qemu, Debian's kernel,
# mdadm, fio) come from tests/vm/build.mk; the page's (cockpit-ws, curl) from
# cockpit-ui/build.mk. socat connects demo-shell to the VM's serial port;
# sudo gives the demo user Cockpit's administrative access inside the VM.

DEMO_PORT       ?= 9090
DEMO_DISK_SIZE  ?= 1024
DEMO_DISK_MODEL ?= hdd
DEMO_DISK_SCALE ?= 10
DEMO_CPUS       ?= 2
DEMO_MEM        ?= 1536

DEB_PACKAGES += socat sudo iproute2 curl passwd qemu-system-x86 linux-image-amd64 \
                busybox-static kmod cpio mdadm fio collectd-core rrdtool cockpit-ws \
                cockpit-bridge cockpit-system dbus-daemon polkitd systemd nbdkit

.PHONY: demo demo-stop demo-shell demo-rebuild

demo: deps-if-missing all tools ## Boot a VM with a raid5 rebuilding on modelled hard disks and the whole stack; prints the URL (Ctrl-C stops)
	@demo/run --port $(DEMO_PORT) --disk-size $(DEMO_DISK_SIZE) --disk-model $(DEMO_DISK_MODEL) \
		--disk-scale $(DEMO_DISK_SCALE) --cpus $(DEMO_CPUS) --mem $(DEMO_MEM)

demo-stop: ## Stop the running demo and remove its VM, disk images and sockets
	@demo/stop

demo-shell: ## A root shell inside the running demo VM (Ctrl-] leaves)
	@demo/shell

demo-rebuild: ## Start the rebuild of the demo's md0 again, to watch it once more
	@demo/shell demo/vm-rebuild

# The demo end to end: boots it, boosts md0 with busctl inside the VM, checks
# the kernel's files and the automatic restore, logs in to Cockpit through the
# forwarded port, and stops it (four to six minutes).
INTEGRATION_TESTS += tests/integration/demo-boost
