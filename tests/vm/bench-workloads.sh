#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM on four modelled hard disks (tests/vm/run-in-vm
# --disk-model hdd, docs/disk-model.md): the NAS workload benchmark. A 4-disk
# raid5 (raid6 with BENCH_LEVEL=raid6) rebuilds onto a new member while its
# users do what a NAS's users do, under each recipe.
#
#   bench-workloads.sh WINDOW SCALE [WORKLOAD...]
#
# The workloads (fio on /dev/md0, direct I/O):
#   none    no users: the rebuild's limit (md's defaults), and fast and max
#           with no users, which are to reach 95 % of it
#   seq1    a sequential reader, 1 MiB blocks, 1 request in flight
#   seq8    the same, 8 requests in flight
#   rand32  random 4 KiB reads, 32 in flight (the test NAS reviewers run)
#   write   a sequential writer, 1 MiB blocks, 4 in flight (a backup arriving)
#   bursty  the 8-deep reader, busy 30 s and idle 30 s, in phase with the
#           window (it opens as a busy half begins)
# The users start from the middle of the array (random reads span all of
# it); the rebuild starts at its first stripe, so every turn between them
# costs a seek.
#
# The recipes: the rebuild frozen (what the users get while it is held
# back, on the degraded array: the baseline of their share), md's defaults,
# two forum recipes (speed_limit_min 50000; with stripe_cache_size and
# read_ahead_kb 32768), fixed floors of 10, 25, 50 and 100 % of the limit
# (md0's sync_speed_min, the limit measured at md's defaults), and
# mdboost's fast (its governor keeps the users 50 %; fast@25 and fast@80
# give it 25 and 80 % with the users_share option; fast@50ms and
# fast@100ms keep their requests under 50 and 100 ms at the 99th percentile
# with users_latency_ms, the bound given for the real disk, so times SCALE in
# the VM) and max.
# BENCH_RECIPES picks some of them; BENCH_RUNS runs each that many times
# (default 1), each its own result line, so that the report gives medians
# and ranges; BENCH_TRACE=1 logs md's limits and the rebuild's position
# every second of each window, and of the seconds before it under RECIPE:pre
# (trace lines on stderr), with what mdboostd logged since the line before
# (service lines). md's absolute limits are divided by SCALE, as the disk's
# rates are (docs/disk-model.md): the defaults are 1000/SCALE and
# 200000/SCALE KiB/s, the forum's 50000 is 50000/SCALE.
#
# Results are tab-separated lines:
#   kernel KVER
#   level raid5|raid6
#   limit REBUILD_KiB/s
#   result WORKLOAD RECIPE REBUILD_KiB/s USERS_KiB/s USERS_IOPS USERS_P99_us PREDICTED_KiB/s BUSY_%
# and, on stderr for the log, for each of fast's runs what its governor said
# at the end of the window:
#   governor WORKLOAD RECIPE STATE BASELINE USERS TARGET RATE WHY
# and how long the users took to reach md (from fio's start; before the
# disk fails), and when fio was done (its window ends with the rebuild's;
# it then waits for its requests in flight):
#   users WORKLOAD RECIPE arrived after SECONDS s
#   users WORKLOAD RECIPE done SECONDS s after the window
# and how long after the recipe the window opens (from LEAD + PRE after the
# users reached md; less than PRE when the failure, the new recovery and
# the recipe took longer than LEAD):
#   window WORKLOAD RECIPE opens SECONDS s after the recipe
# and for every run what the Prediction rested on then:
#   prediction WORKLOAD RECIPE NOW_KiB/s GOVERNOR_KiB/s MAX_KiB/s BUSY_%
# rates and latencies as measured in the VM. PREDICTED is the rate the
# service's Prediction gave for the recipe at the end of the window (max's
# for max, the governor's for fast, md's rate now for the others; 0 when it
# did not know it yet), to set beside the rate measured over the window;
# BUSY the share of the operation so far in which the Prediction saw the
# users busy (-1 when it did not say), which the governor's rests on.
# Each run: the users, then once they reach md a disk fails and a fresh
# recovery of the last member starts, the recipe while they are busy, and
# WINDOW seconds of measurement, fio's and the rebuild's alike, that open
# 35 s after the users' requests reached md (130 s for fast: the governor
# learns what the users get alone and steers for a minute); the failure,
# the new recovery and the recipe take the first 10 to 25 s of those
# (fast's window opened 101 to 127 s after its Boost).
set -u

