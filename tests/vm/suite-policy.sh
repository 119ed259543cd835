#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/real-kernel policy: 6 disks of 96 MiB,
# each bounded to 4 MB/s, so a recovery lasts about 25 s): mdboostd with
# its defaults on a private system bus, woken by the real md driver.
#   - which of md's files wake a poll() reader on which event, printed for
#     docs/mdboostd.md and checked where the service relies on it;
#   - idle, the service does not wake at all (its context switches over
#     20 s), yet sees an operation start at once;
#   - a recovery that mdadm --add starts on a raid5 (no redundancy left
#     until it ends: escalated, max) is boosted by policy while the probe
#     still waits, and restored byte for byte when it ends; a check is not
#     boosted by the rebuild policy;
#   - its report's duration, size and rate agree with what the test saw of
#     the kernel;
#   - a raid6 recovery with one member missing is boosted by the rule
#     (fast), escalates to max when a second member fails, and the next
#     recovery, with redundancy back, is boosted by the rule again;
#   - OperationEnded says finished, interrupted (mdadm --fail of the disk
#     being rebuilt), member-failed and frozen as md left them.
set -u

# shellcheck source=tests/vm/service-suite.sh
. "$(dirname "$0")/service-suite.sh"

probe=$(cd "$(dirname "$0")/../.." && pwd)/build/tests/vm/md-notify-probe

tunables_of() {
	local md=$1 f
	for f in sync_speed_min sync_speed_max sync_max stripe_cache_size; do
		[ -e "/sys/block/$md/md/$f" ] && printf '%s=%s\n' "$f" "$(cat "/sys/block/$md/md/$f")"
	done
	printf 'speed_limit_min=%s\n' "$(cat /proc/sys/dev/raid/speed_limit_min)"
	printf 'speed_limit_max=%s\n' "$(cat /proc/sys/dev/raid/speed_limit_max)"
}

# The array's object is on the bus (a get-property of its own, no pipe to hide the failure).
has_array() { mdb_busctl root get-property "$MDB_BUS_NAME" "$MDB_OBJ/arrays/$1" "$MDB_ARRAY" Level >/dev/null 2>&1; }
boosted() { [ "$(mdb_array_prop "$1" Boosted)" = true ]; }
not_boosted() { [ "$(mdb_array_prop "$1" Boosted)" = false ]; }
profile_is() { [ "$(mdb_array_prop "$1" Profile)" = "\"$2\"" ]; }
idle() { [ "$(md_attr "$1" sync_action)" = idle ]; }
ended() { # ended MD ACTION OUTCOME: an OperationEnded with both was sent
	grep -A2 "path=$MDB_OBJ/arrays/$1; interface=org.mdboost.MdBoost1.Array; member=OperationEnded" \
		"$MDB_TMP/signals.log" | tr -d '\n' | grep -q "string \"$2\".*string \"$3\""
}

# notified EVENT ACTION FILE...: runs ACTION while md-notify-probe waits on
# FILEs for 4 s, then prints which fired; the counts are left in $MDB_TMP/probe.
notified() {
	local event=$1 action=$2
	shift 2
	"$probe" 4000 "$@" >"$MDB_TMP/probe" &
	local pid=$!
	within 5 grep -q armed "$MDB_TMP/probe"
	eval "$action"
	wait "$pid"
	vm_log "notified on $event: $(grep -v armed "$MDB_TMP/probe" | sed 's,/sys/block/,,' | tr '\n' ' ')"
}
fired() { awk -v f="$1" '$1 == f && $2 > 0 { ok = 1 } END { exit !ok }' "$MDB_TMP/probe"; }

# shellcheck disable=SC2153 # set by mdb_start_service
switches() { awk '/^(non)?voluntary_ctxt_switches/ { n += $2 } END { print n }' "/proc/$MDB_SERVICE_PID/status"; }

mdb_init
# shellcheck disable=SC2034 # read by service-lib.sh
MDB_ROOT=/
# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; md_stop_all; (exit $rc); mdb_cleanup' EXIT

d0=$(vm_disk 0) d1=$(vm_disk 1) d2=$(vm_disk 2) d3=$(vm_disk 3) d4=$(vm_disk 4) d5=$(vm_disk 5)
mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=3 --chunk=64 \
	--metadata=1.2 --bitmap=none --assume-clean "$d0" "$d1" "$d2" || { echo "mdadm --create md0 failed"; exit 1; }
md0_files="/proc/mdstat /sys/block/md0/md/sync_action /sys/block/md0/md/degraded /sys/block/md0/md/sync_completed /sys/block/md0/md/array_state"

mdb_start_bus
mdb_start_polkit
mdb_start_service
mdb_watch_signals

