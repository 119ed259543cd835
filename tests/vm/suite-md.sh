#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM (tests/vm/run-in-vm --disks 6): raid1, raid5, raid6
# and raid10 arrays on the VM's disks run a resync, a check, a recovery and a
# reshape on Debian's real md driver. For each operation, while it runs:
#   - the md model library (through md-dump) reads the same level, action,
#     progress and members as the kernel's sysfs files and /proc/mdstat,
#     bracketed by readings taken just before and just after it, and the
#     slots down it derives from the members are md's own md/degraded;
#     after creation, no bitmap and md/bitmap_type's choice (7.x);
#   - progress moves;
#   - the collectd plugin, loaded by the real collectd, reports the operation
#     with a progress that moves and agrees with /proc/mdstat, and the member
#     counts of the kernel's sysfs (it reads them from /proc/mdstat).
#
# raid1 has no reshape in the kernel: growing it from 2 to 3 members is
# instant and the new member is filled by a recovery, which is what is
# checked for raid1's "grow" step.
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/collectd.sh"

[ -n "${MDBOOST_VM:-}" ] || { echo "suite-md.sh runs inside tests/vm/run-in-vm"; exit 2; }
[ -x "$VM_MD_DUMP" ] || { echo "$VM_MD_DUMP is missing: run make first"; exit 1; }

WORK=$(mktemp -d /tmp/mdboost-suite.XXXXXX)
SAMPLER_PID=

cleanup() {
	[ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null
	collectd_stop
	md_stop_all
}
trap cleanup EXIT

# Records "SECONDS DONE TOTAL COMPLETED" of /proc/mdstat's progress line into
# $1 about every 0.3 s, using shell builtins only: under TCG every fork costs
# more than the sample is worth. COMPLETED is sysfs' sync_completed read just
# before ("DONE/TOTAL" in sectors, no spaces), md's checkpoint beside its live
# position, for a disagreement to show which of the two moved. SECONDS is taken
# before either is read: collectd stamps a value when it dispatches it, after
# the plugin read the checkpoint, so a sample stamped at or after that value
# was read after it. Stamped after the reads instead, a sample could carry a
# live position read before collectd's checkpoint moved (7.x, raid1 recovery:
# mdstat 87.00 % beside a checkpoint of 88.89 % that collectd had read first).
mdstat_sampler() {
	local out=$1 md=$2 line inside re sleeper completed now
	re='= *[0-9.]+% \(([0-9]+)/([0-9]+)\)'
	exec {sleeper}<> <(:)
	while :; do
		inside=0
		now=$EPOCHREALTIME
		completed=
		read -r completed <"/sys/block/$md/md/sync_completed" 2>/dev/null
		while IFS= read -r line; do
			case "$line" in
			"$md : "*) inside=1 ;;
			"") [ $inside = 1 ] && break ;;
			esac
			if [ $inside = 1 ] && [[ $line =~ $re ]]; then
				echo "$now ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${completed// /}" >>"$out"
				break
			fi
		done </proc/mdstat
		read -r -t 0.3 -u "$sleeper"
	done
}

# The model and the kernel, read as close together as possible: each number
# of the model must lie between the kernel's reading just before and just
# after it, since the operation moves on in between.
check_model_agrees() {
	local md=$1 action=$2 word=$3 label=$4
	local sys_a mds_a dump sys_b mds_b v

	sys_a=$(md_sync_done "$md")
	mds_a=$(mdstat_progress "$md")
	dump=$("$VM_MD_DUMP" 2>&1)
	sys_b=$(md_sync_done "$md")
	grep -q "^$md\.level " <<<"$dump" || printf 'md-dump printed:\n%s\n' "$dump"
	mds_b=$(mdstat_progress "$md")

	vm_expect "$label: model level" "$(md_attr "$md" level)" "$(dump_get "$dump" "$md.level")"
	vm_expect "$label: model action" "$action" "$(dump_get "$dump" "$md.action")"
	vm_expect "$label: model progress kind" running "$(dump_get "$dump" "$md.progress")"
	vm_expect "$label: model degraded" "$(md_attr "$md" degraded)" "$(dump_get "$dump" "$md.degraded")"
	# shellcheck disable=SC2012 # counting the kernel's dev-* folders
	vm_expect "$label: model members" "$(ls -d /sys/block/"$md"/md/dev-* | wc -l)" \
		"$(grep -c "^$md\.member\." <<<"$dump")"
	# The plugin counts members from mdstat's flags and map: the same as sysfs.
	vm_expect "$label: member counts from mdstat and from sysfs" \
		"$(dump_get "$dump" "$md.counts")" "$(dump_get "$dump" "$md.mdstat.counts")"
	# The plugin's count-degraded is md's own md/degraded, from either count.
	vm_expect "$label: slots down (mdstat) are md's degraded" \
		"$(md_attr "$md" degraded)" "$(dump_get "$dump" "$md.mdstat.slots_down")"
	vm_expect "$label: slots down (sysfs) are md's degraded" \
		"$(md_attr "$md" degraded)" "$(dump_get "$dump" "$md.slots_down")"
	vm_expect "$label: model sync total" "$(md_sync_total "$md")" "$(dump_get "$dump" "$md.sync_total")"
	v=$(dump_get "$dump" "$md.sync_done")
	vm_check "$label: model sync_completed $v within sysfs [$sys_a, $sys_b]" \
		test -n "$v" -a -n "$sys_a" -a -n "$sys_b" -a "${v:-0}" -ge "${sys_a:-1}" -a "${v:-0}" -le "${sys_b:-0}"
	vm_expect "$label: model mdstat action" "$word" "$(dump_get "$dump" "$md.mdstat.op")"
	vm_expect "$label: model mdstat total" "$(awk '{ print $3 }' <<<"$mds_b")" \
		"$(dump_get "$dump" "$md.mdstat.total_kib")"
	v=$(dump_get "$dump" "$md.mdstat.done_kib")
	# /proc/mdstat shows md's position less the rebuild's I/O still in
	# flight (status_resync()), so it can step back between two readings
	# (seen on 6.1: 4096 KiB, then 4092): the lesser of the two is the low end.
	local lo hi before
	before=$(awk '{ print $2 }' <<<"$mds_a")
	lo=$before hi=$(awk '{ print $2 }' <<<"$mds_b")
	if [ -n "$lo" ] && [ -n "$hi" ] && [ "$hi" -lt "$lo" ]; then
		lo=$hi hi=$before
	fi
	vm_check "$label: model mdstat position $v within /proc/mdstat [$lo, $hi]" \
		test -n "$v" -a -n "$lo" -a -n "$hi" -a "${v:-0}" -ge "${lo:-1}" -a "${v:-0}" -le "${hi:-0}"
}

