#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/real-kernel service: 6 disks of 256 MiB,
# each bounded to 4 MB/s, which keeps every recovery below running long
# enough for its checks and short enough for its waits; tests/vm/real-kernel
# has the numbers): mdboostd on a private system bus with Debian's polkitd
# (tests/integration/service-lib.sh), writing the real md driver's files:
#   - Boost of a recovering raid5 shows in the kernel's own files, and the
#     rebuild runs faster than the ceiling it had;
#   - Restore brings back every original byte for byte;
#   - fast lowers its floor to 80 % of md's sync_speed under it (after 10 s
#     here, fast_floor_fit_after_ms); while a reader uses the array the
#     governor holds the rebuild back to md's original floor (both limits)
#     to learn what the reader gets alone, from md's own counters, then
#     steers both limits as one rate, paced between its steps from md's
#     position in /proc/mdstat; the ceiling lifts 5 s after the
#     reader stops (fast_ceiling_quiet_ms); the boost still restores by itself, byte
#     for byte, when the recovery completes;
#   - kill -9 after a boost, then a restart, restores;
#   - persistent settings survive a restart of the service and a stop and
#     assembly of the array (written again within seconds), and go back to
#     md's values when taken away;
#   - the kernel's refusals come back as the documented D-Bus errors with
#     nothing left half-applied: out-of-range values (InvalidArgument), a
#     stripe cache on raid1 (InvalidArgument), sync_max lowered while an
#     operation runs (EBUSY, Busy).
set -u

# shellcheck source=tests/vm/service-suite.sh
. "$(dirname "$0")/service-suite.sh"

# The tunables a boost may touch, as the kernel prints them: the byte-for-byte
# picture of an array that Restore must bring back.
tunables_of() {
	local md=$1 f
	for f in sync_speed_min sync_speed_max sync_min sync_max stripe_cache_size group_thread_cnt; do
		[ -e "/sys/block/$md/md/$f" ] && printf '%s=%s\n' "$f" "$(cat "/sys/block/$md/md/$f")"
	done
	printf 'read_ahead_kb=%s\n' "$(cat "/sys/block/$md/queue/read_ahead_kb")"
	printf 'speed_limit_min=%s\n' "$(cat /proc/sys/dev/raid/speed_limit_min)"
	printf 'speed_limit_max=%s\n' "$(cat /proc/sys/dev/raid/speed_limit_max)"
}

# A raid4/5/6 array's stripe_cache_size and group_thread_cnt come and go with
# its personality; a picture is taken once they are there.
snap() {
	local md=$1
	if [ "$(md_attr "$md" level)" = raid5 ] && [ ! -e "/sys/block/$md/md/stripe_cache_size" ]; then
		# shellcheck disable=SC2012 # a listing to read, not to parse
		vm_log "$md has no stripe_cache_size yet: $(ls /sys/block/"$md"/md | tr '\n' ' ')"
		vm_wait_for 20 test -e "/sys/block/$md/md/stripe_cache_size"
	fi
	tunables_of "$md" >"$MDB_TMP/tun-$2"
}
same_as() { tunables_of "$1" | cmp -s - "$MDB_TMP/tun-$2"; }
expect_same() {
	if same_as "$1" "$2"; then
		mdb_pass "$3"
	else
		mdb_fail "$3: $(tunables_of "$1" | diff "$MDB_TMP/tun-$2" - | grep '^[<>]' | tr '\n' ' ')"
	fi
}

boosted() { [ "$(mdb_array_prop "$1" Boosted)" = true ]; }
not_boosted() { [ "$(mdb_array_prop "$1" Boosted)" = false ]; }

# The new value the last Boost reply gave for a tunable.
change_new() { mdb_changes | awk -F'\t' -v t="$1" '$1 == t { print $3 }'; }

mdstat_pos() { mdstat_progress "$1" | awk '{ print $2 }'; }

# start_recovery MD DISK [CEILING]: a recovery of MD onto DISK under the global
# ceiling CEILING (KiB/s; default 2000, a crawl well below the disks' bound).
start_recovery() {
	local md=$1 disk=$2
	echo "${3:-2000}" >/proc/sys/dev/raid/speed_limit_max
	mdadm "/dev/$md" --fail "$disk" --remove "$disk" >/dev/null 2>&1
	mdadm --zero-superblock "$disk" >/dev/null 2>&1
	mdadm "/dev/$md" --add "$disk" >/dev/null 2>&1
	vm_wait_for 10 md_running "$md"
}