mdb_call root SetPolicy sss "" rebuild fast
mdb_expect_ok "SetPolicy: boost every rebuild with fast"

# ---- idle, it sleeps -----------------------------------------------------------

sleep 3
s0=$(switches)
sleep 20
s1=$(switches)
mdb_check "idle, the service does not wake in 20 s (context switches $s0 -> $s1)" [ "$s0" = "$s1" ]

# ---- md's notifications, and a check the rebuild policy leaves alone --------------

# shellcheck disable=SC2086 # one path per word
notified "a check started" 'echo check >/sys/block/md0/md/sync_action' $md0_files
mdb_check "a check starting wakes /proc/mdstat readers" fired /proc/mdstat
mdb_check "and md/sync_action readers" fired /sys/block/md0/md/sync_action
mdb_check "the service saw the check start" within 2 grep -q "md0: check started" "$MDB_TMP/service.log"
sleep 2
mdb_check "the rebuild policy does not boost a check" not_boosted md0

# shellcheck disable=SC2086
notified "a check frozen" 'echo frozen >/sys/block/md0/md/sync_action' $md0_files
mdb_check "freezing wakes md/sync_action readers" fired /sys/block/md0/md/sync_action
mdb_check "frozen: OperationEnded check frozen" within 3 ended md0 check frozen
echo idle >/sys/block/md0/md/sync_action
vm_wait_for 10 idle md0
echo check >/sys/block/md0/md/sync_action
mdb_check "a check again" within 3 eval '[ "$(grep -c "md0: check started" "$MDB_TMP/service.log")" -ge 2 ]'
# shellcheck disable=SC2086
notified "a check stopped" 'echo idle >/sys/block/md0/md/sync_action' $md0_files
mdb_check "stopping wakes md/sync_action readers" fired /sys/block/md0/md/sync_action
mdb_check "stopped half-way: OperationEnded check interrupted" within 3 ended md0 check interrupted

# ---- a recovery started by mdadm --add, boosted by policy -------------------------

# shellcheck disable=SC2086
notified "a member failed" 'mdadm /dev/md0 --fail "$d2" >/dev/null 2>&1' $md0_files
mdb_check "a failed member wakes /proc/mdstat readers" fired /proc/mdstat
mdb_check "and md/degraded readers" fired /sys/block/md0/md/degraded
mdb_check "the service saw md0 lose its redundancy" \
	within 2 grep -q "md0 has no redundancy left" "$MDB_TMP/service.log"
mdadm /dev/md0 --remove "$d2" >/dev/null 2>&1
mdadm --zero-superblock "$d2" >/dev/null 2>&1
vm_wait_for 10 idle md0
tunables_of md0 >"$MDB_TMP/tun-before"

t_start=$(date +%s)
# shellcheck disable=SC2086
notified "mdadm --add (a recovery starts)" 'mdadm /dev/md0 --add "$d2" >/dev/null 2>&1' $md0_files
mdb_check "an added member starting a recovery wakes /proc/mdstat readers" fired /proc/mdstat
mdb_check "and md/sync_action readers" fired /sys/block/md0/md/sync_action
mdb_check "the policy boosted the recovery (within the probe's 4 s)" boosted md0
# A raid5 rebuilding a member has no redundancy left until it is in sync: escalated.
mdb_check "the audit names the policy" grep -q "max by mdboostd (policy_escalate = max)" "$MDB_TMP/service.log"
mdb_check "with max" profile_is md0 max
mdb_check "the recovery ends and the boost is restored" within 120 not_boosted md0 || explain
t_end=$(date +%s)
vm_wait_for 10 idle md0
if tunables_of md0 | cmp -s - "$MDB_TMP/tun-before"; then
	mdb_pass "every tunable reads as before the recovery"
else
	mdb_fail "tunables differ: $(tunables_of md0 | diff "$MDB_TMP/tun-before" - | grep '^[<>]' | tr '\n' ' ')"
fi
mdb_check "OperationEnded recover finished" within 3 ended md0 recover finished

# The report against the kernel: the member's whole size, the time the test saw it take.
size=$(md_attr md0 component_size)
took=$((t_end - t_start))
mdb_call root GetReports s md0
mdb_expect_ok "GetReports md0"
# shellcheck disable=SC2153 # set by mdb_call
rep() { printf '%s' "$MDB_OUT" | jq -e ".data[0][0] | $1" >/dev/null; }
vm_log "report: $(printf '%s' "$MDB_OUT" | jq -r '.data[0][0].summary.data')"
mdb_check "the report: recover finished onto ${d2#/dev/}, escalated by policy, restored automatically" \
	rep ".action.data == \"recover\" and .outcome.data == \"finished\" and .onto.data == \"${d2#/dev/}\" and
		.boost.data == \"max\" and .policy.data == \"escalate\" and .restored.data == \"automatically\""
