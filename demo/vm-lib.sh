# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# The steps of demo/vm-main, one function each. They run inside the demo VM
# as root; the VM has no init system, so each daemon is started in the
# background of vm-main and its pid kept in PIDS for demo_stop.

DEMO_HOST=mdboost-demo
DEMO_USER=demo
DEMO_IO=/run/mdboost-vm
DEMO_ARRAY=md0
DEMO_RRD=/var/lib/collectd/rrd
# The disks' time scale (docs/disk-model.md): on modelled hard disks every
# seek, turn and transfer lasts SCALE times longer than on the real disk, so
# md's absolute limits are divided by it too, as the benchmarks do: md's
# defaults of 1000 and 200000 KiB/s become 100 and 20000 at scale 10, and
# mean on the model what they mean on the real disk. 1: plain disks.
DEMO_SCALE=${MDBOOST_DEMO_SCALE:-1}
# The user: on modelled disks someone copying a large file off the NAS, a
# sequential reader of 1 MiB blocks, one at a time (the benchmarks' seq1).
# md's defaults make way for it, so the rebuild crawls; Boost takes the
# rebuild's share back and fast's governor keeps the reader half of what it
# gets alone. On plain disks (bound by the emulated CPU, not by seeks) small
# random reads at a modest rate, under a lowered ceiling, as before.
DEMO_READER=${MDBOOST_DEMO_READER:-$([ "$DEMO_SCALE" -gt 1 ] && echo stream || echo browse)}
# The system-wide ceiling (speed_limit_max): md's default, scaled, on
# modelled disks. On plain disks it is lowered to 1500 KiB/s as an admin
# who throttles rebuilds would: under emulation the rebuild is bound by the
# CPU qemu gets, so without a ceiling the floor has little to win.
DEMO_SPEED_LIMIT_MAX=${MDBOOST_DEMO_SPEED_LIMIT_MAX:-$([ "$DEMO_SCALE" -gt 1 ] && echo $((200000 / DEMO_SCALE)) || echo 1500)}
DEMO_SPEED_LIMIT_MIN=$((1000 / DEMO_SCALE))

demo_log() { printf 'demo: %s\n' "$*"; }

# demo_wait SECONDS COMMAND...: polls every 0.2 s until the command succeeds.
# shellcheck source=tests/wait-for.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tests/wait-for.sh"
# shellcheck source=tests/vm/service-scale.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tests/vm/service-scale.sh"
demo_wait() { poll $(($1 * 5)) 0.2 "${@:2}"; }

# demo_fail WHAT LOG: says what did not start and shows its log's end.
demo_fail() {
	demo_log "$1 did not start"
	[ -n "${2:-}" ] && [ -s "$2" ] && tail -n 15 "$2" | sed 's/^/  /'
	return 1
}

# The staged `make install` (PREFIX=/usr) copied into the VM's root. tar keeps
# Debian's /lib -> usr/lib symlink where cp would refuse to replace it.
demo_install() {
	[ -d "${MDBOOST_DEMO_STAGE:-}" ] || { demo_log "no staged install at ${MDBOOST_DEMO_STAGE:-?}"; return 1; }
	tar -C "$MDBOOST_DEMO_STAGE" -cf - . | tar -C / -xf - --keep-directory-symlink --no-same-owner ||
		{ demo_log "cannot copy the staged install"; return 1; }
	demo_log "installed the build into the VM's root (make install PREFIX=/usr)"
}

# qemu's user-mode network: the VM is 10.0.2.15, qemu's router 10.0.2.2, and
# the host's 127.0.0.1:PORT reaches the VM's port 9090. The virtio_net module
# comes from the host's /lib/modules, which the VM sees through its root.
demo_network() {
	local dev
	modprobe virtio_net || { demo_log "cannot load virtio_net"; return 1; }
	hostname "$DEMO_HOST"
	echo "$DEMO_HOST" >/etc/hostname
	printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n' "$DEMO_HOST" >/etc/hosts
	ip link set lo up
	demo_wait 10 demo_net_dev >/dev/null || { demo_log "no network device"; return 1; }
	dev=$(demo_net_dev)
	ip link set "$dev" up &&
		ip addr add 10.0.2.15/24 dev "$dev" &&
		ip route add default via 10.0.2.2 || { demo_log "cannot configure $dev"; return 1; }
	demo_log "network: $dev is 10.0.2.15"
}

