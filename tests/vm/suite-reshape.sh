#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/real-kernel reshape: 4 disks of 96 MiB):
# mdboostd on the real md driver while mdadm reshapes a raid5 in place with a
# backup file. Metadata 0.90 has no room before or after the data, so a
# chunk change cannot move the data offset and goes through mdadm's backup:
# mdadm suspends the window it is copying and moves sync_max itself.
#   - Boost fast and max during that reshape succeed and never write
#     sync_max (no audit line names it, the journal holds none); whatever
#     sync_max mdadm sets is left to it; the reshape completes with the new
#     chunk; the data written before it reads back with the same checksum;
#     the boost ends with the reshape.
# Then a reshape left at a numeric sync_max with nothing driving it. A killed
# mdadm 4.2 leaves sync_max at max (the reshape simply runs on), so the test
# leaves it as a killed driver could: md0 again with metadata 1.2 and room
# before its data, a chunk change that moves the data offset (no backup),
# frozen, its mdadm killed, sync_max set a little ahead, unfrozen.
#   - the reshape runs to sync_max and waits there; Stuck says so with the
#     command that resumes it, `echo max > /sys/block/md0/md/sync_max` (for
#     a reshape that needs no backup `mdadm --grow --continue` returns at
#     once and lifts nothing), and the log says it once;
#   - that exact command finishes the reshape, the data reads back the same,
#     and Stuck clears.
set -u

# shellcheck source=tests/vm/service-suite.sh
. "$(dirname "$0")/service-suite.sh"

# mdadm would ask systemd to run its reshape monitor; there is none here.
export MDADM_NO_SYSTEMCTL=1

not_boosted() { [ "$(mdb_array_prop md0 Boosted)" = false ]; }
reshaping() { [ "$(md_attr md0 sync_action)" = reshape ]; }
reshape_done() { md_idle md0 && [ "$(md_attr md0 reshape_position)" = none ]; }
data_sum() { head -c "$DATA_BYTES" /dev/md0 | sha256sum | cut -d' ' -f1; }
# write_data BYTES: random data at the start of md0; its checksum in $want.
write_data() {
	DATA_BYTES=$1
	head -c "$DATA_BYTES" /dev/urandom >"$MDB_TMP/data"
	dd if="$MDB_TMP/data" of=/dev/md0 bs=1M oflag=direct status=none
	sync
	want=$(sha256sum <"$MDB_TMP/data" | cut -d' ' -f1)
	rm -f "$MDB_TMP/data"
}

# Every distinct value sync_max takes over SECONDS, one a line.
sync_max_values() {
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		md_attr md0 sync_max
		sleep 0.2
	done | awk '!seen[$0]++'
}

mdb_init
# shellcheck disable=SC2034 # read by service-lib.sh
MDB_ROOT=/
# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; pkill -x mdadm 2>/dev/null; md_stop_all; (exit $rc); mdb_cleanup' EXIT

# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=4 --chunk=64 \
	--metadata=0.90 --bitmap=none --assume-clean $(vm_disks 0 4) ||
	{ echo "mdadm --create md0 failed"; exit 1; }
mdb_check "md0 keeps its data at sector 0 (no room to move it)" [ "$(cat /sys/block/md0/md/dev-*/offset | sort -u)" = 0 ]
mdb_check "md0's metadata is native 0.90" [ "$(md_attr md0 metadata_version)" = 0.90 ]

# Known data on the whole first half of the array.
write_data $((96 * 1024 * 1024))
mdb_check "the data reads back before any reshape" [ "$(data_sum)" = "$want" ]

mdb_start_bus
mdb_start_polkit
mdb_start_service

# ---- a reshape through mdadm's backup, boosted -------------------------------

md_slow 2000
ceiling=$(md_attr md0 sync_speed_max)
mdadm --grow /dev/md0 --chunk=32 --backup-file=/root/md0.backup >"$MDB_TMP/grow.log" 2>&1 ||
	{ cat "$MDB_TMP/grow.log"; }
mdb_check "mdadm --grow --chunk=32 with a backup file starts a reshape" vm_wait_for 30 reshaping
mdb_check "an mdadm runs beside it" pgrep -x mdadm
sync_max_values 2 >"$MDB_TMP/sync_max.seen" &
sampler=$!

mdb_call root Boost 'ssa{sv}' md0 fast 0
mdb_expect_ok "Boost fast of the reshape mdadm drives"
# mdadm 4.2 raises sync_speed_min itself for a reshape through its backup
# (and writes its number back as a local value after): the floor is mdadm's.
vm_log "sync_speed_min under mdadm: $(md_attr md0 sync_speed_min)"
mdb_check "the ceiling goes up" [ "$(md_attr md0 sync_speed_max)" != "$ceiling" ]
mdb_check "the reply writes no sync_max" eval '! mdb_changes | grep -q "^sync_max"'
mdb_call root Boost 'ssa{sv}' md0 max 0
mdb_expect_ok "Boost max of the same reshape"
mdb_check "max writes no sync_max either" eval '! mdb_changes | grep -q "^sync_max"'
wait "$sampler"
vm_log "sync_max while boosted: $(tr '\n' ' ' <"$MDB_TMP/sync_max.seen")"