mdb_check "it moved the member's size, $size KiB (within 1 %)" \
	rep ".kib.data >= $size * 0.99 and .kib.data <= $size * 1.01"
mdb_check "it took what the test saw, $took s (within 3 s)" \
	rep ".duration.data >= $took - 3 and .duration.data <= $took + 3"
mdb_check "its average rate is the size over that time (within 15 %), below its peak" \
	rep ".average_kibs.data >= $size / ($took + 3) * 0.85 and .average_kibs.data <= $size / ([$took - 3, 1] | max) * 1.15 and .peak_kibs.data >= .average_kibs.data * 0.9"
mdb_check "the whole of it without redundancy" rep ".exposed.data >= .duration.data - 2"

# An array coming and going wakes /proc/mdstat readers, and the service: idle,
# it reads only when md says something changed (no call to it meanwhile).
mdadm --stop /dev/md0 >/dev/null 2>&1
mdb_check "a stopped array: the service drops it by itself (InterfacesRemoved)" \
	within 5 grep -q "member=InterfacesRemoved" "$MDB_TMP/signals.log"
notified "an array assembled" 'mdadm --assemble /dev/md0 "$d0" "$d1" "$d2" >/dev/null 2>&1' /proc/mdstat
mdb_check "assembling an array wakes /proc/mdstat readers" fired /proc/mdstat
mdb_check "the service publishes it by itself at once (InterfacesAdded)" \
	within 2 eval '[ "$(grep -c "member=InterfacesAdded" "$MDB_TMP/signals.log")" -ge 1 ]'
mdb_check "md0 is on the bus" has_array md0
notified "an array stopped" 'mdadm --stop /dev/md0 >/dev/null 2>&1' /proc/mdstat
mdb_check "stopping an array wakes /proc/mdstat readers" fired /proc/mdstat
mdb_check "the service drops it by itself at once (InterfacesRemoved)" \
	within 2 eval '[ "$(grep -c "member=InterfacesRemoved" "$MDB_TMP/signals.log")" -ge 2 ]'
mdb_check "md0 is gone from the bus" eval '! has_array md0'
md_stop_all

# ---- raid6: escalation without redundancy, the rule again with it -----------------

mdadm --create /dev/md1 --run --quiet --level=raid6 --raid-devices=4 --chunk=64 \
	--metadata=1.2 --bitmap=none --assume-clean "$d0" "$d1" "$d2" "$d3" || { echo "mdadm --create md1 failed"; exit 1; }
mdb_check "md1 appears" within 5 has_array md1
mdadm /dev/md1 --fail "$d3" --remove "$d3" >/dev/null 2>&1
mdadm /dev/md1 --add "$d4" >/dev/null 2>&1
vm_wait_for 10 md_running md1
mdb_check "a raid6 recovery with one member missing: boosted by the rule (fast)" \
	within 3 eval 'boosted md1 && profile_is md1 fast'
# A second member fails: md stops the recovery and starts it again, now with no redundancy left.
# (It stays in the array as faulty until the recovery ends: mdadm --remove freezes md for a moment.)
mdadm /dev/md1 --fail "$d2" >/dev/null 2>&1
mdb_check "the recovery md stopped: OperationEnded recover member-failed" within 5 ended md1 recover member-failed
mdb_check "no redundancy left: escalated to max" within 5 profile_is md1 max
mdb_check "the log says why" grep -q "md1: it has no redundancy left; boosting it with max" "$MDB_TMP/service.log"
mdb_check "the escalated recovery ends" within 120 ended md1 recover finished
mdb_check "and its boost is restored" within 10 not_boosted md1
# Redundancy back (one member missing): the next recovery gets the rule again.
mdadm /dev/md1 --remove "$d2" >/dev/null 2>&1
mdadm --zero-superblock "$d2" >/dev/null 2>&1
mdadm /dev/md1 --add "$d5" >/dev/null 2>&1
mdb_check "the next recovery (one member still missing) is boosted by the rule again" \
	within 10 eval 'boosted md1 && profile_is md1 fast'
# Failing the member being rebuilt: md stops the recovery; the array is no worse off than when it started.
mdadm /dev/md1 --fail "$d5" >/dev/null 2>&1
mdb_check "mdadm --fail of the disk being rebuilt: OperationEnded recover interrupted" \
	within 5 ended md1 recover interrupted
mdb_check "and its boost is restored" within 10 not_boosted md1

mdb_finish
