# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# What the benchmarks in the VM share (bench-rebuild.sh, bench-workloads.sh):
# a 4-disk raid5 (512 KiB chunks; raid6 with BENCH_LEVEL=raid6, two members'
# worth of parity) with mdboostd on a private bus, md's
# defaults to return to between runs (divided by SCALE on modelled disks,
# docs/disk-model.md), a fresh recovery of the last member, Boost through the
# service, and the recovery's live position.
#
#   . tests/vm/bench-lib.sh
#   bench_setup [SCALE]      # the array, the bus, polkitd and the service; md=md0
#   bench_defaults SCALE     # md's limits divided by SCALE (1: as they are), md0's own back to the system's,
#                            # its recovery frozen and its stripe cache back to 256 stripes held
#   bench_start_recovery     # a new recovery of the last member, from the start
#   bench_boost PROFILE N [OPTION TYPE VALUE]...
#   bench_pos                # KiB done, as /proc/mdstat shows it live
#   bench_governor           # what fast's governor says of itself, on one line

# shellcheck source=tests/vm/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MDB_SERVICE_BIN=${MDB_SERVICE_BIN:-$VM_BUILD/mdboostd}
# shellcheck source=tests/integration/service-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../integration/service-lib.sh"

md=md0
BENCH_LEVEL=${BENCH_LEVEL:-raid5}
BENCH_RA_DEFAULT=
BENCH_VICTIM=

# shellcheck source=tests/vm/service-scale.sh
. "$(dirname "${BASH_SOURCE[0]}")/service-scale.sh"

# The service's own absolute limits are divided by SCALE as md's are, so
# that a random reader the model slows tenfold is still a user.
bench_setup() {
	local scale=${1:-1}
	case $BENCH_LEVEL in
	raid5 | raid6) ;;
	*) echo "BENCH_LEVEL is raid5 or raid6, not $BENCH_LEVEL" >&2; exit 2 ;;
	esac
	mdb_init
	# shellcheck disable=SC2034 # read by service-lib.sh
	MDB_ROOT=/
	# shellcheck disable=SC2154 # rc is the trap's own
	trap 'rc=$?; md_stop_all; (exit $rc); mdb_cleanup' EXIT
	# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
	mdadm --create /dev/$md --run --quiet --level="$BENCH_LEVEL" --raid-devices=4 --chunk=512 \
		--metadata=1.2 --bitmap=none --assume-clean $(vm_disks 0 4) || { echo "mdadm --create failed"; exit 1; }
	BENCH_VICTIM=$(vm_disk 3)
	BENCH_RA_DEFAULT=$(cat /sys/block/$md/queue/read_ahead_kb)
	mdb_start_bus
	# shellcheck disable=SC2119 # no options: the defaults
	mdb_start_polkit
	service_scaled_config "$scale" >"$MDB_TMP/mdboostd.conf"
	mdb_start_service --config "$MDB_TMP/mdboostd.conf"
}

# The stripes md holds for $md: its stripe slab's objects in use (raid5-md0, raid6-md0).
bench_stripes_held() { awk -v s="^raid[0-9]+-$md$" '$1 ~ s { print $2 }' /proc/slabinfo; }

# A size written while a recovery runs leaves md using most of the last
# recipe's stripes (profiles.md, the memory budget), so the next recipe
# would run with that larger cache. The recovery, which the next run
# starts anew, is frozen first and the size written once md has no stripe
# in use: every run starts from md's 256.
bench_defaults() {
	local scale=$1 held
	echo $((1000 / scale)) >/proc/sys/dev/raid/speed_limit_min
	echo $((200000 / scale)) >/proc/sys/dev/raid/speed_limit_max
	echo system >/sys/block/$md/md/sync_speed_min
	echo system >/sys/block/$md/md/sync_speed_max
	echo frozen >/sys/block/$md/md/sync_action 2>/dev/null
	vm_wait_for 30 md_stripes_idle $md
	echo 256 >/sys/block/$md/md/stripe_cache_size
	held=$(bench_stripes_held)
	# A few more than asked stay (296 to 408 seen): md drops stripes from one
	# hash list after the other and stops at the first with none idle.
	[ -z "$held" ] || [ "$held" -le 512 ] || printf 'stripes\tmd holds %s stripes after stripe_cache_size 256\n' "$held" >&2
	echo "$BENCH_RA_DEFAULT" >/sys/block/$md/queue/read_ahead_kb
}

bench_start_recovery() {
	echo frozen >/sys/block/$md/md/sync_action 2>/dev/null
	mdadm /dev/$md --fail "$BENCH_VICTIM" --remove "$BENCH_VICTIM" >/dev/null 2>&1
	mdadm --zero-superblock "$BENCH_VICTIM" >/dev/null 2>&1
	echo idle >/sys/block/$md/md/sync_action 2>/dev/null
	mdadm /dev/$md --add "$BENCH_VICTIM" >/dev/null 2>&1
	vm_wait_for 20 md_running $md
}

bench_boost() {
	mdb_call root Boost 'ssa{sv}' $md "$@"
	[ "$MDB_RC" -eq 0 ] || { echo "Boost $* failed: $MDB_ERRMSG" >&2; return 1; }
}

bench_pos() { mdstat_progress $md | awk '{ print $2 }'; }

# bench_governor: what fast's governor says of itself now: its state, the
# users' baseline, what they got and their target (KiB/s), the rate it set
# and why, tab-separated on one line.
bench_governor() {
	mdb_array_prop "$md" Governor 2>/dev/null | jq -r '[.state.data, .baseline.data, .users.data, .target.data, .rate.data, .why.data] |
			map(tostring) | join("\t")' 2>/dev/null
}
