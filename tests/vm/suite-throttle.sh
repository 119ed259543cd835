#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/real-kernel throttle: 5 disks of 2 GiB,
# each bounded to 16 MB/s): what the docs say md does, on the real md driver.
#   - the fake kernel's write rules (docs/md-model.md, tests/fakekernel/),
#     on a raid5: what each tunable accepts, what it then reads, what md
#     refuses with which errno; the integration tests rest on them;
# Then what docs/profiles.md and docs/md-model.md say md_do_sync() does
# with an array's floor (sync_speed_min) and ceiling (sync_speed_max), with
# a raid1 resync. The rules of fast, its fit and its governor rest on each:
#   - below its floor md applies no limit: a floor of 8000 KiB/s above a
#     ceiling of 1000 runs at the floor or above, not at the ceiling (md
#     tests the ceiling only once its speed is above the floor);
#   - above its floor md keeps its ceiling: floor 1000, ceiling 4000, no
#     users: about 4000;
#   - floor and ceiling at one rate (the governor's steering): md keeps to it;
#   - md counts the rebuild's I/O on the members, never on the md device:
#     md0's stat stands still through a resync, while a user's reads move it;
#   - below its floor md does not yield to users: a reader of 4 MB/s on the
#     array (the disks have room for both) does not hold the resync under a
#     floor of 6000, and md0's stat counts what it read;
#   - md's speed is an average over its last marks (about 30 s): with the
#     ceiling lowered from 10000 to 2000, md sleeps at once (its average is
#     still above the ceiling) and its sync_speed reads the old rate for a
#     while; later it keeps the new one on average and says so, but moves in
#     bursts about 30 s apart, for minutes.
# Rates are measured from /proc/mdstat's position over a window that starts a few
# seconds after the resync (re)started with the settings, so md's average
# began with them. A rate md keeps must lie within 35 % of it: the
# emulated CPU on a shared host makes md's own pacing ragged, not different.
set -u
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

read -r d0 d1 d2 d3 d4 < <(vm_disks 0 5 | tr '\n' ' ')
md_stop_all
md_slow 1000
mdadm --create /dev/md0 --run --quiet --level=1 --raid-devices=2 --bitmap=none "$d0" "$d1" 2>&1 || true
vm_check "a raid1 of 2 GiB resyncs" vm_wait_for 20 md_running md0 || { vm_finish; exit 1; }
mdadm --create /dev/md1 --run --quiet --level=5 --raid-devices=3 --chunk=512 --size=65536 --bitmap=none \
	--assume-clean "$d2" "$d3" "$d4" 2>&1 || true
vm_check "a raid5 of 3 x 64 MiB, clean" vm_wait_for 20 md_idle md1 || { vm_finish; exit 1; }

# ---- the fake kernel's write rules (docs/md-model.md), on the real driver ------