# The first network device other than the loopback.
demo_net_dev() {
	local d
	for d in /sys/class/net/*; do
		[ "${d##*/}" = lo ] && continue
		[ -e "$d" ] || continue
		echo "${d##*/}"
		return 0
	done
	return 1
}

# The Cockpit login: a user in Debian's sudo group, which is what Cockpit's
# "administrative access" asks sudo for.
demo_users() {
	getent passwd "$DEMO_USER" >/dev/null ||
		useradd --create-home --shell /bin/bash --groups sudo "$DEMO_USER" ||
		{ demo_log "cannot create the user $DEMO_USER"; return 1; }
	printf '%s:%s\n' "$DEMO_USER" "$MDBOOST_DEMO_PASSWORD" | chpasswd ||
		{ demo_log "cannot set the password of $DEMO_USER"; return 1; }
}

# mdboostd's audit lines go to syslog (LOG_AUTHPRIV): /var/log/messages here.
demo_start_syslog() {
	busybox syslogd -n -O /var/log/messages &
	PIDS+=($!)
}

demo_has_name() {
	[ "$(busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
		NameHasOwner s "$1" 2>/dev/null)" = "b true" ]
}

# Debian's system bus configuration, which includes system.d/, where the
# staged install put the project's bus policy.
demo_start_bus() {
	mkdir -p /run/dbus
	dbus-daemon --system --nofork --nopidfile >/var/log/dbus.log 2>&1 &
	PIDS+=($!)
	demo_wait 20 test -S /run/dbus/system_bus_socket || demo_fail "the system bus" /var/log/dbus.log
}

demo_start_polkit() {
	/usr/lib/polkit-1/polkitd --no-debug >/var/log/polkitd.log 2>&1 &
	PIDS+=($!)
	demo_wait 30 demo_has_name org.freedesktop.PolicyKit1 || demo_fail polkitd /var/log/polkitd.log
}

# The installed binary, on the real kernel, as root; its journal of originals
# in the default /run/mdboost. On modelled disks the service's own absolute
# limits are scaled as md's are (service_scaled_config).
demo_start_service() {
	local conf=/run/mdboost-demo.conf

	service_scaled_config "$DEMO_SCALE" >"$conf"
	/usr/libexec/mdboostd --log-stderr --config "$conf" >/var/log/mdboostd.log 2>&1 &
	PIDS+=($!)
	demo_wait 30 demo_has_name org.mdboost.MdBoost1 || demo_fail mdboostd /var/log/mdboostd.log
	demo_log "system bus, polkitd and mdboostd are running"
}

# collectd as a NAS would run it: the installed mdraid plugin, enabled with
# the example configuration from the README, and the rrdtool plugin writing
# where the Cockpit page looks (it reads DataDir from this file).
demo_start_collectd() {
	mkdir -p /etc/collectd/collectd.conf.d "$DEMO_RRD"
	cp /usr/share/doc/mdboost/examples/mdraid.conf /etc/collectd/collectd.conf.d/
	cat >/etc/collectd/collectd.conf <<-EOF
		Hostname "$DEMO_HOST"
		FQDNLookup false
		Interval 2
		BaseDir "/var/lib/collectd"
		PIDFile "/run/collectd.pid"
		PluginDir "/usr/lib/collectd"
		TypesDB "/usr/share/collectd/types.db"
		LoadPlugin logfile
		<Plugin logfile>
		  LogLevel info
		  File "/var/log/collectd.log"
		  Timestamp true
		</Plugin>
		LoadPlugin rrdtool
		<Plugin rrdtool>
		  DataDir "$DEMO_RRD"
		</Plugin>
		<Include "/etc/collectd/collectd.conf.d">
		  Filter "*.conf"
		</Include>
	EOF
	collectd -f -C /etc/collectd/collectd.conf >>/var/log/collectd.log 2>&1 &
	PIDS+=($!)
	demo_wait 30 grep -q 'Initialization complete' /var/log/collectd.log ||
		demo_fail collectd /var/log/collectd.log
}

