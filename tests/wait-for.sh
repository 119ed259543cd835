# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# poll TRIES INTERVAL COMMAND...: runs COMMAND until it succeeds, at most
# TRIES times, sleeping INTERVAL seconds between tries. Shared by the test
# harnesses and the demo, which wait for daemons and for sysfs to change;
# each states its own cadence (a slow command under emulation makes a try
# last longer, so counting tries rather than seconds keeps waits generous).

poll() {
	local tries=$1 interval=$2
	shift 2
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		sleep "$interval"
		tries=$((tries - 1))
	done
	return 1
}