model_done() { dump_get "$("$VM_MD_DUMP")" "$1.sync_done"; }
model_moved() { local d; d=$(model_done "$1"); [ -n "$d" ] && [ "$d" -gt "$2" ]; }
mdstat_done() { mdstat_progress "$1" | awk '{ print $2 }'; }
mdstat_moved() { local d; d=$(mdstat_done "$1"); [ -n "$d" ] && [ "$d" -gt "$2" ]; }

# observe ARRAY ACTION MDSTAT_WORD LABEL: the operation just started (slowed
# down by md_slow); checks it while it runs, then lets it finish.
observe() {
	local md=$1 action=$2 word=$3 label=$4
	local samples=$WORK/mdstat-$md-$action.samples start d0 m0

	: >"$samples"
	# To the microsecond, as collectd stamps its values: in whole seconds, a
	# value read up to a second before this operation (the last of the one
	# before, or the plugin's 100 % once that one ended) counted as this one's.
	start=$EPOCHREALTIME
	if ! vm_wait_for 20 md_running "$md"; then
		vm_fail "$label: no $word appeared in /proc/mdstat"
		md_wait_idle "$md"
		return
	fi
	vm_expect "$label: sysfs sync_action" "$action" "$(md_attr "$md" sync_action)"
	mdstat_sampler "$samples" "$md" &
	SAMPLER_PID=$!

	# Motion first, while the operation has most of its way to go; a reshape
	# moves faster than the others at the same ceiling.
	d0=$(model_done "$md")
	m0=$(mdstat_done "$md")
	if ! vm_check "$label: /proc/mdstat position moves" vm_wait_for 15 mdstat_moved "$md" "${m0:-0}"; then
		cat /proc/mdstat /proc/loadavg
		grep . /sys/block/"$md"/md/{sync_speed,sync_completed,sync_max,sync_speed_max}
	fi
	vm_check "$label: model progress moves" vm_wait_for 15 model_moved "$md" "${d0:-0}"

	check_model_agrees "$md" "$action" "$word" "$label"

	collectd_check_moving "$md" "$action" "$start" "$label"
	collectd_check_disks "$md" "$start" "$label"

	vm_check "$label: finishes" md_wait_idle "$md"
	kill "$SAMPLER_PID" 2>/dev/null
	wait "$SAMPLER_PID" 2>/dev/null
	SAMPLER_PID=
	# The reshape checkpoint (sync_completed) moves when the critical section
	# needs it or every 10 s; the others every 1/16 of the device.
	# raid10's reshape_request also moves the checkpoint to the end of the
	# window it is about to copy (conf->reshape_progress) before that window's
	# I/O completes, while /proc/mdstat subtracts the I/O in flight: the
	# checkpoint may lead the live position by up to one window.
	local lag=2 lead=0.5
	[ "$action" = reshape ] && lag=12
	[ "$action" = reshape ] && [ "$(md_attr "$md" level)" = raid10 ] && lead=2.5
	collectd_check_agrees "$md" "$start" "$samples" "$lag" "$label" "$lead"
	# Before 6.12, last_sync_action says "recovery" where sync_action said
	# "recover"; since 6.12 both say "recover". A raid10 that grew resyncs its new space right after the reshape
	# (raid10_finish_reshape), so its last action may be that resync.
	local last=$action dump kernel_last model_action=$action
	[ "$action" = recover ] && ! vm_kernel_at_least 6.12 && last=recovery
	kernel_last=$(md_attr "$md" last_sync_action)
	if [ "$action" = reshape ] && [ "$(md_attr "$md" level)" = raid10 ] && [ "$kernel_last" = resync ]; then
		last=resync
		model_action=resync
	fi
	vm_expect "$label: last_sync_action" "$last" "$kernel_last"
	dump=$("$VM_MD_DUMP")
	vm_expect "$label: model sees it idle" none "$(dump_get "$dump" "$md.progress")"
	vm_expect "$label: model last action" "$model_action" "$(dump_get "$dump" "$md.last_action")"
	md_slow
}

