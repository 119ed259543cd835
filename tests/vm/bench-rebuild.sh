#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/run-in-vm --disks 4): the rebuild
# benchmark. A 4-disk raid5 rebuilds onto a new member while fio reads the
# array sequentially (direct I/O, 1 MiB blocks) with 1 request in flight and
# with 8, under each recipe; and once with no reader at all.
#
#   bench-rebuild.sh [SECONDS]
#
# Results are printed as tab-separated lines starting with "result":
#   result RECIPE READER_DEPTH REBUILD_MB/s READER_MB/s
# after "kernel KVER" and "sync_io_depth N" (md's, or - where it has none),
# and for each of fast's runs what its governor said of itself at the end
# of the window (bench_governor: KiB/s but WHY):
#   fast-governor READER_DEPTH STATE BASELINE USERS TARGET RATE WHY
# (MB here and in the report is 2^20 bytes, as fio and /proc/mdstat's KiB give it)
#
# Each run: a fresh recovery of the last member, the recipe applied, then
# SECONDS (default 120) of measurement, 3 s later; for fast, 100 s later:
# its floor is fitted after 30 s (fast_floor_fit_after_ms), its governor
# then holds the rebuild back for 10 s to learn what the reader gets alone
# and steers in steps of a few seconds to keep it its share (50 %), which
# md's 30 s average takes a while to follow. The reader runs from the
# boost on. The rebuild rate is the live position of /proc/mdstat (not the
# checkpointed sync_completed) over the window; the reader's rate is fio's.
# Every recipe is undone before the next run.
set -u

# shellcheck source=tests/vm/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

window=${1:-120}
bench_setup 1 # plain disks: the service's limits as they are

recipe() {
	case "$1" in
	defaults) ;;
	min50k) echo 50000 >/proc/sys/dev/raid/speed_limit_min ;;
	min50k+cache)
		echo 50000 >/proc/sys/dev/raid/speed_limit_min
		echo 32768 >/sys/block/$md/md/stripe_cache_size
		echo 32768 >/sys/block/$md/queue/read_ahead_kb
		;;
	fast | max) bench_boost "$1" 0 ;;
	esac
}

undo() {
	case "$1" in
	fast | max) mdb_call root Restore 'sa{sv}' $md 0 ;;
	esac
	bench_defaults 1
}

# run RECIPE IODEPTH (0: no reader): prints "rebuild_MBps reader_MBps".
run() {
	local name=$1 depth=$2 p0 p1 t0 t1 fio_pid='' reader=0 pre=3
	[ "$name" = fast ] && pre=100
	bench_defaults 1
	bench_start_recovery || { echo "no recovery started" >&2; return 1; }
	recipe "$name" || return 1
	if [ "$depth" -gt 0 ]; then
		# From the middle of the array: a rebuild starts at the first
		# stripe, and a reader there would ride on the rebuild's own reads
		# through the stripe cache, as no NAS user does.
		fio --name=reader --filename=/dev/$md --rw=read --bs=1M --direct=1 --ioengine=libaio \
			--offset=50% --iodepth="$depth" --time_based --runtime=$((window + pre)) --ramp_time="$pre" \
			--output-format=json --output="$MDB_TMP/fio.json" >/dev/null 2>&1 &
		fio_pid=$!
	fi
	sleep "$pre"
	p0=$(bench_pos); t0=$EPOCHREALTIME
	sleep "$window"
	p1=$(bench_pos); t1=$EPOCHREALTIME
	# What the governor kept the reader and why, for the report.
	[ "$name" = fast ] && printf 'fast-governor\t%s\t%s\n' "$depth" "$(bench_governor)" >&2
	if [ -n "$fio_pid" ]; then
		wait "$fio_pid"
		reader=$(jq '.jobs[0].read.bw_bytes / 1048576' "$MDB_TMP/fio.json")
	fi
	undo "$name"
	if [ -z "$p0" ] || [ -z "$p1" ]; then
		echo "the recovery ended inside the window; use larger disks" >&2
		return 1
	fi
	awk -v p0="$p0" -v p1="$p1" -v t0="$t0" -v t1="$t1" -v r="$reader" \
		'BEGIN { printf "%.1f\t%.1f\n", (p1 - p0) / 1024 / (t1 - t0), r }'
}

# The kernel these numbers are from, and what its throttle offers (6.16+).
printf 'kernel\t%s\n' "$(uname -r)"
printf 'sync_io_depth\t%s\n' "$(cat /sys/block/$md/md/sync_io_depth 2>/dev/null || echo -)"
r=$(run defaults 0) || exit 1
printf 'result\tno-reader\t0\t%s\n' "$r"
for depth in 1 8; do
	for name in defaults min50k min50k+cache fast max; do
		r=$(run "$name" "$depth") || exit 1
		printf 'result\t%s\t%s\t%s\n' "$name" "$depth" "$r"
	done
done
mdb_call root GetProfiles
# shellcheck disable=SC2153 # MDB_OUT is mdb_call's
printf 'profiles\t%s\n' "$MDB_OUT"
