# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Helpers for scripts that run inside the test VM (tests/vm/run-in-vm):
# PASS/FAIL bookkeeping, the kernel's md files read directly, and arrays
# created on the VM's empty virtio disks.

VM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_BUILD=${VM_BUILD:-$VM_TOP/build}
# shellcheck disable=SC2034 # read by the suites
VM_MD_DUMP=$VM_BUILD/tests/vm/md-dump

VM_PASSED=0
VM_FAILED=0

vm_log() { printf '# %s\n' "$*"; }
vm_pass() { VM_PASSED=$((VM_PASSED + 1)); printf 'PASS: %s\n' "$*"; }
vm_fail() { VM_FAILED=$((VM_FAILED + 1)); printf 'FAIL: %s\n' "$*"; }

# vm_check DESCRIPTION COMMAND...: PASS if the command succeeds.
vm_check() {
	local desc=$1
	shift
	if "$@"; then
		vm_pass "$desc"
	else
		vm_fail "$desc"
		return 1
	fi
}

# vm_expect DESCRIPTION EXPECTED ACTUAL
vm_expect() {
	if [ "$2" = "$3" ]; then
		vm_pass "$1"
	else
		vm_fail "$1: expected '$2', got '$3'"
	fi
}

vm_finish() {
	printf '%d passed, %d failed\n' "$VM_PASSED" "$VM_FAILED"
	[ "$VM_FAILED" -eq 0 ] && [ "$VM_PASSED" -gt 0 ]
}

# vm_wait_for SECONDS COMMAND...: polls every 0.5 s until the command succeeds.
# shellcheck source=tests/wait-for.sh
. "$VM_TOP/tests/wait-for.sh"
vm_wait_for() { poll $(($1 * 2)) 0.5 "${@:2}"; }

# vm_kernel_at_least VERSION: the running kernel is VERSION (6.12) or newer.
vm_kernel_at_least() { printf '%s\n%s\n' "$1" "$(uname -r | cut -d- -f1)" | sort -V -C; }

# ---- the kernel's own files --------------------------------------------

md_attr() { cat "/sys/block/$1/md/$2"; }
md_set() { echo "$3" >"/sys/block/$1/md/$2"; }

# "N / M" or "none": the first number, or nothing.
md_sync_done() { md_attr "$1" sync_completed | awk '$2 == "/" { print $1 }'; }
md_sync_total() { md_attr "$1" sync_completed | awk '$2 == "/" { print $3 }'; }

# The progress line of an array in /proc/mdstat: prints "ACTION DONE TOTAL"
# (KiB), or nothing when no operation runs.
mdstat_progress() {
	awk -v md="$1" '
		$1 == md && $2 == ":" { inside = 1; next }
		inside && /^[ \t]*$/ { exit }
		inside && match($0, /(resync|recovery|check|reshape) *= *[0-9.]+% \([0-9]+\/[0-9]+\)/) {
			s = substr($0, RSTART, RLENGTH)
			split(s, w, /[ =%()\/]+/)
			print w[1], w[3], w[4]
			exit
		}' /proc/mdstat
}

md_idle() { [ "$(md_attr "$1" sync_action)" = idle ] && [ "$(md_attr "$1" sync_completed)" = none ]; }
md_running() { [ -n "$(mdstat_progress "$1")" ]; }
md_stripes_idle() { [ "$(md_attr "$1" stripe_cache_active)" = 0 ]; }

# The model's value for KEY of md-dump's output.
dump_get() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' <<<"$1"; }

# ---- speed ---------------------------------------------------------------

# A slow operation can be watched; a fast one finishes. The global ceiling
# limits every array that has no local one; md only throttles above the
# floor (speed_limit_min, 1000 KiB/s by default), so 1000 is as slow as it gets.
md_slow() { echo "${1:-1000}" >/proc/sys/dev/raid/speed_limit_max; }
md_fast() { echo 2000000 >/proc/sys/dev/raid/speed_limit_max; }

# md_wait_idle ARRAY [SECONDS]: lets the running operation finish.
md_wait_idle() {
	md_fast
	vm_wait_for "${2:-120}" md_idle "$1"
}

# ---- arrays on the VM's disks --------------------------------------------

# vm_disk N: the N-th disk (0-based) of the VM as /dev/vdX.
vm_disk() {
	local names
	read -r -a names <<<"$MDBOOST_VM_DISKS"
	echo "/dev/${names[$1]}"
}

# vm_disks FIRST COUNT: COUNT disks from FIRST.
vm_disks() {
	local i
	for ((i = $1; i < $1 + $2; i++)); do vm_disk "$i"; done
}

md_stop_all() {
	local d
	for d in /sys/block/md*; do
		[ -e "$d" ] || continue
		mdadm --stop "/dev/${d##*/}" >/dev/null 2>&1
	done
	for d in $MDBOOST_VM_DISKS; do
		mdadm --zero-superblock --force "/dev/$d" >/dev/null 2>&1
		wipefs -a -q "/dev/$d" >/dev/null 2>&1
	done
	return 0
}