demo_ws_up() {
	[ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9090/)" = 200 ]
}

# cockpit-ws without TLS (the port is reachable only from the host's
# 127.0.0.1). It logs users in with cockpit-session and PAM, and finds the
# page the staged install put in /usr/share/cockpit/mdboost.
demo_start_cockpit() {
	mkdir -p /etc/cockpit
	# Under emulation a login (PAM, then cockpit-bridge starting) takes 30-60 s,
	# past cockpit-ws's default 30 s for password logins. Since Cockpit 326
	# cockpit-ws asks systemd's socket-activated cockpit-session for a login;
	# without systemd it runs cockpit-session itself when told to, as 287 did.
	printf '[WebService]\nLoginTitle = mdboost demo\n\n[basic]\ncommand = /usr/lib/cockpit/cockpit-session\ntimeout = 300\n' \
		>/etc/cockpit/cockpit.conf
	setsid /usr/lib/cockpit/cockpit-ws --no-tls --port 9090 >/var/log/cockpit-ws.log 2>&1 &
	PIDS+=($!)
	DEMO_WS_PGID=$!
	demo_wait 60 demo_ws_up || demo_fail cockpit-ws /var/log/cockpit-ws.log
	demo_log "collectd and cockpit-ws are running"
}

# A root shell on the VM's second serial port, which demo/run connects to a
# socket for demo/shell. It is started again when it exits.
demo_start_shell() {
	(
		while [ ! -e "$DEMO_IO/stop" ]; do
			stty -F /dev/ttyS1 sane 2>/dev/null
			# shellcheck disable=SC2154 # $here is vm-main's, which sources this file
			setsid --ctty --wait env TERM=xterm HOME=/root \
				bash --rcfile "$here/vm-shellrc" -i <>/dev/ttyS1 >&0 2>&1
			sleep 1
		done
	) &
	PIDS+=($!)
}

# Four members with no initial sync (the blank disks are consistent parity),
# no write-intent bitmap so the new disk is rebuilt whole.
demo_create_array() {
	local d
	for d in vda vdb vdc vdd vde; do
		[ -b "/dev/$d" ] || { demo_log "/dev/$d is missing"; return 1; }
	done
	mdadm --create "/dev/$DEMO_ARRAY" --run --quiet --level=5 --raid-devices=4 --chunk=512 \
		--metadata=1.2 --bitmap=none --assume-clean --homehost="$DEMO_HOST" \
		/dev/vda /dev/vdb /dev/vdc /dev/vdd >/var/log/mdadm.log 2>&1 ||
		demo_fail "mdadm --create" /var/log/mdadm.log
}

demo_action() { cat "/sys/block/$DEMO_ARRAY/md/sync_action" 2>/dev/null; }
demo_recovering() { [ "$(demo_action)" = recover ]; }

# A member fails and is replaced by a new disk: md rebuilds it from the
# other three at the kernel's default speed limits.
demo_start_rebuild() {
	echo "$DEMO_SPEED_LIMIT_MIN" >/proc/sys/dev/raid/speed_limit_min &&
		echo "$DEMO_SPEED_LIMIT_MAX" >/proc/sys/dev/raid/speed_limit_max ||
		{ demo_log "cannot set the speed limits"; return 1; }
	mdadm "/dev/$DEMO_ARRAY" --fail /dev/vdd --remove /dev/vdd >>/var/log/mdadm.log 2>&1 &&
		mdadm --zero-superblock /dev/vdd >>/var/log/mdadm.log 2>&1 &&
		mdadm "/dev/$DEMO_ARRAY" --add /dev/vde >>/var/log/mdadm.log 2>&1 ||
		demo_fail "the rebuild" /var/log/mdadm.log || return 1
	demo_wait 10 demo_recovering || demo_fail "the rebuild" /var/log/mdadm.log || return 1
	demo_log "md0 rebuilds vde under the system's limits: speed_limit_min $DEMO_SPEED_LIMIT_MIN, speed_limit_max $DEMO_SPEED_LIMIT_MAX KiB/s"
}

