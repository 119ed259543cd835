# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Shared harness for tests that talk to mdboostd over D-Bus: a private
# system-like bus, Debian's polkitd on it, and the service on a copy of a
# fixture root, all inside one temporary folder that is removed on exit.
#
#   . tests/integration/service-lib.sh
#   mdb_init                         # temp dir, traps, test users, tools check
#   mdb_use_fixture 03-raid5-recovery
#   mdb_start_bus
#   mdb_start_polkit                 # --grant-group: the test group may boost/restore
#   mdb_start_service                # build/tests/mdboostd-fakekernel on the root
#   mdb_call root Boost ssa{sv} md0 fast 0      # Manager method, as root
#                                    # (USER: as that user; root@USER: root in USER's login)
#   mdb_expect_ok "root may boost"
#   mdb_finish                       # summary; exit status 1 on any FAIL
#
# Every check prints one PASS or FAIL line. Nothing is left behind: the EXIT
# trap stops every process it started and removes the folder and anything it
# installed for the run, on every exit path.
#
# polkitd 122 has no option for its actions and rules folders. The harness
# runs it in a private mount namespace where /usr/share/polkit-1/actions,
# /usr/share/polkit-1/rules.d and /etc/polkit-1/rules.d are bind mounts of
# folders in the temp dir, so the host's polkit is never touched. Where mount
# namespaces are not allowed (some containers), or MDB_NO_UNSHARE=1, it
# installs the project's .policy and the test rule into the host folders for
# the run instead and removes them again in the EXIT trap.

# One collation for every sort and comparison, whatever the caller's locale.
export LC_ALL=C

MDB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MDB_FIXTURES=$MDB_TOP/tests/fixtures
MDB_SERVICE_BIN=${MDB_SERVICE_BIN:-$MDB_TOP/build/tests/mdboostd-fakekernel}

MDB_BUS_NAME=org.mdboost.MdBoost1
MDB_OBJ=/org/mdboost/MdBoost1
MDB_MANAGER=org.mdboost.MdBoost1.Manager
MDB_ARRAY=org.mdboost.MdBoost1.Array
MDB_ERR_PREFIX=org.mdboost.MdBoost1.Error

# Test accounts, created when missing and kept (other runs may be using them).
MDB_GROUP=mdboost-test
MDB_ADMIN=mdboost-tadmin # member of MDB_GROUP
MDB_USER=mdboost-tuser   # no special group

MDB_FAILED=0
MDB_PASSED=0
MDB_TMP=
MDB_ROOT=
MDB_STATE=
MDB_ADDRESS=
MDB_BUS_PID=
MDB_POLKIT_PID=
MDB_MONITOR_PID=
MDB_SERVICE_PID=
MDB_SERVICE_UNIQUE=
MDB_SIGNAL_PID=
MDB_PIDS=() # more background processes a test started (mdb_track_pid)
MDB_INSTALLED=()
MDB_POLKITD=
MDB_POLKIT_RULES=

mdb_log() { printf '%s\n' "$*" >&2; }
mdb_pass() { MDB_PASSED=$((MDB_PASSED + 1)); printf 'PASS: %s\n' "$*"; }
mdb_fail() { MDB_FAILED=$((MDB_FAILED + 1)); printf 'FAIL: %s\n' "$*"; }

# mdb_check DESCRIPTION COMMAND...: PASS if the command succeeds.
mdb_check() {
	local desc=$1
	shift
	if "$@"; then mdb_pass "$desc"; else mdb_fail "$desc"; fi
}

# Exit 77 (skipped) with the reason on the last line, as tests/run-suite expects.
mdb_skip() {
	printf 'skipped: %s\n' "$*"
	exit 77
}

mdb_finish() {
	printf '%d passed, %d failed\n' "$MDB_PASSED" "$MDB_FAILED"
	[ "$MDB_FAILED" -eq 0 ] && [ "$MDB_PASSED" -gt 0 ] || exit 1
	exit 0
}

mdb_find_polkitd() {
	local p
	for p in /usr/lib/polkit-1/polkitd /usr/libexec/polkitd /usr/libexec/polkit-1/polkitd; do
		if [ -x "$p" ]; then
			MDB_POLKITD=$p
			return 0
		fi
	done
	return 1
}