mdb_init
# shellcheck disable=SC2034 # read by service-lib.sh
MDB_ROOT=/
# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; md_stop_all; (exit $rc); mdb_cleanup' EXIT

raid5=$(vm_disks 0 4)
# shellcheck disable=SC2086 # one /dev path per word
mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=4 --chunk=64 \
	--metadata=1.2 --bitmap=none --assume-clean $raid5 || { echo "mdadm --create md0 failed"; exit 1; }
# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
mdadm --create /dev/md1 --run --quiet --level=raid1 --raid-devices=2 \
	--metadata=1.2 --bitmap=none --assume-clean $(vm_disks 4 2) || { echo "mdadm --create md1 failed"; exit 1; }

# The fit's wait and the users' quiet span shortened from md's 30 s so both
# fall inside the recovery.
conf=$MDB_TMP/mdboostd.conf
printf 'fast_floor_fit_after_ms = 10000\nfast_ceiling_quiet_ms = 5000\nfast_governor_learn_ms = 3000\nfast_governor_step_ms = 2000\n' >"$conf"

mdb_start_bus
mdb_start_polkit
mdb_start_service --config "$conf"

# ---- Boost and Restore of a recovering raid5 -------------------------------

start_recovery md0 "$(vm_disk 3)"
mdb_check "md0 recovers onto $(vm_disk 3)" [ "$(md_attr md0 sync_action)" = recover ]
snap md0 before

mdb_call root Boost 'ssa{sv}' md0 fast 0
mdb_expect_ok "Boost fast of the recovering md0"
floor=$(change_new sync_speed_min)
mdb_check "the reply raises sync_speed_min (to ${floor:-nothing})" [ -n "$floor" ]
vm_expect "the kernel reads sync_speed_min '$floor (local)'" "$floor (local)" "$(md_attr md0 sync_speed_min)"
ceiling=$(md_attr md0 sync_speed_max)
mdb_check "the kernel's sync_speed_max ($ceiling) is local and not below the floor" \
	awk -v c="$ceiling" -v f="$floor" 'BEGIN { exit !(c ~ /\(local\)$/ && c + 0 >= f + 0) }'
cache=$(change_new stripe_cache_size)
vm_expect "the kernel reads stripe_cache_size ${cache:-?}" "${cache:-?}" "$(md_attr md0 stripe_cache_size)"
mdb_check "md0 reads Boosted" boosted md0

# At the 2000 KiB/s ceiling the recovery moves 6000 KiB in 3 s; boosted it must beat that.
p0=$(mdstat_pos md0)
sleep 3
p1=$(mdstat_pos md0)
mdb_check "the boosted recovery moves faster than the old ceiling (${p0:-?} -> ${p1:-?} KiB in 3 s)" \
	test -n "$p0" -a -n "$p1" -a "${p1:-0}" -gt $((${p0:-0} + 6000))

mdb_call root Restore 'sa{sv}' md0 0
mdb_expect_ok "Restore of md0"
expect_same md0 before "Restore brings back every original byte for byte"
mdb_check "md0 is no longer boosted" not_boosted md0
mdb_check "the recovery goes on after Restore" [ "$(md_attr md0 sync_action)" = recover ]

# ---- a boost ends by itself with the recovery ------------------------------

mdb_call root Boost 'ssa{sv}' md0 fast 0
mdb_expect_ok "Boost fast again"
# "N (local)" below the floor the boost wrote.
fitted() { local v; v=$(md_attr md0 sync_speed_min); [[ $v == *" (local)" ]] && [ "${v%% *}" -lt "$floor" ]; }
vm_wait_for 30 fitted
fitted_floor=$(md_attr md0 sync_speed_min)
mdb_check "the service lowers the floor from $floor to 80 % of md's sync_speed: '$fitted_floor'" fitted
mdb_check "its log gives the rate it read and the floor it wrote" \
	grep -q "md0: the rebuild ran at [0-9]* KiB/s under the floor; lowering it from $floor (local) to ${fitted_floor%% *} KiB/s" \
	"$MDB_TMP/service.log"
