#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/real-kernel checks: 5 disks of 96 MiB,
# each bounded to 4 MB/s, so a raid5 check lasts about 25 s): check windows
# (docs/checks.md) on the real md driver.
#   - a check outside its window is paused: md idle, sync_min where the
#     service says it resumes; resumed when the window opens (here: set to
#     "any"), md starts from there, not from 0;
#   - the mismatches counted over the pause are those of a check that ran
#     without one (known garbage written to a member before and after it);
#   - a check on a degraded raid1 waits, the recovery onto an added disk is
#     left alone, and the check resumes where it stopped once the array is
#     whole, and its report says a member failed, not that it finished;
#   - a repair outside its window: paused on a kernel that resumes it as a
#     repair (6.1, 6.12), left running where md would turn it into a resync.
set -u

# shellcheck source=tests/vm/service-suite.sh
. "$(dirname "$0")/service-suite.sh"

action_is() { [ "$(md_attr "$1" sync_action)" = "$2" ]; }
check_is() { mdb_array_prop "$1" Check | jq -e "map_values(.data) | $2" >/dev/null; }
check_prop() { mdb_array_prop "$1" Check | jq -r "map_values(.data) | $2"; }
done_sectors() { md_attr "$1" sync_completed | awk '{ print $1 }'; }
past() { local d; d=$(done_sectors "$1"); [ "$d" != none ] && [ "$d" -ge "$2" ]; }
# from_at_least FIRST POS: md's first position after a resume is a number, POS or past it.
from_at_least() { [ "$1" != none ] && [ "$1" -ge "$2" ]; }
logged() { grep -q -- "$1" "$MDB_TMP/service.log"; }
# A window that is closed now: it opens in two hours, in the VM's local time as the service reads it.
closed_window() {
	local h
	h=$((10#$(date +%H)))
	printf '%02d:00-%02d:00' $(((h + 2) % 24)) $(((h + 3) % 24))
}
# Once: it stays closed for the whole run, even across the hour.
closed=$(closed_window)
# garbage DISK MIB: 1 MiB of random bytes MIB MiB into a member, past md's superblock: mismatches a check finds.
garbage() { dd if=/dev/urandom of="$1" bs=1M seek="$2" count=1 oflag=direct conv=notrunc 2>/dev/null; }

mdb_init
# shellcheck disable=SC2034 # read by service-lib.sh
MDB_ROOT=/
# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; md_stop_all; (exit $rc); mdb_cleanup' EXIT

vm_log "kernel $(uname -r)"
d0=$(vm_disk 0) d1=$(vm_disk 1) d2=$(vm_disk 2) d3=$(vm_disk 3)
mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=3 --chunk=64 \
	--metadata=1.2 --bitmap=none --assume-clean "$d0" "$d1" "$d2" || { echo "mdadm --create md0 failed"; exit 1; }
garbage "$d1" 12
garbage "$d1" 70

mdb_start_bus
mdb_start_polkit
mdb_start_service

# ---- a check that runs whole: the count to compare with --------------------------------

echo check >/sys/block/md0/md/sync_action
mdb_check "a whole check runs to its end" vm_wait_for 120 action_is md0 idle
whole=$(md_attr md0 mismatch_cnt)
vm_log "an unpaused check found $whole mismatched sectors"
mdb_check "it found the garbage" [ "$whole" -gt 0 ]

# ---- paused outside its window, resumed from where it stopped ---------------------------

total=$(md_attr md0 component_size)
total=$((total * 2))
echo check >/sys/block/md0/md/sync_action
mdb_check "the check runs past 40 %" within 60 past md0 $((total * 2 / 5)) || explain
mdb_call root SetPolicy sss md0 check_window "$closed"
mdb_expect_ok "SetPolicy: md0 checks only in a window that is closed now"
mdb_check "the service pauses the check" within 10 action_is md0 idle || explain
mdb_check "Check says paused by its window" within 5 check_is md0 '.state == "paused" and .why == "window"'
pos=$(check_prop md0 .position)
vm_log "paused at sector $pos of $total; md's sync_min: $(md_attr md0 sync_min)"
mdb_check "where it resumes is md's own checkpoint (sync_min)" [ "$(md_attr md0 sync_min)" = "$pos" ]
mdb_check "not at the start" [ "$pos" -gt 0 ]
mdb_check "it stays paused" eval 'sleep 5; action_is md0 idle'
mdb_call root SetPolicy sss md0 check_window any
mdb_expect_ok "SetPolicy: md0 checks at any time"
mdb_check "the check is resumed" within 10 action_is md0 check || explain
first=$(done_sectors md0)
vm_log "resumed: sync_completed first read $first"
mdb_check "md goes on from where it stopped, not from 0" from_at_least "$first" "$pos"
mdb_check "the check runs to its end" vm_wait_for 120 action_is md0 idle
mdb_check "the log counts as many mismatches as the unpaused check ($whole)" \
	within 10 logged "md0: the check ended: $whole mismatched sectors in all"
mdb_check "and Check is empty again" check_is md0 '. == {}'

# ---- a repair outside its window ------------------------------------------------------------

mdb_call root SetPolicy sss md0 check_window "$closed"
echo repair >/sys/block/md0/md/sync_action
case $(uname -r) in
6.1.* | 6.1[0-2].*)
	mdb_check "on $(uname -r) a repair outside its window is paused" \
		within 10 check_is md0 '.state == "paused" and .action == "repair"' || explain
	mdb_check "md stays idle (no resync)" eval 'sleep 3; action_is md0 idle'
	mdb_call root SetPolicy sss md0 check_window any
	mdb_check "and resumed as a repair" within 10 action_is md0 repair
	;;
*)
	mdb_check "on $(uname -r) a repair outside its window runs on" eval 'sleep 4; action_is md0 repair' || explain
	mdb_check "the log says why" logged "repairs are not paused by check windows on this kernel"
	mdb_call root SetPolicy sss md0 check_window any
	;;