mdb_require_tools() {
	[ "$(id -u)" -eq 0 ] || mdb_skip "needs root: it starts polkitd and switches to test users"
	local t
	for t in dbus-daemon dbus-monitor busctl setpriv jq useradd groupadd; do
		command -v "$t" >/dev/null || mdb_skip "$t is missing (make deps installs it)"
	done
	mdb_find_polkitd || mdb_skip "polkitd is missing (make deps installs it)"
	if [ ! -x "$MDB_SERVICE_BIN" ]; then
		mdb_log "$MDB_SERVICE_BIN is missing: run make first"
		exit 1
	fi
}

# Creates the test group and users if they do not exist yet. Another run may
# create them at the same moment, so success is judged by looking them up.
mdb_ensure_users() {
	# Tests run side by side (tests/run-suite): one creates the users while
	# the others wait, or two useradd calls race for /etc/passwd's lock.
	local lock
	exec {lock}>/tmp/mdboost-test-users.lock
	flock "$lock"
	getent group "$MDB_GROUP" >/dev/null || groupadd --system "$MDB_GROUP" 2>/dev/null
	getent passwd "$MDB_ADMIN" >/dev/null ||
		useradd --system --no-create-home --shell /usr/sbin/nologin \
			--groups "$MDB_GROUP" "$MDB_ADMIN" 2>/dev/null
	getent passwd "$MDB_USER" >/dev/null ||
		useradd --system --no-create-home --shell /usr/sbin/nologin "$MDB_USER" 2>/dev/null
	getent group "$MDB_GROUP" >/dev/null && getent passwd "$MDB_ADMIN" >/dev/null &&
		getent passwd "$MDB_USER" >/dev/null || {
		mdb_log "cannot create the test users $MDB_ADMIN and $MDB_USER"
		exit 1
	}
	# An older run may have created the user before the group existed.
	id -nG "$MDB_ADMIN" | grep -qw "$MDB_GROUP" || usermod -a -G "$MDB_GROUP" "$MDB_ADMIN"
	exec {lock}>&-
}

# mdb_track_pid PID: a background process of the test, killed on exit.
mdb_track_pid() { MDB_PIDS+=("$1"); }

mdb_cleanup() {
	local rc=$?
	local pid f
	for pid in "${MDB_PIDS[@]}" "$MDB_SERVICE_PID" "$MDB_SIGNAL_PID" "$MDB_MONITOR_PID" "$MDB_POLKIT_PID" \
		"$MDB_BUS_PID"; do
		[ -n "$pid" ] || continue
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	for f in "${MDB_INSTALLED[@]}"; do
		rm -f -- "$f"
	done
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -n "$MDB_TMP" ]; then
		for f in service polkit bus; do
			[ -s "$MDB_TMP/$f.log" ] || continue
			printf -- '--- %s.log (last lines)\n' "$f"
			tail -n 25 "$MDB_TMP/$f.log"
		done
	fi
	[ -n "$MDB_TMP" ] && rm -rf -- "$MDB_TMP"
	exit "$rc"
}

mdb_init() {
	mdb_require_tools
	mdb_ensure_users
	# polkitd and the test users read what the harness writes, whatever the caller's umask.
	umask 022
	MDB_TMP=$(mktemp -d /tmp/mdboost-test.XXXXXX) || exit 1
	# polkitd (user polkitd) and the test users must reach the bus socket inside.
	chmod 0755 "$MDB_TMP"
	trap mdb_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	MDB_STATE=$MDB_TMP/state
	mkdir -m 0700 "$MDB_STATE"
	# Rules may be added before polkitd starts: its rules folder exists from now on.
	if mdb_can_unshare; then
		MDB_POLKIT_RULES=$MDB_TMP/polkit/etc-rules
		mkdir -p "$MDB_POLKIT_RULES"
	fi
}

# A MemTotal the memory budget can be computed from: 4 GiB.
mdb_write_meminfo() {
	cat >"$1/proc/meminfo" <<-'EOF'
		MemTotal:        4194304 kB
		MemFree:         3145728 kB
		MemAvailable:    3670016 kB
		Buffers:           65536 kB
		Cached:           524288 kB
	EOF
}

# mdb_use_fixture NAME: copies tests/fixtures/NAME to the root the service reads.
mdb_use_fixture() {
	MDB_ROOT=$MDB_TMP/root
	rm -rf -- "$MDB_ROOT"
	cp -a "$MDB_FIXTURES/$1" "$MDB_ROOT" || exit 1
	[ -e "$MDB_ROOT/proc/meminfo" ] || mdb_write_meminfo "$MDB_ROOT"
}