# A user of the array: md counts its reads in sys/block/md0/stat.
( while :; do dd if=/dev/md0 of=/dev/null bs=1M count=64 iflag=direct status=none || exit; done ) &
reader=$!
learning() { [ "$(md_attr md0 sync_speed_min)" = "1000 (local)" ] && [ "$(md_attr md0 sync_speed_max)" = "1000 (local)" ]; }
vm_wait_for 15 learning
mdb_check "with a reader on md0 the rebuild is held back to md's original floor, both limits: '$(md_attr md0 sync_speed_min)', '$(md_attr md0 sync_speed_max)'" \
	grep -q "md0: the array's users are busy; the rebuild is held back to 1000 KiB/s for 3 to 6 s" "$MDB_TMP/service.log"
steering() { mdb_array_prop md0 Governor | jq -e '.state.data == "steering" and .baseline.data > 1024' >/dev/null; }
vm_wait_for 20 steering
mdb_check "then it steers, having learnt what the reader gets alone: $(mdb_array_prop md0 Governor | jq -r '.why.data')" \
	steering
# Pacing writes the floor and then the ceiling every poll or so: two reads
# can fall between those writes, so they are read again until they agree.
one_rate() { [ "$(md_attr md0 sync_speed_min)" = "$(md_attr md0 sync_speed_max)" ]; }
mdb_check "floor and ceiling are one rate" vm_wait_for 5 one_rate
# Between its steps the governor paces: floor and ceiling one local value
# within the band the journal holds, not the rate itself, and md takes it.
# The value changes poll by poll: the one seen is kept for the message.
paced_seen=
paced() {
	local v rate low high
	v=$(md_attr md0 sync_speed_min)
	rate=$(jq -r '.boosts[].written.sync_speed_min' "$MDB_STATE/boosts.json")
	read -r low high <<<"$(jq -r '.boosts[] | "\(.paced.low) \(.paced.high)"' "$MDB_STATE/boosts.json")"
	[ "$v" = "$(md_attr md0 sync_speed_max)" ] && [[ $v == *" (local)" ]] && [ "$v" != "$rate" ] &&
		[ "${v%% *}" -ge "$low" ] && [ "${v%% *}" -le "$high" ] || return 1
	paced_seen="'$v' within [$low, $high] around $rate"
}
rc=0
vm_wait_for 15 paced || rc=$?
mdb_check "and paces them from md's position between its steps: ${paced_seen:-never}" [ "$rc" -eq 0 ]
pkill -P "$reader" dd; kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
lifted() { [ "$(md_attr md0 sync_speed_max)" = "$ceiling" ]; }
vm_wait_for 20 lifted
mdb_check "5 s after the reader stops the ceiling is back to $ceiling" lifted
mdb_check "the boosted recovery completes" vm_wait_for 180 md_idle md0
mdb_check "the service restores by itself when the recovery completes" vm_wait_for 30 same_as md0 before
mdb_check "md0 is no longer boosted after the recovery" vm_wait_for 10 not_boosted md0

# ---- kill -9 after a boost, then a restart, restores -------------------------

start_recovery md0 "$(vm_disk 2)"
snap md0 before
mdb_call root Boost 'ssa{sv}' md0 max 0
mdb_expect_ok "Boost max of a new recovery"
snap md0 boosted
mdb_check "Boost max changed the kernel's files" eval '! same_as md0 before'
mdb_stop_service KILL
mdb_check "kill -9 leaves the boost in the kernel" same_as md0 boosted
mdb_start_service --config "$conf"
mdb_check "the restarted service restores md0 byte for byte" vm_wait_for 60 same_as md0 before
mdb_check "md0 is not boosted after the restart" vm_wait_for 10 not_boosted md0
# Failing the disk being rebuilt ends the recovery at once (md0 degraded and
# idle); the next section rebuilds onto it again, so no minute is spent
# waiting for this recovery to finish.
mdadm /dev/md0 --fail "$(vm_disk 2)" --remove "$(vm_disk 2)" >/dev/null 2>&1
mdb_check "failing $(vm_disk 2) ends the recovery" vm_wait_for 30 md_idle md0

# ---- refusals ---------------------------------------------------------------