# shellcheck source=tests/vm/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

window=${1:?WINDOW}
scale=${2:?SCALE}
shift 2
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(seq1 seq8 rand32 write bursty none)
read -r -a recipes <<<"${BENCH_RECIPES:-frozen defaults forum forum+cache floor10 floor25 floor50 floor100 fast fast@25 fast@80 fast@50ms fast@100ms max}"
runs=${BENCH_RUNS:-1}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_RUNS is a number of runs, not $runs" >&2; exit 2; }

bench_setup "$scale"

recipe() {
	case "$1" in
	defaults) ;;
	frozen) echo frozen >/sys/block/$md/md/sync_action ;;
	forum) echo $((50000 / scale)) >/proc/sys/dev/raid/speed_limit_min ;;
	forum+cache)
		echo $((50000 / scale)) >/proc/sys/dev/raid/speed_limit_min
		echo 32768 >/sys/block/$md/md/stripe_cache_size
		echo 32768 >/sys/block/$md/queue/read_ahead_kb
		;;
	floor*) echo $((limit * ${1#floor} / 100)) >/sys/block/$md/md/sync_speed_min ;;
	fast | max) bench_boost "$1" 0 ;;
	fast@*ms)
		local ms=${1#fast@}
		bench_boost fast 1 users_latency_ms u $((${ms%ms} * scale))
		;;
	fast@*) bench_boost fast 1 users_share u "${1#fast@}" ;;
	esac
}

# predicted RECIPE BASIS: the rate the service's Prediction gives for the
# recipe in place now, KiB/s, from BASIS (prediction's line); 0 when it does
# not know it.
predicted() {
	local now governor max v
	IFS=$'\t' read -r now governor max _ <<<"$2"
	case "$1" in
	max) v=$max ;;
	fast*) v=$governor ;;
	frozen) v=0 ;;
	*) v=$now ;;
	esac
	[[ $v =~ ^[0-9]+$ ]] && echo "$v" || echo 0
}

# prediction: the Prediction's rates (now, governor, max, KiB/s) and how busy
# the users were (percent, "-" not known yet), on one line.
prediction() {
	mdb_array_prop "$md" Prediction 2>/dev/null |
		jq -r '[.now_kibs.data, .governor_kibs.data, .max_kibs.data, (.busy_percent.data // "-")] |
			map(tostring) | join("\t")' 2>/dev/null
}

undo() {
	case "$1" in
	fast | fast@* | max) mdb_call root Restore 'sa{sv}' $md 0 ;;
	frozen) echo idle >/sys/block/$md/md/sync_action ;;
	esac
	bench_defaults "$scale"
}

# users WORKLOAD WINDOW RAMP: starts the users in the background
# ($users_pid, $users_start the seconds since boot then): RAMP s of work
# before their window, then WINDOW s of measurement, fio's JSON report of
# the window in $MDB_TMP/fio.json, the seconds since boot when they were
# done in $MDB_TMP/users.end. fio runs its ramp_time before its
# runtime, not within it, and resets its statistics in between.
# A stream (both readers, the bursty user, the writer) goes over the same 4 %
# of the array from its middle again and again: the modelled disks transfer
# from 82 MB/s at their start to 44 at their end, and on disks of 2 GiB a
# stream that went on from the middle moved a fifth of the way inward within
# 80 s (a real disk's stream takes hours) and slowed by some 10 %: each
# recipe's users were measured on a slower part of the disks the later its
# window opened, and the governor's hold learnt them at their fastest.
# The forum's 32768-stripe cache (128 MiB of each member) is larger than it
# (82 MiB of each member on 2 GiB disks) and may serve a reader's next pass;
# no other recipe's cache holds a pass (docs/benchmarks-nas.md).
users() {
	local args=(--name=users "--filename=/dev/$md" --direct=1 --ioengine=libaio --time_based
		--output-format=json)
	rm -f "$MDB_TMP/fio.json"
	case "$1" in
	seq1) args+=(--rw=read --bs=1M --iodepth=1 --offset=50% --size=4%) ;;
	seq8 | bursty) args+=(--rw=read --bs=1M --iodepth=8 --offset=50% --size=4%) ;;
	rand32) args+=(--rw=randread --bs=4k --iodepth=32 --norandommap --randrepeat=1) ;;
	write) args+=(--rw=write --bs=1M --iodepth=4 --offset=50% --size=4%) ;;
	esac
	users_start=$(uptime_s)
	rm -f "$MDB_TMP/users.end"
	if [ "$1" = bursty ]; then
		{ bursty $(($3 + $2)) "$3" "${args[@]}"; uptime_s >"$MDB_TMP/users.end"; } &
	else
		{
			fio "${args[@]}" --runtime="$2" --ramp_time="$3" --output="$MDB_TMP/fio.json" >/dev/null 2>&1
			uptime_s >"$MDB_TMP/users.end"
		} &
	fi
	users_pid=$!
}

