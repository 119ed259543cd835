# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# On modelled disks (docs/disk-model.md) every rate is the real disk's
# divided by the scale, so the service's own absolute limits are divided by
# it as md's are: users count as busy from 1024/SCALE KiB/s or 8/SCALE
# requests a second (at least 1), the defaults of users_busy_kibs and
# users_busy_iops. Shared by the benchmarks (bench-lib.sh) and the demo.
#
#   service_scaled_config SCALE >FILE    # a configuration file for mdboostd --config

service_scaled_config() {
	printf 'users_busy_kibs = %s\nusers_busy_iops = %s\n' $((1024 / $1)) $(((8 + $1 - 1) / $1))
}