echo 2000 >/proc/sys/dev/raid/speed_limit_max
snap md0 before
snap md1 before-md1
mdb_call root Boost 'ssa{sv}' md0 fast 1 sync_speed_min u 0
mdb_expect_error InvalidArgument "a floor of 0 KiB/s (the kernel's EINVAL) is refused with InvalidArgument"
expect_same md0 before "nothing was written for the refused floor"
mdb_call root Boost 'ssa{sv}' md0 fast 1 stripe_cache_size u 16
mdb_expect_error InvalidArgument "stripe_cache_size 16 (the kernel's EINVAL) is refused with InvalidArgument"
expect_same md0 before "nothing was written for the refused stripe cache"
mdb_call root Boost 'ssa{sv}' md0 fast 1 stripe_cache_size u 32769
mdb_expect_error InvalidArgument "stripe_cache_size 32769 (the kernel's EINVAL) is refused with InvalidArgument"
expect_same md0 before "nothing was written for the oversized stripe cache"
mdb_call root Boost 'ssa{sv}' md1 fast 1 stripe_cache_size u 4096
mdb_expect_error InvalidArgument "a stripe cache on raid1 md1 is refused with InvalidArgument"
expect_same md1 before-md1 "nothing was written to md1"
mdb_check "md1 is not boosted" not_boosted md1

# An admin's numeric sync_max holds a recovery at that sector; Boost lifts it
# to "max". Putting the number back while the recovery runs lowers sync_max
# under a running operation, which the kernel refuses with EBUSY. (mdadm
# --grow sets sync_max to "max" when it starts a reshape, so a reshape never
# carries an admin's number into a boost; the kernel's rule is the same for
# every running operation.) The boost's own ceiling is kept low so that the
# recovery is still running when Restore comes. Under the kernel's default
# global ceiling the recovery runs at the disks' bound (3906 KiB/s) before
# and after the boost: it reaches the admin's sector in about 8 s and its
# last 228352 KiB take about 58 s after Restore.
stop_at=65536
mdb_check "an admin's sync_max $stop_at is accepted while md0 is idle (degraded)" md_set md0 sync_max "$stop_at"
start_recovery md0 "$(vm_disk 2)" 200000
mdb_check "the recovery holds at the admin's sync_max" vm_wait_for 60 eval '[ "$(md_sync_done md0)" -ge "$stop_at" ] 2>/dev/null'
snap md0 before
mdb_call root Boost 'ssa{sv}' md0 fast 2 sync_speed_min u 3000 sync_speed_max u 4000
mdb_expect_ok "Boost fast (3000..4000 KiB/s) of the held recovery"
vm_expect "Boost lifts sync_max to max" max "$(md_attr md0 sync_max)"
snap md0 boosted
mdb_call root Restore 'sa{sv}' md0 0
mdb_expect_error Busy "Restore of sync_max under the running recovery answers Busy"
vm_expect "the recovery was still running" recover "$(md_attr md0 sync_action)"
# docs/mdboostd.md: a write the kernel refuses during a restore is logged,
# the other tunables are still restored, and the refused one stays in the
# journal (the array stays Boosted) until a later restore succeeds.
tunables_of md0 | grep -v '^sync_max=' >"$MDB_TMP/tun-after-busy"
grep -v '^sync_max=' "$MDB_TMP/tun-before" | cmp -s - "$MDB_TMP/tun-after-busy" &&
	mdb_pass "after Busy every other tunable is back byte for byte" ||
	mdb_fail "after Busy every other tunable is back byte for byte: $(diff "$MDB_TMP/tun-before" "$MDB_TMP/tun-after-busy" | grep '^[<>]' | tr '\n' ' ')"
