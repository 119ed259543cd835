# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# The real collectd daemon with the project's mdraid plugin and the stock csv
# writer, reading every second, for scripts inside the test VM. Sourced after
# lib.sh.

CD_DIR=
CD_PID=
CD_HOST=vm

collectd_log_tail() { tail -n 5 "$CD_DIR/collectd.log" 2>/dev/null; }

# collectd_start DIR: writes a config, starts collectd in the foreground (in
# the background of this shell) and waits for its first values.
collectd_start() {
	CD_DIR=$1
	local so=$VM_BUILD/mdraid.so stock=/usr/lib/collectd
	mkdir -p "$CD_DIR/plugins" "$CD_DIR/csv"
	[ -r "$so" ] || { echo "$so is missing" >"$CD_DIR/collectd.log"; return 1; }
	# LoadPlugin looks in one folder, and only at regular files: the stock
	# plugins and ours are copied side by side.
	cp "$stock/csv.so" "$stock/logfile.so" "$CD_DIR/plugins/"
	cp "$so" "$CD_DIR/plugins/mdraid.so"
	cat >"$CD_DIR/collectd.conf" <<-EOF
		Hostname "$CD_HOST"
		FQDNLookup false
		Interval 1
		BaseDir "$CD_DIR"
		PIDFile "$CD_DIR/collectd.pid"
		PluginDir "$CD_DIR/plugins"
		TypesDB "/usr/share/collectd/types.db"
		LoadPlugin logfile
		<Plugin logfile>
		  LogLevel info
		  File "$CD_DIR/collectd.log"
		  Timestamp true
		</Plugin>
		LoadPlugin csv
		<Plugin csv>
		  DataDir "$CD_DIR/csv"
		  StoreRates false
		</Plugin>
		LoadPlugin mdraid
	EOF
	collectd -f -C "$CD_DIR/collectd.conf" >>"$CD_DIR/collectd.log" 2>&1 &
	CD_PID=$!
	vm_wait_for 15 compgen -G "$CD_DIR/csv/$CD_HOST/mdraid/bytes-speed_limit_min-*" >/dev/null
}

collectd_stop() {
	[ -n "$CD_PID" ] || return 0
	kill "$CD_PID" 2>/dev/null
	wait "$CD_PID" 2>/dev/null
	CD_PID=
}

# collectd_values ARRAY TYPE-INSTANCE SINCE: "EPOCH VALUE" lines the csv
# writer stored for the array since SINCE (seconds).
collectd_values() {
	cat "$CD_DIR/csv/$CD_HOST/mdraid-$1/$2"-* 2>/dev/null |
		awk -F, -v since="$3" '$1 ~ /^[0-9]/ && $1 >= since { print $1, $2 }'
}

# At least two progress values since SINCE, the last above the first.
collectd_progress_moved() {
	collectd_values "$1" percent-sync_progress "$2" |
		awk 'NR == 1 { first = $2 } { last = $2; n++ } END { exit !(n >= 2 && last > first) }'
}

# The last value stored since SINCE, as a number.
collectd_last() { collectd_values "$1" "$2" "$3" | awk 'END { if (NR) print $2 + 0 }'; }

# collectd_check_disks ARRAY SINCE LABEL: the member counts collectd stored
# last (the plugin reads them from /proc/mdstat) are those of the kernel's
# member folders in sysfs, as md-dump counts them.
collectd_check_disks() {
	local md=$1 since=$2 label=$3 want got="" t
	[ -n "$CD_PID" ] || return
	want=$(dump_get "$("$VM_MD_DUMP")" "$md.counts")
	for t in active failed spare missing rebuilding; do
		got="$got${got:+ }$t=$(collectd_last "$md" "md_disks-$t" "$since")"
	done
	vm_expect "$label: collectd member counts are sysfs's" "$want" "$got"
}

collectd_max() { collectd_values "$1" "$2" "$3" | awk 'BEGIN { m = "" } m == "" || $2 > m { m = $2 + 0 } END { print m }'; }

# Each progress value collectd stored must agree with /proc/mdstat's live
# position sampled around it (SAMPLES: "SECONDS DONE TOTAL [COMPLETED]" lines). The
# plugin reads sync_completed, a checkpoint: it leads the live position of the
# next sample by at most LEAD percent (the I/O in flight, which mdstat
# subtracts), and trails the one LAG seconds earlier by at most 1/16 of the
# device (the kernel's checkpoint step).
collectd_agrees_with_mdstat() {
	local md=$1 since=$2 samples=$3 lag=$4 lead=$5
	collectd_values "$md" percent-sync_progress "$since" >"$samples.collectd"
	awk -v lag="$lag" -v lead="$lead" '
		NR == FNR { t[n] = $1; p[n] = $2 * 100 / $3; c[n] = $4; n++; next }
		{
			after = -1; before = 0
			for (i = 0; i < n; i++) {
				if (t[i] >= $1 && after < 0) { after = p[i]; at = i }
				if (t[i] <= $1 - lag) before = p[i]
			}
			if (after < 0) next
			checked++
			if ($2 < before - 6.5 || $2 > after + lead) {
				printf "collectd %.2f%% at %.1f; /proc/mdstat %.2f%% %ss before, %.2f%% after (%.1f, sync_completed %s)\n",
					$2, $1, before, lag, after, t[at], c[at] == "" ? "-" : c[at]
				bad++
			}
		}
		END {
			if (checked < 2) print "only " checked + 0 " values to compare"
			exit !(checked >= 2 && !bad)
		}
	' "$samples" "$samples.collectd"
}

# collectd_check_moving ARRAY ACTION SINCE LABEL: while the operation runs.
collectd_check_moving() {
	local md=$1 action=$2 since=$3 label=$4
	[ -n "$CD_PID" ] || { vm_fail "$label: collectd is not running"; return; }
	vm_check "$label: collectd progress moves" vm_wait_for 15 collectd_progress_moved "$md" "$since"
	vm_expect "$label: collectd reports action_$action" 1 "$(collectd_max "$md" "bool-action_$action" "$since")"
}

# collectd_check_agrees ARRAY SINCE SAMPLES LAG LABEL LEAD: once it finished.
collectd_check_agrees() {
	local md=$1 since=$2 samples=$3 lag=$4 label=$5 lead=$6 why
	[ -n "$CD_PID" ] || return
	if why=$(collectd_agrees_with_mdstat "$md" "$since" "$samples" "$lag" "$lead"); then
		vm_pass "$label: collectd progress agrees with /proc/mdstat"
	else
		vm_fail "$label: collectd progress agrees with /proc/mdstat: $why"
	fi
}