demo_start_reader() {
	local how
	case "$DEMO_READER" in
	stream)
		how=(--rw=read --bs=1M --iodepth=1 --offset=50%)
		demo_log "a user streams md0 from its middle, 1 MiB at a time"
		;;
	browse)
		how=(--rw=randread --bs=64k --rate=4m)
		demo_log "a reader uses md0 at up to 4m/s"
		;;
	*)
		demo_log "MDBOOST_DEMO_READER is stream or browse, not $DEMO_READER"
		return 1
		;;
	esac
	fio --name=reader --filename="/dev/$DEMO_ARRAY" --readonly "${how[@]}" --direct=1 --ioengine=psync \
		--time_based --runtime=7d --output=/var/log/fio.log >/dev/null 2>&1 &
	PIDS+=($!)
}

# One line on the host's terminal: what md0 does, how fast, and the floor.
demo_status() {
	local md=/sys/block/$DEMO_ARRAY/md action completed total speed
	action=$(demo_action)
	read -r completed _ total <"$md/sync_completed"
	speed=$(cat "$md/sync_speed")
	if [ "$action" = idle ]; then
		demo_log "$DEMO_ARRAY is idle (degraded: $(cat "$md/degraded")); sync_speed_min $(cat "$md/sync_speed_min"), stripe_cache_size $(cat "$md/stripe_cache_size")"
		return
	fi
	awk -v a="$action" -v d="$completed" -v t="$total" -v s="$speed" -v m="$(cat "$md/sync_speed_min")" \
		-v x="$(cat "$md/sync_speed_max")" -v k="$DEMO_SCALE" \
		-v n="$DEMO_ARRAY" 'BEGIN {
			p = (t > 0) ? 100 * d / t : 0
			r = (k > 1 && s ~ /^[0-9]+$/) ? sprintf(" (%d on the real disk)", s * k) : ""
			printf "demo: %s %s %.1f%% at %s KiB/s%s; sync_speed_min %s, sync_speed_max %s\n", n, a, p, s, r, m, x
		}'
}

# Runs one command file demo/shell left in cmd/: NAME.sh -> NAME.out, NAME.rc.
demo_run_command() {
	local f=$1 base=${1%.sh}
	mv "$f" "$base.running" || return 0
	(
		bash "$base.running" >"$base.out" 2>&1 </dev/null
		echo $? >"$base.rc.tmp"
		mv "$base.rc.tmp" "$base.rc"
		rm -f "$base.running"
	) &
}

# Until demo/run asks for a stop: commands from demo/shell, and a status line
# every 20 seconds or when the operation changes.
demo_serve() {
	local f last_action='' action next=0
	while [ ! -e "$DEMO_IO/stop" ]; do
		for f in "$DEMO_IO"/cmd/*.sh; do
			[ -e "$f" ] && demo_run_command "$f"
		done
		action=$(demo_action)
		if [ "$action" != "$last_action" ] || [ "$SECONDS" -ge "$next" ]; then
			demo_status
			last_action=$action
			next=$((SECONDS + 20))
		fi
		sleep 0.5
	done
}

# Every daemon in reverse order, then the array; the host powers the VM off.
demo_stop() {
	local i
	demo_log "stopping"
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		kill -TERM "${PIDS[$i]}" 2>/dev/null
	done
	# cockpit-ws leads its own process group, with the sessions it started.
	[ -n "${DEMO_WS_PGID:-}" ] && kill -TERM -- "-$DEMO_WS_PGID" 2>/dev/null
	sleep 1
	mdadm --stop "/dev/$DEMO_ARRAY" >/dev/null 2>&1
	: >"$DEMO_IO/stopped"
}
