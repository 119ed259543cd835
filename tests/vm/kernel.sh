# shellcheck shell=bash
# Sourced by the VM scripts: which kernel the VM boots and what it needs.

# Debian packages the VM tier needs on the host (also in tests/vm/build.mk).
# shellcheck disable=SC2034 # read by run-in-vm
VM_DEB_PACKAGES="qemu-system-x86 linux-image-amd64 busybox-static kmod cpio mdadm fio xz-utils zstd"

# Prints the newest kernel version that has both /boot/vmlinuz-KVER and the
# md raid modules in /lib/modules/KVER; fails when there is none.
vm_find_kernel() {
	local img kver best
	best=$(for img in /boot/vmlinuz-*; do
		[ -r "$img" ] || continue
		kver=${img#/boot/vmlinuz-}
		compgen -G "/lib/modules/$kver/kernel/drivers/md/raid456.ko*" >/dev/null || continue
		echo "$kver"
	done | sort -V | tail -n 1)
	[ -n "$best" ] || return 1
	echo "$best"
}