# The array was made with --bitmap=none. Where the kernel has md/bitmap_type
# (7.x), the model reads its bracketed choice; the choices it lists say
# whether this kernel was built with the lockless bitmap (CONFIG_MD_LLBITMAP).
check_bitmap() {
	local md=$1 level=$2 dump types want=-
	dump=$("$VM_MD_DUMP")
	vm_expect "$level: model sees no bitmap" no "$(dump_get "$dump" "$md.bitmap")"
	if types=$(cat "/sys/block/$md/md/bitmap_type" 2>/dev/null); then
		want=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' <<<"$types")
		vm_log "$level: md/bitmap_type reads '$types'"
	fi
	vm_expect "$level: model bitmap_type is the kernel's choice" "$want" "$(dump_get "$dump" "$md.bitmap_type")"
}

create_array() {
	local md=$1 level=$2 n=$3 extra=()
	# mdadm builds a new raid5 degraded and recovers onto the last disk;
	# --force makes it a resync like the other levels.
	[ "$level" = raid5 ] && extra+=(--force)
	[ "$level" = raid1 ] || extra+=(--chunk=64)
	# shellcheck disable=SC2046 # vm_disks prints one /dev path per word
	mdadm --create "/dev/$md" --run --quiet --level="$level" --raid-devices="$n" \
		--metadata=1.2 --bitmap=none "${extra[@]}" $(vm_disks 0 "$n") >"$WORK/mdadm.log" 2>&1
}

scenario() {
	local level=$1 n=$2 md=md0
	local victim spare
	victim=$(vm_disk 1)
	spare=$(vm_disk "$n")

	vm_log "$level: $n members"
	md_slow
	if ! create_array "$md" "$level" "$n"; then
		vm_fail "$level: mdadm --create: $(cat "$WORK/mdadm.log")"
		return
	fi
	vm_pass "$level: created on $(vm_disks 0 "$n" | xargs)"
	check_bitmap "$md" "$level"
	observe "$md" resync resync "$level resync"

	md_set "$md" sync_action check
	observe "$md" check check "$level check"

	mdadm "/dev/$md" --fail "$victim" --remove "$victim" >"$WORK/mdadm.log" 2>&1
	mdadm --zero-superblock "$victim" >>"$WORK/mdadm.log" 2>&1
	if mdadm "/dev/$md" --add "$victim" >>"$WORK/mdadm.log" 2>&1; then
		vm_wait_for 10 md_running "$md"
		vm_expect "$level recovery: model role of ${victim#/dev/}" rebuilding \
			"$(dump_get "$("$VM_MD_DUMP")" "$md.member.${victim#/dev/}" | awk '{ print $1 }')"
		observe "$md" recover recovery "$level recovery"
	else
		vm_fail "$level recovery: mdadm: $(cat "$WORK/mdadm.log")"
	fi

	if ! mdadm "/dev/$md" --add "$spare" >"$WORK/mdadm.log" 2>&1 ||
		! mdadm --grow "/dev/$md" --raid-devices=$((n + 1)) \
			--backup-file="$WORK/$md-$level-grow.backup" >>"$WORK/mdadm.log" 2>&1; then
		vm_fail "$level grow to $((n + 1)): mdadm: $(cat "$WORK/mdadm.log")"
	elif [ "$level" = raid1 ]; then
		observe "$md" recover recovery "$level grow (recovery onto the new member)"
	else
		vm_wait_for 10 md_running "$md"
		vm_expect "$level reshape: model raid_disks new and old" "$((n + 1)) $n" \
			"$(dump_get "$("$VM_MD_DUMP")" "$md.raid_disks")"
		observe "$md" reshape reshape "$level reshape"
	fi
	# mdadm --grow leaves a helper watching the reshape; it exits with it.
	vm_wait_for 20 sh -c '! pgrep -f "[m]dadm --grow" >/dev/null'
	md_stop_all
}

collectd_start "$WORK/collectd" || vm_fail "collectd starts with the mdraid plugin: $(collectd_log_tail)"

# Members of each level's array; one more disk is needed for the grow.
declare -A MEMBERS=([raid1]=2 [raid5]=3 [raid6]=4 [raid10]=4)
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(raid1 raid5 raid6 raid10)
for level in "${levels[@]}"; do
	scenario "$level" "${MEMBERS[$level]}"
done

vm_finish