mdb_write_bus_config() {
	cat >"$MDB_TMP/bus.conf" <<-EOF
		<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
		 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
		<busconfig>
		  <type>system</type>
		  <auth>EXTERNAL</auth>
		  <listen>unix:path=$MDB_TMP/system_bus_socket</listen>
		  <!-- The default policy of Debian's /usr/share/dbus-1/system.conf. -->
		  <policy context="default">
		    <allow user="*"/>
		    <deny own="*"/>
		    <deny send_type="method_call"/>
		    <allow send_type="signal"/>
		    <allow send_requested_reply="true" send_type="method_return"/>
		    <allow send_requested_reply="true" send_type="error"/>
		    <allow receive_type="method_call"/>
		    <allow receive_type="method_return"/>
		    <allow receive_type="error"/>
		    <allow receive_type="signal"/>
		    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
		    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
		    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
		    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"
		          send_member="UpdateActivationEnvironment"/>
		    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Debug.Stats"/>
		  </policy>
		  <policy user="root">
		    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
		  </policy>
		  <include>/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf</include>
		  <include>$MDB_TOP/policy/org.mdboost.MdBoost1.conf</include>
		  ${MDB_BUS_EXTRA:-}
		</busconfig>
	EOF
}

# mdb_wait_for SECONDS COMMAND...: polls every 0.1 s until the command succeeds.
# shellcheck source=tests/wait-for.sh
. "$MDB_TOP/tests/wait-for.sh"
mdb_wait_for() { poll $(($1 * 10)) 0.1 "${@:2}"; }