esac
mdb_check "the repair runs to its end" vm_wait_for 120 action_is md0 idle
md_stop_all

# ---- degraded: waits for the rebuild, then resumes where it stopped -------------------------

mdadm --create /dev/md1 --run --quiet --level=raid1 --raid-devices=3 --metadata=1.2 --bitmap=none \
	--assume-clean "$d0" "$d1" "$d2" || { echo "mdadm --create md1 failed"; exit 1; }
mdb_check "md1 appears" within 5 eval 'mdb_array_prop md1 Level >/dev/null 2>&1'
echo check >/sys/block/md1/md/sync_action
total=$(($(md_attr md1 component_size) * 2))
mdb_check "a raid1 check runs past 30 %" within 60 past md1 $((total * 3 / 10)) || explain
mdadm /dev/md1 --fail "$d2" >/dev/null 2>&1
mdb_check "a member fails: the check waits (paused by the service, or stopped by md and kept)" \
	within 10 check_is md1 '.state == "paused" and (.why == "degraded" or .why == "rebuild")' || explain
mdb_check "the log says why" logged "md1: .* the array is degraded"
mdb_check "its report does not call it finished" within 5 logged "md1: check stopped: a member failed after"
mdadm /dev/md1 --remove "$d2" >/dev/null 2>&1
mdb_check "md1 is idle, the check not resumed while degraded" eval 'sleep 3; action_is md1 idle'
pos=$(check_prop md1 .position)
vm_log "degraded: the check waits at sector $pos"
mdb_check "not at the start" [ "$pos" -gt 0 ]
mdadm /dev/md1 --add "$d3" >/dev/null 2>&1
mdb_check "the recovery onto the added disk runs" within 10 action_is md1 recover || explain
mdb_check "while it runs the check waits for it" within 5 check_is md1 '.why == "rebuild"'
mdb_check "the recovery ends and the check resumes" within 120 action_is md1 check || explain
first=$(done_sectors md1)
mdb_check "from where it stopped ($pos), not from 0 (first read $first)" from_at_least "$first" "$pos"
mdb_check "and runs to its end" vm_wait_for 120 action_is md1 idle

mdb_finish
