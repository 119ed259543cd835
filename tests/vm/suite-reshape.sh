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
# A reshape left at a numeric sync_max with no mdadm is the fake-kernel
# test's (tests/integration/service-arrays): with Debian 12's mdadm 4.2 a
# killed mdadm leaves sync_max at max, and the reshape simply runs on.
set -u

# shellcheck source=tests/vm/service-suite.sh
. "$(dirname "$0")/service-suite.sh"

# mdadm would ask systemd to run its reshape monitor; there is none here.
export MDADM_NO_SYSTEMCTL=1

not_boosted() { [ "$(mdb_array_prop md0 Boosted)" = false ]; }
reshaping() { [ "$(md_attr md0 sync_action)" = reshape ]; }
reshape_done() { md_idle md0 && [ "$(md_attr md0 reshape_position)" = none ]; }
data_sum() { head -c "$DATA_BYTES" /dev/md0 | sha256sum | cut -d' ' -f1; }

# Every distinct value sync_max takes over SECONDS, one a line.
sync_max_values() {
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		md_attr md0 sync_max
		sleep 0.2
	done | awk '!seen[$0]++'
}

mdb_init
MDB_ROOT=/
trap 'rc=$?; pkill -x mdadm 2>/dev/null; md_stop_all; (exit $rc); mdb_cleanup' EXIT

mdadm --create /dev/md0 --run --quiet --level=raid5 --raid-devices=4 --chunk=64 \
	--metadata=0.90 --bitmap=none --assume-clean $(vm_disks 0 4) ||
	{ echo "mdadm --create md0 failed"; exit 1; }
mdb_check "md0 keeps its data at sector 0 (no room to move it)" [ "$(cat /sys/block/md0/md/dev-*/offset | sort -u)" = 0 ]
mdb_check "md0's metadata is native 0.90" [ "$(md_attr md0 metadata_version)" = 0.90 ]

# Known data on the whole first half of the array.
DATA_BYTES=$((96 * 1024 * 1024))
head -c "$DATA_BYTES" /dev/urandom >"$MDB_TMP/data"
dd if="$MDB_TMP/data" of=/dev/md0 bs=1M oflag=direct status=none
sync
want=$(sha256sum <"$MDB_TMP/data" | cut -d' ' -f1)
rm -f "$MDB_TMP/data"
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

mdb_finish
