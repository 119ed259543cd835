#!/bin/bash
# Runs Debian's collectd daemon, unprivileged, with `LoadPlugin mdraid` from
# build/ and RootDir at a tree assembled from the real sysfs snapshots in
# tests/fixtures/, and checks the values in collectd's own CSV files:
#
#   md0   raid5 recovery (03-raid5-recovery); rewritten later: progress moves
#   md1   raid6 reshape (09-raid6-reshape)
#   md10  raid1 resync, md11 the raid1 waiting for it: DELAYED
#   md2   degraded raid5, idle         md3   raid0
#   md4   raid5 with a failed member    md5   raid5, a replacement being rebuilt
#   md6   garbage in sync_speed: one warning, the rest still reported
#   md7   vanishes after the first interval; md8 appears after it
#
# proc/mdstat lists them all, as the kernel would: the members come from it.
#
# Run from the top folder: tests/integration/plugin-collectd.sh
set -euo pipefail

top=$(pwd)
fixtures=$top/tests/fixtures
plugin=$top/build/mdraid.so

skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

command -v collectd >/dev/null || skip "collectd is not installed (apt-get install collectd-core)"
[ -f /usr/lib/collectd/csv.so ] || skip "collectd's csv plugin is missing (collectd-core)"
[ -f "$plugin" ] || fail "$plugin is not built (run make)"

