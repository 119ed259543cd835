# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the real-kernel suites that run mdboostd (suite-service.sh,
# suite-reshape.sh): the D-Bus harness of the integration tests
# (tests/integration/service-lib.sh) on the VM's real kernel, with the VM's
# helpers (lib.sh) counting their checks through it.

MDB_SERVICE_BIN=${MDB_SERVICE_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/mdboostd}
. "$(dirname "${BASH_SOURCE[0]}")/../integration/service-lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ -n "${MDBOOST_VM:-}" ] || { echo "$(basename "$0") runs inside tests/vm/run-in-vm"; exit 2; }

vm_pass() { mdb_pass "$@"; }
vm_fail() { mdb_fail "$@"; }

# within SECONDS COMMAND...: COMMAND succeeds within SECONDS of now (the
# emulated CPU makes every busctl slow: a count of tries is no measure).
within() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.3
	done
}
# What the service and md were doing, for a check that failed.
explain() { vm_log "$(tr '\n' ' ' </proc/mdstat)"; tail -n 8 "$MDB_TMP/service.log" | while IFS= read -r l; do vm_log "$l"; done; }