# bursty SECONDS RAMP FIO_ARGS...: the reader busy 30 s and idle 30 s, in
# phase with the window: a busy half begins as the window opens, RAMP s
# from now, so that every recipe's window holds the same 30 s of reading
# and the same return after 30 s of quiet (fio's own thinktime drifts by
# seconds a cycle and counts its thinking in the runtime it divides by).
# Earlier halves are clipped to start at 0; the window's half writes
# $MDB_TMP/fio.json.
bursty() {
	local seconds=$1 ramp=$2 start b from to out
	shift 2
	start=$(uptime_s)
	for ((b = ramp % 60 - 60; b < seconds; b += 60)); do
		from=$((b > 0 ? b : 0)) to=$((b + 30 < seconds ? b + 30 : seconds))
		[ "$to" -gt "$from" ] || continue
		sleep "$(awk -v s="$start" -v f="$from" -v n="$(uptime_s)" 'BEGIN { d = s + f - n; print (d > 0 ? d : 0) }')"
		out=$MDB_TMP/fio-early.json
		[ "$b" -eq "$ramp" ] && out=$MDB_TMP/fio.json
		fio "$@" --runtime=$((to - from)) --output="$out" >/dev/null 2>&1
	done
}

# users_arrived WORKLOAD RECIPE: waits up to 120 s for the users' first
# requests on the md device (/sys/block/md0/stat: requests done or in
# flight); logs how long that took and sets $users_arrival, the seconds
# since boot then.
users_arrived() {
	local stat i
	read -r -a stat </sys/block/$md/stat
	local before=$((stat[0] + stat[4]))
	for ((i = 0; i < 240; i++)); do
		read -r -a stat </sys/block/$md/stat
		[ $((stat[0] + stat[4])) -gt "$before" ] || [ "${stat[8]}" -gt 0 ] && break
		sleep 0.5
	done
	users_arrival=$(uptime_s)
	printf 'users\t%s\t%s\t%s\n' "$1" "$2" "$(awk -v a="$users_start" -v b="$users_arrival" 'BEGIN { printf "arrived after %.1f s", b - a }')" >&2
}

# until T: sleeps until T seconds since boot (not at all when T has passed).
until_s() {
	local d
	d=$(awk -v t="$1" -v n="$(uptime_s)" 'BEGIN { printf "%.2f", t - n }')
	awk -v d="$d" 'BEGIN { exit !(d > 0) }' && sleep "$d"
	return 0
}

# uptime_s: seconds since boot. The guest's wall clock can step by hours
# under TCG (seen once: a limit of 4 KiB/s, then floors of 0 that md
# refuses); the boot clock only moves forward with the guest.
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# first_word FILE: "1000 (system)" -> 1000.
first_word() {
	local w _
	read -r w _ <"$1"
	echo "$w"
}