tmp=$(mktemp -d /tmp/mdraid-collectd.XXXXXX)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		wait "$pid" 2>/dev/null || true
	fi
	# KEEP=1 keeps collectd's output and log for a look after a failure.
	if [ -n "${KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# --- the root: one tree, one array per case --------------------------------

root=$tmp/root
cp -a "$fixtures/03-raid5-recovery" "$root"
blk=$root/sys/block

add_array() { # add_array FIXTURE SOURCE-NAME NEW-NAME
	cp -a "$fixtures/$1/sys/block/$2" "$blk/$3"
}
put() { # put FILE TEXT: replaced whole, as the kernel's attributes change
	printf '%s\n' "$2" >"$1.new"
	mv "$1.new" "$1"
}
make_idle() {
	put "$1/md/sync_action" idle
	put "$1/md/sync_completed" none
	put "$1/md/sync_speed" none
}

add_array 09-raid6-reshape md0 md1
add_array 10-two-raid1-resync-delayed md10 md10
add_array 10-two-raid1-resync-delayed md11 md11

add_array 03-raid5-recovery md0 md2 # degraded, idle: vdd gone
make_idle "$blk/md2"
rm -rf "$blk/md2/md/dev-vdd" "$blk/md2/md/rd3"
# Members come from mdstat: a garbled member state in sysfs is never read,
# so it draws no warning (checked at the end).
put "$blk/md2/md/dev-vda/state" "in_sync?"

add_array 03-raid5-recovery md0 md3 # raid0: the kernel has no sync files for it
(cd "$blk/md3/md" && rm -rf sync_action last_sync_action sync_completed sync_speed \
	sync_speed_min sync_speed_max sync_min sync_max mismatch_cnt sync_force_parallel \
	stripe_cache_size stripe_cache_active group_thread_cnt degraded bitmap)
put "$blk/md3/md/level" raid0
put "$blk/md3/md/dev-vdd/state" in_sync
put "$blk/md3/md/dev-vdd/recovery_start" none

add_array 03-raid5-recovery md0 md4 # vdd failed: faulty, its slot dropped
make_idle "$blk/md4"
put "$blk/md4/md/dev-vdd/state" faulty
put "$blk/md4/md/dev-vdd/slot" none
put "$blk/md4/md/dev-vdd/recovery_start" none
rm -f "$blk/md4/md/rd3"

add_array 03-raid5-recovery md0 md5 # vde being rebuilt to replace vdb in slot 1
put "$blk/md5/md/dev-vdd/state" in_sync
put "$blk/md5/md/dev-vdd/recovery_start" none
put "$blk/md5/md/degraded" 0
put "$blk/md5/md/dev-vdb/state" in_sync,want_replacement
cp -a "$blk/md5/md/dev-vdd" "$blk/md5/md/dev-vde"
put "$blk/md5/md/dev-vde/state" spare,replacement
put "$blk/md5/md/dev-vde/slot" 1
put "$blk/md5/md/dev-vde/recovery_start" 261648

add_array 10-two-raid1-resync-delayed md10 md6
put "$blk/md6/md/sync_speed" fast
add_array 10-two-raid1-resync-delayed md10 md7
add_array 10-two-raid1-resync-delayed md10 md8.later
mv "$blk/md8.later" "$root/md8.later"

# /proc/mdstat, where the plugin reads the members: what the kernel would
# print for the arrays above, taking each snapshot's own block where the
# array is a copy of one. ARRAYS names the copies of 10's md10 to list.
block() { # block FIXTURE ARRAY [NEW-NAME]: the array's lines in a snapshot's mdstat
	awk -v md="$2" -v as="${3:-$2}" '
		$1 == md && $2 == ":" { on = 1; sub("^" md " ", as " ") }
		on && /^$|^ *$/ { print; on = 0; next }
		on && /^[a-z]/ && $1 != as { on = 0 }
		on { print }
	' "$fixtures/$1/proc/mdstat"
}
raid5() { # raid5 NAME MEMBERS MAP [PROGRESS]: an array copied from 03's md0
	printf '%s : active raid5 %s\n      3139584 blocks super 1.2 level 5, 512k chunk, algorithm 2 %s\n' \
		"$1" "$2" "$3"
	[ -z "${4:-}" ] || printf '      %s\n' "$4"
	printf '      \n'
}
write_mdstat() { # write_mdstat COPIES-OF-MD10...
	local md
	{
		head -n 1 "$fixtures/03-raid5-recovery/proc/mdstat"
		block 03-raid5-recovery md0
		block 09-raid6-reshape md0 md1
		block 10-two-raid1-resync-delayed md11
		block 10-two-raid1-resync-delayed md10
		raid5 md2 "vdc[2] vdb[1] vda[0]" "[4/3] [UUU_]"
		printf 'md3 : active raid0 vdd[4] vdc[2] vdb[1] vda[0]\n      4186112 blocks super 1.2 512k chunks\n      \n'
		raid5 md4 "vdd[4](F) vdc[2] vdb[1] vda[0]" "[4/3] [UUU_]"
		raid5 md5 "vde[5](R) vdd[4] vdc[2] vdb[1] vda[0]" "[4/4] [UUUU]" \
			"[==>..................]  recovery = 12.5% (130824/1046528) finish=1.4min speed=10301K/sec"
		for md in "$@"; do block 10-two-raid1-resync-delayed md10 "$md"; done
		echo "unused devices: <none>"
	} >"$root/proc/mdstat.new"
	mv "$root/proc/mdstat.new" "$root/proc/mdstat"
}
write_mdstat md6 md7

# --- collectd, as nobody when run as root ------------------------------------

out=$tmp/out
plugins=$tmp/plugins
mkdir -p "$out" "$plugins"
# PluginDir is global: give collectd a folder holding just the plugins it needs.
# Copies, not symlinks: collectd's plugin_load() refuses anything but a regular file.
cp /usr/lib/collectd/csv.so /usr/lib/collectd/logfile.so "$plugin" "$plugins/"
cat >"$tmp/collectd.conf" <<EOF
Hostname "mdtest"
FQDNLookup false
BaseDir "$out"
PIDFile "$out/collectd.pid"
PluginDir "$plugins"
Interval 1
LoadPlugin logfile
<Plugin logfile>
	LogLevel info
	File "$out/collectd.log"
	Timestamp false
	PrintSeverity true
</Plugin>
LoadPlugin csv
<Plugin csv>
	DataDir "$out/csv"
</Plugin>
LoadPlugin mdraid
<Plugin mdraid>
	RootDir "$root"
</Plugin>
EOF

run=()
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || skip "setpriv is missing (util-linux)"
	chmod 755 "$tmp"
	chmod -R a+rX "$tmp"
	chown -R 65534:65534 "$out"
	run=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
fi
"${run[@]}" collectd -f -C "$tmp/collectd.conf" >"$tmp/stderr" 2>&1 &
pid=$!

csv=$out/csv/mdtest

# values FILE-STEM: every value collectd wrote for mdraid-INSTANCE/TYPE-TI, oldest first
values() {
	cat "$csv/$1"-[0-9]* 2>/dev/null | grep -v '^epoch' | cut -d, -f2 || true
}
last() { values "$1" | tail -n 1; }
wait_for() { # wait_for WHAT COMMAND...: up to 20 s
	local what=$1
	shift
	for _ in $(seq 200); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || { cat "$tmp/stderr" "$out/collectd.log" >&2; fail "collectd exited while waiting for $what"; }
		sleep 0.1
	done
	cat "$out/collectd.log" >&2 || true
	fail "timed out waiting for $what"
}
have_lines() { [ "$(values "$1" | wc -l)" -ge "$2" ]; }
checks=0
expect() { # expect STEM WANT [TOLERANCE]
	local got
	got=$(last "$1")
	[ -n "$got" ] || fail "$1: no value written"
	awk -v g="$got" -v w="$2" -v t="${3:-0.000001}" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "$1 = $got, want $2"
	checks=$((checks + 1))
}
expect_none() {
	[ -z "$(values "$1")" ] || fail "$1 was written: $(last "$1")"
	checks=$((checks + 1))
}
expect_actions() { # expect_actions INSTANCE RUNNING DELAYED
	local a
	for a in resync recover check repair reshape; do
		expect "mdraid-$1/bool-action_$a" "$([ "$a" = "$2" ] && echo 1 || echo 0)"
	done
	expect "mdraid-$1/bool-sync_delayed" "$3"
}
expect_disks() { # expect_disks INSTANCE ACTIVE FAILED SPARE MISSING REBUILDING
	expect "mdraid-$1/md_disks-active" "$2"
	expect "mdraid-$1/md_disks-failed" "$3"
	expect "mdraid-$1/md_disks-spare" "$4"
	expect "mdraid-$1/md_disks-missing" "$5"
	expect "mdraid-$1/md_disks-rebuilding" "$6"
}

wait_for "the first interval" have_lines mdraid-md0/percent-sync_progress 1
uid=$(ps -o uid= -p "$pid" | tr -d ' ')
[ "$uid" -ne 0 ] || fail "collectd runs as root; the test is about an unprivileged collectd"

# Between intervals: md7 is stopped, md8 is assembled, md0's recovery moves on.
rm -rf "$blk/md7"
mv "$root/md8.later" "$blk/md8"
write_mdstat md6 md8
# The kernel moves mdstat's live position with the checkpoint: the plugin
# takes a checkpoint far ahead of it for a stale one.
sed -i 's|recovery =  6\.3% (66652/1046528)|recovery = 50.2% (525312/1046528)|' "$root/proc/mdstat"
grep -q 'recovery = 50.2%' "$root/proc/mdstat" || fail "md0's progress line is not where the test expects it"
put "$blk/md0/md/sync_completed" "1046528 / 2093056"
wait_for "md0's progress to reach 50 %" \
	sh -c "cat '$csv'/mdraid-md0/percent-sync_progress-[0-9]* | tail -n 1 | grep -q ',50\.0*$'"
wait_for "md8's values" have_lines mdraid-md8/md_disks-active 1
wait_for "three more intervals" have_lines mdraid-md0/percent-sync_progress 4
kill -0 "$pid" || fail "collectd died"

# md0: raid5 recovery. sync_completed 261648 / 2093056 sectors, then 1046528 / 2093056.
first=$(values mdraid-md0/percent-sync_progress | head -n 1)
awk -v f="$first" 'BEGIN { exit !(f > 12.50 && f < 12.51) }' || fail "md0 progress started at $first, want 12.5"
expect mdraid-md0/percent-sync_progress 50
expect mdraid-md0/duration-sync_remaining 50.8 1   # 1046528 sectors left at 10301 KiB/s
expect mdraid-md0/bytes-sync_speed $((10301 * 1024))
expect mdraid-md0/bytes-sync_speed_min $((1000 * 1024))
expect mdraid-md0/bytes-sync_speed_max $((10000 * 1024))
expect_actions md0 recover 0
expect_disks md0 3 0 0 0 1
expect mdraid-md0/count-mismatch_cnt 0
expect mdraid-md0/count-stripe_cache_size 256
expect mdraid-md0/count-stripe_cache_active 0
expect mdraid-md0/bytes-read_ahead $((3072 * 1024))

# Global limits, with an empty plugin instance: the folder is plain "mdraid".
expect mdraid/bytes-speed_limit_min $((1000 * 1024))
expect mdraid/bytes-speed_limit_max $((10000 * 1024))

# md1: raid6 reshape from 4 to 5 members.
expect mdraid-md1/percent-sync_progress "$(awk 'BEGIN { print 100 * 325632 / 2093056 }')" 0.0001
expect_actions md1 reshape 0
expect_disks md1 5 0 0 0 0
expect mdraid-md1/count-stripe_cache_size 513
expect mdraid-md1/bytes-sync_speed_min 0

# md10 resyncs; md11 waits for it (DELAYED): no progress to draw, a gap.
expect mdraid-md10/percent-sync_progress "$(awk 'BEGIN { print 100 * 204800 / 817152 }')" 0.0001
expect_actions md10 resync 0
expect_actions md11 resync 1
expect_none mdraid-md11/percent-sync_progress
expect_none mdraid-md11/duration-sync_remaining
expect_none mdraid-md11/count-stripe_cache_size

# md2: degraded and idle.
expect_disks md2 3 0 0 1 0
expect_actions md2 none 0
expect_none mdraid-md2/percent-sync_progress
expect_none mdraid-md2/bytes-sync_speed
expect mdraid-md2/bytes-sync_speed_min $((1000 * 1024))

# md3: raid0 reports its disks only.
files=$(find "$csv/mdraid-md3" -mindepth 1 -maxdepth 1 -printf '%f\n' | sed 's/-[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]$//' | sort -u | tr '\n' ' ')
[ "$files" = "md_disks-active md_disks-failed md_disks-missing md_disks-rebuilding md_disks-spare " ] ||
	fail "raid0 md3 wrote: $files"
expect_disks md3 4 0 0 0 0

# md4: failed member; md5: replacement in progress.
expect_disks md4 3 1 0 1 0
expect_disks md5 4 0 0 0 1
expect_actions md5 recover 0

# md6: garbage sync_speed is skipped and logged once; the rest is reported.
expect_none mdraid-md6/bytes-sync_speed
expect mdraid-md6/percent-sync_progress "$(awk 'BEGIN { print 100 * 204800 / 817152 }')" 0.0001
n=$(grep -c 'mdraid: md6: cannot read or parse md/sync_speed' "$out/collectd.log" || true)
[ "$n" -eq 1 ] || fail "md6's bad sync_speed was logged $n times, want once"

# md7 went away (logged once, no more values); md8 was picked up without a restart.
n=$(grep -c 'mdraid: md7 is gone' "$out/collectd.log" || true)
[ "$n" -eq 1 ] || fail "md7's disappearance was logged $n times, want once"
n7=$(values mdraid-md7/md_disks-active | wc -l)
sleep 1.5
[ "$(values mdraid-md7/md_disks-active | wc -l)" -eq "$n7" ] || fail "md7 is still reported"
grep -q 'mdraid: md8 appeared' "$out/collectd.log" || fail "md8's arrival was not logged"
expect_actions md8 resync 0

# The plugin never failed a read, and logged nothing else as a warning or error.
if grep -q "read-function of plugin .mdraid. failed" "$out/collectd.log"; then
	fail "collectd suspended the plugin: $(grep mdraid "$out/collectd.log")"
fi
bad=$(grep -iE '^\[?(warning|error)' "$out/collectd.log" | grep -v 'md6: cannot read or parse md/sync_speed' || true)
[ -z "$bad" ] || fail "unexpected warnings: $bad"

echo "collectd $(collectd -h | sed -n 's/^collectd \([0-9.]*[0-9]\).*/\1/p') ran as uid $uid: $checks values checked"