# rule ARRAY FILE VALUE WANT: writing VALUE to md's FILE (md/..., queue/..., or
# a path under /proc) is refused with WANT (EINVAL, EBUSY) or then reads WANT.
rule() {
	local f=$2 got
	case "$f" in /*) ;; *) f=/sys/block/$1/$f ;; esac
	if [ ! -e "$f" ]; then
		got=ENOENT # the library opens without O_CREAT; a shell's > would try to create it
	elif ! (printf '%s' "$3" >"$f") 2>"$tmp/err"; then
		case "$(cat "$tmp/err")" in
		*"Invalid argument"*) got=EINVAL ;;
		*"Device or resource busy"*) got=EBUSY ;;
		*"No such file"*) got=ENOENT ;;
		*) got="refused: $(cat "$tmp/err")" ;;
		esac
	else
		got=$(cat "$f")
	fi
	vm_expect "$1: '$3' written to ${2#/proc/sys/dev/raid/} gives $4" "$4" "$got"
}
limit_min=$(cat /proc/sys/dev/raid/speed_limit_min)
for t in sync_speed_min sync_speed_max; do
	rule md1 "md/$t" 5000 "5000 (local)"
	rule md1 "md/$t" 4294967295 "-1 (local)"
	rule md1 "md/$t" 0 EINVAL
	rule md1 "md/$t" -5 EINVAL
	rule md1 "md/$t" fast EINVAL
done
rule md1 md/sync_speed_min system "$limit_min (system)"
rule md1 /proc/sys/dev/raid/speed_limit_min 1500 1500
vm_expect "md1: an array in system mode follows speed_limit_min" "1500 (system)" "$(md_attr md1 sync_speed_min)"
rule md1 /proc/sys/dev/raid/speed_limit_min fast EINVAL
echo "$limit_min" >/proc/sys/dev/raid/speed_limit_min
rule md1 md/sync_speed_max system "$(cat /proc/sys/dev/raid/speed_limit_max) (system)"
if [ -e /sys/block/md1/md/sync_io_depth ]; then
	rule md1 md/sync_io_depth 4 "4 (local)"
	rule md1 md/sync_io_depth 0 EINVAL
	rule md1 md/sync_io_depth system "$(cat /proc/sys/dev/raid/sync_io_depth) (system)"
fi
rule md1 md/stripe_cache_size 16 EINVAL
rule md1 md/stripe_cache_size 32769 EINVAL
rule md1 md/stripe_cache_size 17 17
rule md1 md/stripe_cache_size 32768 32768
rule md1 md/stripe_cache_size 256 256
rule md0 md/stripe_cache_size 256 ENOENT
rule md1 md/group_thread_cnt 8193 EINVAL
rule md1 md/group_thread_cnt 2 2
rule md1 md/group_thread_cnt 0 0
rule md1 md/sync_max 65536 65536
rule md1 md/sync_max max max
rule md1 md/sync_max fast EINVAL
rule md1 md/sync_min 2048 2048
rule md1 md/sync_min 1001 1000
rule md1 md/sync_max 1001 EINVAL
rule md1 md/sync_max max max
rule md1 md/sync_min fast EINVAL
rule md1 md/sync_min 0 0
rule md1 queue/read_ahead_kb 4096 4096
rule md1 queue/read_ahead_kb fast EINVAL
rule md1 md/sync_action fast EINVAL
rule md1 md/sync_action check check
md_set md1 sync_action idle
vm_wait_for 20 md_idle md1
rule md1 md/sync_speed_min system "$limit_min (system)"
rule md1 md/sync_speed_max system "$(cat /proc/sys/dev/raid/speed_limit_max) (system)"
mdadm --stop /dev/md1 >/dev/null 2>&1

# settings FLOOR CEILING: the resync stopped (frozen), md0's own limits set,
# then started again from its checkpoint, so that md's average starts anew.
settings() {
	md_set md0 sync_action frozen
	vm_wait_for 20 md_not_running md0 || vm_log "the resync did not stop: $(tr '\n' ' ' </proc/mdstat)"
	md_set md0 sync_speed_min "$1"
	md_set md0 sync_speed_max "$2"
	md_set md0 sync_action idle
	vm_wait_for 20 md_running md0 || vm_log "the resync did not start again: $(tr '\n' ' ' </proc/mdstat)"
	sleep 4
}
md_not_running() { ! md_running "$1"; }
# md's position now, KiB: /proc/mdstat's, which follows the resync request by
# request (sync_completed moves only at md's checkpoints, seconds apart).
position() { mdstat_progress md0 | awk '{ print $2 }'; }
# rate SECONDS: the resync's rate over the next SECONDS, KiB/s.
rate() {
	local p0 p1 t0 t1
	p0=$(position)
	t0=$(date +%s.%N)
	sleep "$1"
	p1=$(position)
	t1=$(date +%s.%N)
	awk -v a="${p0:-0}" -v b="${p1:-0}" -v s="$t0" -v e="$t1" 'BEGIN { printf "%d\n", (b - a) / (e - s) }'
}
# near RATE WANT: within 35 % of WANT.
near() { [ "$1" -ge $(($2 * 65 / 100)) ] && [ "$1" -le $(($2 * 135 / 100)) ]; }
# stat_sectors DEVICE: sectors read plus written, as md's users and the members' counters say.
stat_sectors() { awk '{ print $3 + $7 }' "/sys/block/$1/stat"; }

# ---- below the floor no limit, above it the ceiling ----------------------------

settings 8000 1000
md_before=$(stat_sectors md0)
member_before=$(stat_sectors "${d1#/dev/}")
r=$(rate 12)
# At the floor or above it: md's average divides by one second more than it
# measured, so a young average reads low and md runs ahead of it.
vm_check "a floor of 8000 above a ceiling of 1000: md runs at the floor or above ($r KiB/s), not the ceiling" \
	[ "$r" -ge $((8000 * 65 / 100)) ]
vm_expect "md0's stat stands still through the resync (md counts the rebuild on the members)" \
	"$md_before" "$(stat_sectors md0)"
moved=$((($(stat_sectors "${d1#/dev/}") - member_before) / 2))
vm_check "the member being written moved with the resync ($moved KiB)" [ "$moved" -ge $((r * 12 / 2)) ]

settings 1000 4000
r=$(rate 12)
vm_check "floor 1000, ceiling 4000, no users: md keeps the ceiling ($r KiB/s)" near "$r" 4000

settings 6000 6000
r=$(rate 12)
vm_check "floor and ceiling at one rate: md keeps to it ($r KiB/s for 6000)" near "$r" 6000

# ---- users ---------------------------------------------------------------------

# A reader of 4 MB/s leaves the disks room for the floor: what holds the
# resync back then is md's own throttle or nothing. (A reader that takes
# the disks' whole bound holds it back whatever md does: on 6.1 a 4-deep
# one held a raid1 resync at 1234-1459 KiB/s under a floor of 6000.)
settings 6000 200000
md_before=$(stat_sectors md0)
fio --name=reader --filename=/dev/md0 --rw=read --bs=1M --iodepth=4 --ioengine=libaio --direct=1 --rate=4m \
	--offset=1G --time_based --runtime=16 --output-format=terse >"$tmp/fio.out" 2>&1 &
fio_pid=$!
sleep 2
r=$(rate 12)
wait "$fio_pid"
read_kib=$(awk -F';' 'NR == 1 { print $6 }' "$tmp/fio.out")
vm_check "below its floor md does not yield to a 4 MB/s reader: at least 65 % of 6000 ($r KiB/s)" \
	[ "$r" -ge $((6000 * 65 / 100)) ]
users=$((($(stat_sectors md0) - md_before) / 2))
counted() { [ -n "$read_kib" ] && [ "$read_kib" -gt 0 ] && [ "$users" -ge "$read_kib" ]; }
vm_check "md0's stat counts the reader ($users KiB; fio read ${read_kib:-?} KiB)" counted

# ---- md's average --------------------------------------------------------------

# md's speed is what it moved since its oldest of ten marks, taken 3 s apart:
# an average over up to 30 s. It sleeps while that average is above the
# ceiling and runs at the disks' speed while it is not.
settings 10000 10000
sleep 12
before=$(md_attr md0 sync_speed)
md_set md0 sync_speed_min 2000
md_set md0 sync_speed_max 2000
t_low=$(date +%s.%N)
p_low=$(position)
r=$(rate 5)
after=$(md_attr md0 sync_speed)
vm_check "ceiling lowered from 10000 to 2000: md sleeps at once ($r KiB/s over 5 s)" [ "$r" -le 2000 ]
vm_check "and its sync_speed still reads its average ($before, then $after KiB/s)" [ "$after" -ge 4000 ]
# Once the old rate has left its window md runs at the disks' speed until
# its average is back at the ceiling: a burst of a whole window's worth,
# which leaves the window at once 30 s later and is made up by the next
# burst. So after a step down md keeps the new ceiling only on average over
# its window, moving in bursts about 30 s apart, for minutes (from a start
# at one rate it paces itself steadily instead: see "floor and ceiling at
# one rate" above). One sample a second from 40 s after the step to 130 s.
sleep_until() { sleep "$(awk -v t0="$t_low" -v s="$1" -v now="$(date +%s.%N)" 'BEGIN { d = t0 + s - now; print (d > 0 ? d : 0) }')"; }
sleep_until 40
: >"$tmp/samples"
while awk -v t0="$t_low" -v now="$(date +%s.%N)" 'BEGIN { exit !(now - t0 < 130) }'; do
	echo "$(date +%s.%N) $(position) $(md_attr md0 sync_speed)" >>"$tmp/samples"
	sleep 1
done
r=$(awk -v t0="$t_low" -v p0="$p_low" 'END { printf "%d\n", ($2 - p0) / ($1 - t0) }' "$tmp/samples")
speed=$(sort -n -k3 "$tmp/samples" | awk '{ s[NR] = $3 } END { print s[int((NR + 1) / 2)] }')
# Per interval between samples: how many moved nothing, and the fastest rate.
read -r idle steps fastest < <(awk 'NR > 1 { n++; d = $2 - p; if (d <= 0) z++; v = d / ($1 - t); if (v > m) m = v }
	{ t = $1; p = $2 } END { printf "%d %d %d\n", z, n, m }' "$tmp/samples")
vm_log "samples (time, position KiB, sync_speed): $(awk -v t0="$t_low" '{ printf "%.0f:%d:%d ", $1 - t0, $2, $3 }' "$tmp/samples")"
vm_check "over the 130 s after the step md moved about the new ceiling ($r KiB/s)" near "$r" 2000
vm_check "and its sync_speed says so (median $speed KiB/s from 40 s on)" near "$speed" 2000
bursts() { [ "$steps" -ge 20 ] && [ $((idle * 2)) -ge "$steps" ] && [ "$fastest" -ge 4000 ]; }
vm_check "in bursts: $idle of $steps one-second intervals moved nothing, the fastest ran at $fastest KiB/s" bursts

md_stop_all
vm_finish
