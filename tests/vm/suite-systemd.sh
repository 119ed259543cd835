#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM booted with Debian's systemd as PID 1
# (tests/vm/real-kernel systemd: run-in-vm --systemd, 2 disks of 96 MiB).
# The service as users run it: installed with `make install`, the bus and
# systemd told as the package's scripts tell them, started by D-Bus
# activation through systemd under its hardened unit, on a real recovering
# raid1:
#   - the first call starts mdboostd.service through systemd;
#   - Boost writes the md attributes and queue/read_ahead_kb under
#     ProtectKernelTunables= (the md devices' folders are ReadWritePaths=),
#     and Restore puts every tunable back byte for byte;
#   - the audit lines reach the journal (journalctl -t mdboostd);
#   - systemd-analyze security rates the unit at 1.3 or better;
#   - mdboostd-boot.service starts it only when a configuration, policy or
#     setting exists.
set -u

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

[ "${MDBOOST_VM_INIT:-}" = systemd ] || { echo "$(basename "$0") runs under run-in-vm --systemd"; exit 2; }

BUS=org.mdboost.MdBoost1
OBJ=/org/mdboost/MdBoost1
MANAGER=org.mdboost.MdBoost1.Manager
TUNABLES="sync_speed_min sync_speed_max"
read_ahead() { cat /sys/block/md0/queue/read_ahead_kb; }

# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; md_stop_all; exit $rc' EXIT

vm_check "systemd is PID 1" [ "$(cat /proc/1/comm)" = systemd ]
# The bus is socket-activated: the first call starts dbus.service.
bus_up() { timeout 10 busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId >/dev/null 2>&1; }
vm_check "the system bus answers" vm_wait_for 60 bus_up
vm_check "and runs as systemd's dbus.service" systemctl is-active --quiet dbus.service ||
	{ systemctl list-jobs --no-pager; systemctl status --no-pager dbus.service dbus.socket; exit 1; }

# ---- installed as users install it -------------------------------------------
make -C "$VM_TOP" --no-print-directory install PREFIX=/usr >"/tmp/install.log" 2>&1 ||
	{ cat /tmp/install.log; exit 1; }
vm_check "make install puts the unit where systemd looks" eval "systemctl cat mdboostd.service >/dev/null"
systemctl daemon-reload
systemctl reload dbus.service
vm_check "mdboostd is not running before its first call" eval '! systemctl is-active --quiet mdboostd.service'

# ---- a real recovering raid1 -------------------------------------------------
md_slow 1000
mdadm --create /dev/md0 --run --quiet --level=raid1 --raid-devices=2 --bitmap=none \
	"$(vm_disk 0)" missing || { echo "mdadm --create failed"; exit 1; }
mdadm /dev/md0 --add "$(vm_disk 1)" >/dev/null || { echo "mdadm --add failed"; exit 1; }
recovering() { [ "$(md_attr md0 sync_action)" = recover ]; }
vm_check "md0 recovers onto its second disk" vm_wait_for 30 recovering
before=$(for t in $TUNABLES; do printf '%s=%s\n' "$t" "$(md_attr md0 "$t")"; done; read_ahead)

# ---- D-Bus activation through systemd, Boost and Restore -----------------------
out=$(timeout 60 busctl --json=short call "$BUS" "$OBJ" "$MANAGER" Boost 'ssa{sv}' md0 fast 1 read_ahead_kb u 4096 2>&1)
vm_check "Boost fast of the recovering md0 succeeds ($out)" grep -q '"data"' <<<"$out"
vm_check "the call started mdboostd.service through systemd" systemctl is-active --quiet mdboostd.service
pid=$(systemctl show -p MainPID --value mdboostd.service)
vm_check "systemd runs it (MainPID $pid, child of PID 1)" \
	[ "$pid" -gt 0 ] && [ "$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status")" = 1 ]
vm_expect "the floor is written through the hardened unit" "50000 (local)" "$(md_attr md0 sync_speed_min)"
vm_expect "and the array's queue/read_ahead_kb" 4096 "$(read_ahead)"
vm_check "while the kernel's other tunables stay read-only to it" \
	grep -q '^ProtectKernelTunables=yes' "$(systemctl show -p FragmentPath --value mdboostd.service)"
vm_check "the journal of originals is in /run/mdboost" test -s /run/mdboost/boosts.json
out=$(timeout 60 busctl --json=short call "$BUS" "$OBJ" "$MANAGER" Restore 'sa{sv}' md0 0 2>&1)
vm_check "Restore succeeds ($out)" grep -q '"data"' <<<"$out"
after=$(for t in $TUNABLES; do printf '%s=%s\n' "$t" "$(md_attr md0 "$t")"; done; read_ahead)
vm_expect "Restore puts every tunable back byte for byte" "$before" "$after"

# ---- what systemd's own tools say ---------------------------------------------
audited() { journalctl -t mdboostd --no-pager -q | grep -q "audit: $1 md0"; }
vm_check "the Boost's audit line reaches the journal (journalctl -t mdboostd)" vm_wait_for 10 audited boost
vm_check "and the Restore's" vm_wait_for 10 audited restore
journalctl -t mdboostd --no-pager -q | grep audit | sed 's/^/# /'
exposure=$(systemd-analyze security mdboostd.service 2>/dev/null | sed -n 's/.*Overall exposure level for mdboostd.service: \([0-9.]*\).*/\1/p')
vm_check "systemd-analyze security rates the running unit at 1.3 or better ($exposure)" \
	awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 1.3) }'
# ---- at boot: mdboostd-boot.service starts it only where it has work ---------
systemctl stop mdboostd.service
rm -f /etc/mdboost/mdboostd.conf /var/lib/mdboost/policy.conf /var/lib/mdboost/settings.json
vm_check "make install puts the boot unit where systemd looks" eval "systemctl cat mdboostd-boot.service >/dev/null"
vm_check "and it can be enabled (the package does so)" systemctl enable --quiet mdboostd-boot.service
systemctl start mdboostd-boot.service
vm_expect "without a configuration, policy or setting the boot unit's condition fails" no \
	"$(systemctl show -p ConditionResult --value mdboostd-boot.service)"
vm_check "and mdboostd is not started" eval 'sleep 2; ! systemctl is-active --quiet mdboostd.service'
mkdir -p /etc/mdboost
printf '# policies and check windows (mdboostd.conf(5))\n' >/etc/mdboost/mdboostd.conf
systemctl restart mdboostd-boot.service
vm_check "with a configuration file it starts mdboostd" vm_wait_for 15 systemctl is-active --quiet mdboostd.service
rm -f /etc/mdboost/mdboostd.conf
systemctl stop mdboostd.service
vm_check "no unit failed" eval '[ -z "$(systemctl --failed --no-legend --plain | grep mdboost)" ]'

vm_finish