vm_expect "after Busy sync_max still reads as the boost left it" max "$(md_attr md0 sync_max)"
mdb_check "md0 stays Boosted, holding sync_max's original (Boosted $(mdb_array_prop md0 Boosted), Originals $(mdb_array_prop md0 Originals))" boosted md0
mdb_check "the recovery completes" vm_wait_for 300 md_idle md0
# A completed operation makes the kernel forget sync_max ("max" again); the
# admin's number held that recovery and would stop the next operation at the
# same sector, so the service leaves it as the kernel left it.
mdb_check "md0 is not boosted once the recovery is over" vm_wait_for 90 not_boosted md0
vm_expect "sync_max reads max, as the kernel leaves it after a completed operation" max "$(md_attr md0 sync_max)"
tunables_of md0 | grep -v '^sync_max=' >"$MDB_TMP/tun-after-end"
grep -v '^sync_max=' "$MDB_TMP/tun-before" | cmp -s - "$MDB_TMP/tun-after-end" &&
	mdb_pass "every other tunable is back byte for byte" ||
	mdb_fail "every other tunable is back byte for byte: $(grep -v '^sync_max=' "$MDB_TMP/tun-before" | diff - "$MDB_TMP/tun-after-end" | grep '^[<>]' | tr '\n' ' ')"

# ---- I/O accounting off on an md device --------------------------------------

# md accounts a user's bio on the md device only while queue/iostats is 1:
# at 0 its stat stands still (6.1 and 7.3 alike). md's own throttle reads
# that count from 6.16, the kernels with md/sync_io_depth; before, it reads
# the members'. docs/md-model.md has the measurements.
want=uncounted
[ -e /sys/block/md1/md/sync_io_depth ] && want=unseen
user_io_is() { [ "$(mdb_array_prop md1 UserIo)" = "\"$1\"" ]; }
mdb_check "md1 counts its users: UserIo is counted" user_io_is counted
mdb_check "the kernel takes 0 in md1's queue/iostats" eval 'echo 0 >/sys/block/md1/queue/iostats'
user_sectors() { awk '{ print $3 + $7 }' /sys/block/md1/stat; }
s0=$(user_sectors)
dd if=/dev/md1 of=/dev/null bs=1M count=8 iflag=direct status=none
vm_expect "with it at 0, a user's 8 MiB leave md1's stat as it was" "$s0" "$(user_sectors)"
mdb_check "UserIo reads $want on $(uname -r)" vm_wait_for 15 user_io_is "$want"
mdb_check "the log says so with the command that turns it back on" \
	grep -q "md1: I/O accounting is off (queue/iostats is 0).*echo 1 > /sys/block/md1/queue/iostats" "$MDB_TMP/service.log"
echo 1 >/sys/block/md1/queue/iostats
mdb_check "back at 1: UserIo is counted again" vm_wait_for 15 user_io_is counted
s0=$(user_sectors)
dd if=/dev/md1 of=/dev/null bs=1M count=8 iflag=direct status=none
mdb_check "and md1's stat counts a user's reads again" [ "$(user_sectors)" -ge $((s0 + 16384)) ]

# ---- persistent settings: a restart, a stop and assembly, their removal ----------

ra_path=/sys/block/md1/queue/read_ahead_kb
ra0=$(cat "$ra_path")
floor0=$(md_attr md1 sync_speed_min)
mdb_call root SetSettings 'sa{sv}' md1 2 read_ahead_kb u 2048 sync_speed_min u 5000
mdb_expect_ok "SetSettings md1 read_ahead_kb 2048, sync_speed_min 5000"
settings_in_place() { [ "$(cat "$ra_path")" = 2048 ] && [ "$(md_attr md1 sync_speed_min)" = "5000 (local)" ]; }
mdb_check "the kernel has them (read_ahead_kb was $ra0, the floor $floor0)" settings_in_place
mdb_stop_service TERM
mdb_start_service --config "$conf"
sleep 2
mdb_check "a restart of the service keeps them" settings_in_place
mdadm --stop /dev/md1 >/dev/null 2>&1
# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
mdadm --assemble /dev/md1 $(vm_disks 4 2) >/dev/null 2>&1
mdb_check "md1 is assembled again" vm_wait_for 15 test -e /sys/block/md1/md/sync_speed_min
mdb_check "and gets its settings again from the service within seconds" vm_wait_for 20 settings_in_place
mdb_check "the log says so" grep -q "md1: read_ahead_kb $ra0 -> 2048, its persistent setting" "$MDB_TMP/service.log"
mdb_call root SetSettings 'sa{sv}' md1 0
mdb_expect_ok "SetSettings md1 with nothing"
vm_expect "read_ahead_kb is back to $ra0" "$ra0" "$(cat "$ra_path")"
vm_expect "the floor is back to $floor0" "$floor0" "$(md_attr md1 sync_speed_min)"

mdb_finish