# trace WORKLOAD RECIPE SECONDS: instead of sleeping through the window, with
# BENCH_TRACE=1, a line about a second apart (a little more under TCG) on
# stderr for the log, until SECONDS have passed: the seconds since boot, the rebuild's
# live position (KiB), md0's sync_speed_min, sync_speed_max and
# sync_speed, the users' requests and sectors completed so far and their
# requests in flight (/sys/block/md0/stat), then each member's reads and
# writes in flight (vdb:R/W,..., from /sys/block/vdX/inflight: md's own
# requests and the rebuild's, both, as the disk holds them), each followed
# by what mdboostd logged since the line before (from the boost on, for the
# first), and last the milliseconds the users' requests took in all (the
# sum md keeps of each one's time from submission to completion: between
# two lines, divided by the requests, their mean):
#   trace WORKLOAD RECIPE T POSITION FLOOR CEILING SPEED REQUESTS SECTORS IN_FLIGHT MEMBERS WAIT_MS
#   service LINE
trace() {
	local end stat chunk m r w members
	end=$(awk -v t="$(uptime_s)" -v w="$3" 'BEGIN { printf "%d", t + w }')
	while awk -v t="$(uptime_s)" -v e="$end" 'BEGIN { exit !(t < e) }'; do
		read -r -a stat </sys/block/$md/stat
		mapfile -t chunk < <(tail -n +$((logged + 1)) "$MDB_TMP/service.log")
		if [ ${#chunk[@]} -gt 0 ]; then
			printf 'service\t%s\n' "${chunk[@]}" >&2
			logged=$((logged + ${#chunk[@]}))
		fi
		members=
		for m in "/sys/block/$md/slaves"/*; do
			read -r r w <"$m/inflight" || continue
			members+="${members:+,}${m##*/}:$r/$w"
		done
		printf 'trace\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(uptime_s)" "$(bench_pos)" \
			"$(first_word /sys/block/$md/md/sync_speed_min)" "$(first_word /sys/block/$md/md/sync_speed_max)" \
			"$(first_word /sys/block/$md/md/sync_speed)" $((stat[0] + stat[4])) $((stat[2] + stat[6])) "${stat[8]}" \
			"${members:--}" $((stat[3] + stat[7])) >&2
		sleep 1
	done
}

# run WORKLOAD RECIPE: prints "REBUILD_KiB/s USERS_KiB/s USERS_IOPS USERS_P99_us PREDICTED_KiB/s BUSY_%".
run() {
	local workload=$1 name=$2 pre=5 lead=30 opens='' p0 p1 t0 t1 stats='0 0 0' pred basis busy
	case $name in fast*) pre=100 ;; esac
	bench_defaults "$scale"
	# The users first, busy before the disk fails, as on a NAS whose disk
	# dies under load: the operation is busy from its start, as the
	# window's users are, so the busy share the service's prediction
	# weighs is the window's. Under TCG fio takes seconds to submit its
	# first request (17 to 59 s seen with four VMs on two cores), so the
	# disk fails once their requests reach md. fio's window is set when it
	# starts: it opens LEAD + PRE s after its requests arrive (LEAD for the
	# recovery to start and the recipe to apply), and the rebuild's window
	# opens with it. The bursty user's window opens as a busy half begins,
	# LEAD + PRE s after it starts.
	users_pid=
	if [ "$workload" != none ]; then
		users "$workload" "$window" $((lead + pre))
		local from=$users_start
		if [ "$workload" != bursty ]; then
			users_arrived "$workload" "$name"
			from=$users_arrival
		fi
		opens=$(awk -v s="$from" -v r=$((lead + pre)) 'BEGIN { print s + r }')
	fi
	bench_start_recovery || { echo "no recovery started" >&2; return 1; }
	# The service's log from here on goes with the trace lines (the global logged).
	logged=$(wc -l <"$MDB_TMP/service.log")
	recipe "$name" || return 1
	local ahead=$pre
	if [ -z "$opens" ]; then
		opens=$(awk -v t="$(uptime_s)" -v p="$pre" 'BEGIN { print t + p }')
	else
		# When the recovery's start and the recipe took longer than LEAD,
		# the window still opens as fio's does: less than PRE after the recipe.
		ahead=$(awk -v o="$opens" -v t="$(uptime_s)" 'BEGIN { printf "%.1f", o - t }')
		printf 'window\t%s\t%s\topens %s s after the recipe\n' "$workload" "$name" "$ahead" >&2
	fi
	if [ "${BENCH_TRACE:-0}" = 1 ]; then
		awk -v a="$ahead" 'BEGIN { exit !(a > 0) }' && trace "$workload" "$name:pre" "$ahead"
	else
		until_s "$opens"
	fi
	p0=$(bench_pos); t0=$(uptime_s)
	if [ "${BENCH_TRACE:-0}" = 1 ]; then trace "$workload" "$name" "$window"; else sleep "$window"; fi
	p1=$(bench_pos); t1=$(uptime_s)
	basis=$(prediction)
	pred=$(predicted "$name" "$basis")
	busy=$(cut -f4 <<<"$basis")
	[[ $busy =~ ^[0-9]+$ ]] || busy=-1
	# For the log only: the governor's own measure of the users beside fio's,
	# and what the prediction rests on (its rates and how busy it saw the users).
	case $name in fast*) printf 'governor\t%s\t%s\t%s\n' "$workload" "$name" "$(bench_governor)" >&2 ;; esac
	printf 'prediction\t%s\t%s\t%s\n' "$workload" "$name" "$basis" >&2
	# Frozen, /proc/mdstat may show no position at all: the rebuild made none.
	[ "$name" = frozen ] && p0=0 p1=0
	if [ -n "$users_pid" ]; then
		wait "$users_pid"
		printf 'users\t%s\t%s\t%s\n' "$workload" "$name" "$(awk -v e="$(cat "$MDB_TMP/users.end")" -v t="$t1" \
			'BEGIN { printf "done %.1f s after the window", e - t }')" >&2
		# The bursty user's throughput and IOPS are over the whole window,
		# its idle half too; the others' are over fio's runtime, the window.
		stats=$(jq -r --argjson w "$([ "$workload" = bursty ] && echo "$window" || echo 0)" \
			'[.jobs[0].read, .jobs[0].write] | map(select(.io_bytes > 0)) | .[0] |
			(if $w > 0 then [.io_bytes / 1024 / $w, .total_ios / $w] else [.bw_bytes / 1024, .iops] end) as $r |
			"\($r[0]) \($r[1]) \((.clat_ns.percentile["99.000000"] // 0) / 1000)"' "$MDB_TMP/fio.json")
	fi
	undo "$name"
	if [ -z "$p0" ] || [ -z "$p1" ]; then
		echo "the recovery ended inside the window; use larger disks" >&2
		return 1
	fi
	awk -v p0="$p0" -v p1="$p1" -v t0="$t0" -v t1="$t1" -v s="$stats" -v pr="${pred:-0}" -v b="$busy" \
		'BEGIN { split(s, u, " "); printf "%.0f\t%.0f\t%.1f\t%.0f\t%.0f\t%d\n", (p1 - p0) / (t1 - t0), u[1], u[2], u[3], pr, b }'
}

# warm: each workload's fio once for 5 s before the first run, logged as
#   warm WORKLOAD done after SECONDS s
# In a VM's first run fio's requests reached md 7 to 18 s after it started,
# in later runs 2 to 8 s (probably its program and libraries, read over 9p
# the first time), and under the 1-deep reader the governor learnt its
# lowest baseline in the first run.
warm() {
	local w t0
	for w in "${workloads[@]}"; do
		[ "$w" != none ] || continue
		t0=$(uptime_s)
		users "$w" 5 0
		wait "$users_pid"
		printf 'warm\t%s\t%s\n' "$w" "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "done after %.1f s", b - a }')" >&2
	done
}

printf 'kernel\t%s\n' "$(uname -r)"
warm
printf 'level\t%s\n' "$BENCH_LEVEL"
r=$(run none defaults) || exit 1
limit=$(cut -f1 <<<"$r")
printf 'limit\t%s\n' "$limit"
# A floor of 10 % is written as a whole KiB/s: below 10 the recipes mean nothing.
[ "$limit" -ge 10 ] || { echo "the limit came out at $limit KiB/s: no rebuild to measure against" >&2; exit 1; }
for workload in "${workloads[@]}"; do
	for name in "${recipes[@]}"; do
		# With no users only fast and max say something the limit does not.
		[ "$workload" != none ] || [ "$name" = fast ] || [ "$name" = max ] || continue
		for ((i = 0; i < runs; i++)); do
			r=$(run "$workload" "$name") || exit 1
			printf 'result\t%s\t%s\t%s\n' "$workload" "$name" "$r"
		done
	done
done