mdb_check "the reshape completes" vm_wait_for 300 reshape_done
mdb_check "md0 has its new chunk" [ "$(md_attr md0 chunk_size)" = 32768 ]
mdb_check "the data written before the reshape reads back the same" [ "$(data_sum)" = "$want" ]
mdb_check "the boost ended with the reshape" vm_wait_for 30 not_boosted
vm_expect "the ceiling is back" "$ceiling" "$(md_attr md0 sync_speed_max)"
mdb_check "no audit line wrote sync_max" eval '! grep "audit:" "$MDB_TMP/service.log" | grep -q "sync_max ."'
mdb_check "the journal never held a sync_max" eval '! grep -q sync_max "$MDB_STATE/boosts.json"'
vm_log "sync_max after the reshape: $(md_attr md0 sync_max) (mdadm's)"

# ---- a reshape stuck at sync_max with nothing driving it ---------------------

mdb_stop_service TERM
mdadm --stop /dev/md0 >/dev/null 2>&1
# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
mdadm --zero-superblock $(vm_disks 0 4) >/dev/null 2>&1
# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=4 --chunk=64 \
	--metadata=1.2 --data-offset=8M --bitmap=none --assume-clean $(vm_disks 0 4) ||
	{ echo "mdadm --create md0 (1.2) failed"; exit 1; }
write_data $((64 * 1024 * 1024))
printf 'reshape_stuck_ms = 2000\n' >"$MDB_TMP/stuck.conf"
mdb_start_service --config "$MDB_TMP/stuck.conf"

md_slow 1000
mdadm --grow /dev/md0 --chunk=32 >"$MDB_TMP/grow2.log" 2>&1 || cat "$MDB_TMP/grow2.log"
mdb_check "a chunk change on 1.2 with room starts a reshape" vm_wait_for 30 reshaping
moves() { [ "$(cat /sys/block/md0/md/dev-*/new_offset | sort -u)" != "$(cat /sys/block/md0/md/dev-*/offset | sort -u)" ]; }
mdb_check "it moves the data offset (it needs no backup)" moves
# What a driver killed half-way leaves: the reshape frozen, its limit set
# (a multiple of the chunk, 128 sectors, as md wants it).
has_position() { [ -n "$(md_sync_done md0)" ]; }
vm_wait_for 30 has_position
done_now=$(md_sync_done md0)
md_set md0 sync_action frozen
pkill -KILL -x mdadm
mdb_check "no mdadm is left" vm_wait_for 10 eval '! pgrep -x mdadm'
limit=$(( (${done_now:-0} / 128 + 256) * 128 ))
mdb_check "sync_max takes a number ahead of the reshape ($limit)" md_set md0 sync_max "$limit"
md_fast
md_set md0 sync_action idle
at_limit() {
	local d
	d=$(md_sync_done md0)
	[ -n "$d" ] && [ "$d" -ge "$limit" ]
}
mdb_check "the reshape runs on to sync_max and waits there" vm_wait_for 120 at_limit
vm_log "sync_completed at the limit: $(md_attr md0 sync_completed), sync_action $(md_attr md0 sync_action)"
stuck_says() { mdb_array_prop md0 Stuck | grep -q "$1"; }
mdb_check "Stuck says the reshape stopped at sync_max and nothing drives it" \
	vm_wait_for 30 stuck_says "The reshape of md0 has stopped at sync_max (sector $limit) and nothing drives it."
mdb_check "and gives the command that resumes it" \
	stuck_says "Resume it safely with: echo max > /sys/block/md0/md/sync_max (it moves the data offset"
mdb_check "the log says so once" \
	[ "$(grep -c 'The reshape of md0 has stopped at sync_max' "$MDB_TMP/service.log")" = 1 ]
command=$(mdb_array_prop md0 Stuck | jq -r . | sed 's/.*Resume it safely with: //; s/ (.*//')
vm_log "running the command Stuck gives: $command"
mdb_check "that command runs" bash -c "$command"
mdb_check "and the reshape completes" vm_wait_for 300 reshape_done
mdb_check "md0 has its new chunk" [ "$(md_attr md0 chunk_size)" = 32768 ]
mdb_check "the data written before reads back the same" [ "$(data_sum)" = "$want" ]
unstuck() { [ "$(mdb_array_prop md0 Stuck)" = '""' ]; }
mdb_check "Stuck clears" vm_wait_for 20 unstuck

mdb_finish