mdb_has_owner() {
	local out
	out=$(busctl --address="$MDB_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus NameHasOwner s "$1" 2>/dev/null) || return 1
	[ "$out" = "b true" ]
}

mdb_name_owner() {
	busctl --address="$MDB_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus GetNameOwner s "$1" 2>/dev/null | sed -n 's/^s "\(.*\)"$/\1/p'
}

# Starts dbus-daemon on a socket in the temp dir (MDB_BUS_EXTRA: more XML for
# its configuration, such as a <servicedir>) and exports its address as the
# system bus for everything started afterwards (busctl, polkitd, the service).
# A root-only dbus-monitor records every error reply, so tests can assert the
# D-Bus error name that busctl does not print.
mdb_start_bus() {
	mdb_write_bus_config
	dbus-daemon --config-file="$MDB_TMP/bus.conf" --nofork --print-address=3 \
		3>"$MDB_TMP/bus.address" >"$MDB_TMP/bus.log" 2>&1 &
	MDB_BUS_PID=$!
	mdb_wait_for 10 test -s "$MDB_TMP/bus.address" || {
		mdb_log "dbus-daemon did not start"
		exit 1
	}
	MDB_ADDRESS=$(head -n 1 "$MDB_TMP/bus.address")
	export DBUS_SYSTEM_BUS_ADDRESS=$MDB_ADDRESS
	dbus-monitor --address "$MDB_ADDRESS" "type='error'" >"$MDB_TMP/errors.log" 2>&1 &
	MDB_MONITOR_PID=$!
	mdb_wait_for 5 grep -qs NameAcquired "$MDB_TMP/errors.log" ||
		mdb_wait_for 5 test -s "$MDB_TMP/errors.log"
}

# True when polkitd can get a private mount namespace with bind mounts: some
# containers refuse unshare(CLONE_NEWNS) or mount(2) even to root.
mdb_can_unshare() {
	[ "${MDB_NO_UNSHARE:-0}" != 1 ] &&
		unshare --mount --propagation private -- \
			mount --bind /usr/share/polkit-1/actions /usr/share/polkit-1/actions 2>/dev/null
}

mdb_polkit_rule() {
	cat <<-EOF
		// Test rule: members of $MDB_GROUP may boost and restore without authentication.
		polkit.addRule(function(action, subject) {
		    if ((action.id == "org.mdboost.MdBoost1.boost" ||
		         action.id == "org.mdboost.MdBoost1.restore") &&
		        subject.isInGroup("$MDB_GROUP"))
		        return polkit.Result.YES;
		});
	EOF
}

# mdb_add_polkit_rule NAME < RULE: installs a rules file (JavaScript on stdin;
# not at the end of a pipe, whose subshell would forget what to remove)
# for the test's polkitd, which watches its rules folders and reloads them.
mdb_add_polkit_rule() {
	local f
	if [ -n "$MDB_POLKIT_RULES" ]; then
		f=$MDB_POLKIT_RULES/$1.rules
	else
		f=/etc/polkit-1/rules.d/$1-$$.rules
		MDB_INSTALLED+=("$f")
	fi
	cat >"$f.tmp" || return 1
	chown polkitd "$f.tmp" 2>/dev/null
	mv "$f.tmp" "$f"
}

# mdb_grant_group: installs the rule letting MDB_GROUP boost and restore.
mdb_grant_group() { mdb_add_polkit_rule 10-mdboost-test < <(mdb_polkit_rule); }

# mdb_start_polkit [--grant-group]: Debian's polkitd on the private bus, with
# the project's .policy among its actions.
mdb_start_polkit() {
	local pk=$MDB_TMP/polkit
	if [ -n "$MDB_POLKIT_RULES" ]; then
		mkdir -p "$pk/actions" "$pk/share-rules"
		cp /usr/share/polkit-1/actions/*.policy "$pk/actions/" 2>/dev/null
		cp "$MDB_TOP/policy/org.mdboost.MdBoost1.policy" "$pk/actions/"
		cp /usr/share/polkit-1/rules.d/*.rules "$pk/share-rules/" 2>/dev/null
		[ "${1:-}" = --grant-group ] && mdb_grant_group
		chown -R polkitd "$pk" 2>/dev/null
		# polkitd changes to user polkitd by itself once started as root.
		unshare --mount --propagation private -- sh -c '
			mount --bind "$1/actions" /usr/share/polkit-1/actions &&
			mount --bind "$1/share-rules" /usr/share/polkit-1/rules.d &&
			mount --bind "$1/etc-rules" /etc/polkit-1/rules.d &&
			exec "$2" --no-debug' sh "$pk" "$MDB_POLKITD" >"$MDB_TMP/polkit.log" 2>&1 &
		MDB_POLKIT_PID=$!
	else
		local f=/usr/share/polkit-1/actions/org.mdboost.MdBoost1.test-$$.policy
		MDB_INSTALLED+=("$f")
		cp "$MDB_TOP/policy/org.mdboost.MdBoost1.policy" "$f"
		[ "${1:-}" = --grant-group ] && mdb_grant_group
		"$MDB_POLKITD" --no-debug >"$MDB_TMP/polkit.log" 2>&1 &
		MDB_POLKIT_PID=$!
	fi
	mdb_wait_for 10 mdb_has_owner org.freedesktop.PolicyKit1 || {
		mdb_log "polkitd did not take its name on the bus"
		exit 1
	}
	MDB_POLKIT_UNIQUE=$(mdb_name_owner org.freedesktop.PolicyKit1)
}

# mdb_start_service [ARGS...]: the fake-kernel service on MDB_ROOT, waits for its name.
# Extra environment (MDBOOST_FAKEKERNEL_FAIL=...) may be set in MDB_SERVICE_ENV.
mdb_start_service() {
	# shellcheck disable=SC2086 # NAME=VALUE words
	# The policies set over D-Bus, the reports and the settings stay in the test's folder, never in the host's /var/lib.
	env ${MDB_SERVICE_ENV:-} "$MDB_SERVICE_BIN" --root "$MDB_ROOT" --state-dir "$MDB_STATE" \
		--policy-file "$MDB_TMP/policy.conf" --report-file "$MDB_TMP/reports.json" --settings-dir "$MDB_TMP/settings" \
		"$@" >>"$MDB_TMP/service.log" 2>&1 &
	MDB_SERVICE_PID=$!
	if ! mdb_wait_for 10 mdb_has_owner "$MDB_BUS_NAME"; then
		mdb_log "mdboostd did not take $MDB_BUS_NAME"
		exit 1
	fi
	MDB_SERVICE_UNIQUE=$(mdb_name_owner "$MDB_BUS_NAME")
}

mdb_name_gone() { ! mdb_has_owner "$MDB_BUS_NAME"; }

# mdb_stop_service [SIGNAL]: TERM by default; KILL simulates a crash.
mdb_stop_service() {
	[ -n "$MDB_SERVICE_PID" ] || return 0
	kill -"${1:-TERM}" "$MDB_SERVICE_PID" 2>/dev/null
	wait "$MDB_SERVICE_PID" 2>/dev/null
	MDB_SERVICE_PID=
	mdb_wait_for 5 mdb_name_gone
}

# mdb_busctl USER ARGS...: busctl on the private bus as root or as USER.
mdb_busctl() {
	local user=$1
	shift
	case "$user" in
	root) busctl --address="$MDB_ADDRESS" "$@" ;;
	root@*)
		# root inside USER's login session, as Cockpit's administrative
		# bridge is: the kernel's loginuid, which pam_loginuid sets at login
		# (mdb_can_set_loginuid says whether this machine lets a test set it).
		# shellcheck disable=SC2016 # expanded by that sh
		sh -c 'echo "$1" >/proc/self/loginuid && shift && exec "$@"' sh "$(id -u "${user#root@}")" \
			busctl --address="$MDB_ADDRESS" "$@"
		;;
	*)
		setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" --init-groups \
			busctl --address="$MDB_ADDRESS" "$@"
		;;
	esac
}

# Whether root may give a process a login (CAP_AUDIT_CONTROL, and the
# kernel's loginuid not made immutable).
mdb_can_set_loginuid() { sh -c "echo $(id -u "$MDB_ADMIN") >/proc/self/loginuid" 2>/dev/null; }

# The name of the first error reply the service (or the bus) sent to a client
# after byte offset $1 of the monitor's log. Errors sent to the service (from
# polkit or the bus) are its own business, not a client's answer; so are the
# bus's errors to polkitd (polkitd 126 asks for logind, which is not there).
mdb_error_after() {
	tail -c +"$(($1 + 1))" "$MDB_TMP/errors.log" |
		awk -v svc="$MDB_SERVICE_UNIQUE" -v pk="${MDB_POLKIT_UNIQUE:-}" '
			/^error / {
				sender = ""; dest = ""; name = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^sender=/) sender = substr($i, 8)
					if ($i ~ /^destination=/) dest = substr($i, 13)
					if ($i ~ /^error_name=/) name = substr($i, 12)
				}
				if (dest != svc && (pk == "" || dest != pk) &&
				    (sender == svc || sender == "org.freedesktop.DBus")) {
					print name
					exit
				}
			}'
}

mdb_log_size() { stat -c %s "$MDB_TMP/errors.log"; }

# mdb_capture COMMAND...: runs COMMAND and records the result: MDB_RC,
# MDB_OUT (stdout), MDB_ERRMSG (stderr) and, on failure, MDB_ERROR (the
# D-Bus error name the service or the bus sent, as seen on the bus).
mdb_capture() {
	local before
	before=$(mdb_log_size)
	"$@" >"$MDB_TMP/call.out" 2>"$MDB_TMP/call.err"
	MDB_RC=$?
	MDB_OUT=$(cat "$MDB_TMP/call.out")
	MDB_ERRMSG=$(cat "$MDB_TMP/call.err")
	MDB_ERROR=
	if [ "$MDB_RC" -ne 0 ]; then
		mdb_wait_for 3 mdb_error_seen "$before"
		MDB_ERROR=$(mdb_error_after "$before")
	fi
}

# mdb_raw_call USER ARGS...: busctl ARGS as USER, recorded by mdb_capture.
mdb_raw_call() { mdb_capture mdb_busctl "$@"; }

mdb_error_seen() { [ -n "$(mdb_error_after "$1")" ]; }

# mdb_call USER METHOD SIGNATURE ARGS...: a Manager method, reply as JSON in MDB_OUT.
mdb_call() {
	local user=$1
	shift
	mdb_raw_call "$user" --json=short -- call "$MDB_BUS_NAME" "$MDB_OBJ" "$MDB_MANAGER" "$@"
}

# mdb_acall USER ARRAY METHOD SIGNATURE ARGS...: a method of an array object.
mdb_acall() {
	local user=$1 array=$2
	shift 2
	mdb_raw_call "$user" --json=short -- call "$MDB_BUS_NAME" "$MDB_OBJ/arrays/$array" "$MDB_ARRAY" "$@"
}

# mdb_prop USER PATH INTERFACE NAME: prints the property's value as JSON (.data);
# fails, printing nothing, when the call fails (no object, no such property).
mdb_prop() {
	local out
	out=$(mdb_busctl "$1" --json=short get-property "$MDB_BUS_NAME" "$2" "$3" "$4") || return 1
	jq -c '.data' <<<"$out"
}

# mdb_array_prop ARRAY NAME: an Array property read by root, as JSON.
mdb_array_prop() { mdb_prop root "$MDB_OBJ/arrays/$1" "$MDB_ARRAY" "$2"; }

mdb_expect_ok() {
	if [ "$MDB_RC" -eq 0 ]; then
		mdb_pass "$1"
	else
		mdb_fail "$1 (busctl: $MDB_ERRMSG; error ${MDB_ERROR:-unknown})"
	fi
}

# mdb_expect_error NAMES DESCRIPTION: the last call failed with one of the D-Bus
# errors in NAMES ("A|B"); a short name (NotAuthorized) means
# org.mdboost.MdBoost1.Error.NotAuthorized.
mdb_expect_error() {
	local want full='' n
	local IFS='|'
	for n in $1; do
		case "$n" in
		*.*) ;;
		*) n=$MDB_ERR_PREFIX.$n ;;
		esac
		full="${full:+$full|}$n"
	done
	unset IFS
	if [ "$MDB_RC" -eq 0 ]; then
		mdb_fail "$2 (succeeded, expected $full)"
		return
	fi
	local IFS='|'
	for want in $full; do
		if [ "$MDB_ERROR" = "$want" ]; then
			unset IFS
			mdb_pass "$2"
			return
		fi
	done
	unset IFS
	mdb_fail "$2 (got ${MDB_ERROR:-no error reply}: $MDB_ERRMSG; expected $full)"
}

# The changes array of the last Boost/Restore reply as "name<TAB>old<TAB>new" lines.
# Manager.Boost returns (o, a(sss)); the others return a(sss) alone.
mdb_changes() {
	printf '%s' "$MDB_OUT" | jq -r '.data | if (.[0] | type) == "string" then .[1] else .[0] end
		| .[] | @tsv'
}

# The tunables the last Boost reply left alone, as "name<TAB>why" lines.
# Manager.Boost returns (o, a(sss), a(ss)); the array's Boost (a(sss), a(ss)).
mdb_held() {
	printf '%s' "$MDB_OUT" | jq -r '.data | if (.[0] | type) == "string" then .[2] else .[1] end
		| .[] | @tsv'
}

# mdb_fake_process ROOT PID COMM ARG...: a process under the root's proc/,
# as the service's look for mdadm sees it.
mdb_fake_process() {
	local root=$1 pid=$2 comm=$3
	shift 3
	mkdir -p "$root/proc/$pid"
	printf '%s\n' "$comm" >"$root/proc/$pid/comm"
	printf '%s\0' "$@" >"$root/proc/$pid/cmdline"
}

# Snapshots of the root, compared byte for byte.
mdb_snapshot() {
	rm -rf -- "$MDB_TMP/snap-$1"
	cp -a "$MDB_ROOT" "$MDB_TMP/snap-$1"
}

# mdb_changed_files SNAP: relative paths that differ between SNAP and the root now.
mdb_changed_files() {
	diff -rq --no-dereference "$MDB_TMP/snap-$1" "$MDB_ROOT" 2>&1 |
		sed -n -e "s|^Files $MDB_TMP/snap-$1/\(.*\) and .* differ\$|\1|p" \
			-e "s|^Only in \(.*\): \(.*\)\$|\1/\2|p" |
		sed -e "s|^$MDB_TMP/snap-$1/||" -e "s|^$MDB_ROOT/||" | sort
}

mdb_same_as() { diff -r --no-dereference -q "$MDB_TMP/snap-$1" "$MDB_ROOT" >/dev/null 2>&1; }

# mdb_expect_unchanged SNAP DESCRIPTION
mdb_expect_unchanged() {
	local changed
	changed=$(mdb_changed_files "$1")
	if [ -z "$changed" ]; then
		mdb_pass "$2"
	else
		mdb_fail "$2 (changed: $(echo "$changed" | tr '\n' ' '))"
	fi
}

# Kernel-side path of a tunable of ARRAY, relative to the root.
mdb_tunable_path() {
	case "$2" in
	read_ahead_kb) echo "sys/block/$1/queue/read_ahead_kb" ;;
	speed_limit_min | speed_limit_max) echo "proc/sys/dev/raid/$2" ;;
	*) echo "sys/block/$1/md/$2" ;;
	esac
}

mdb_read() { cat "$MDB_ROOT/$1"; }

# mdb_watch_signals: records PropertiesChanged and InterfacesAdded/Removed
# signals on the bus into $MDB_TMP/signals.log from now on.
mdb_watch_signals() {
	dbus-monitor --address "$MDB_ADDRESS" "type='signal',sender='$MDB_BUS_NAME'" \
		>"$MDB_TMP/signals.log" 2>&1 &
	MDB_SIGNAL_PID=$!
	mdb_wait_for 5 test -s "$MDB_TMP/signals.log"
}
