# shellcheck shell=bash
# Sourced by the integration tests that run Debian's collectd daemons from a
# temporary folder (after service-lib.sh, for mdb_skip): collectd-network,
# prometheus-scrape.
#
#   cd_init                 checks collectd and build/mdraid.so; CD_TMP, cleanup on exit
#   cd_start NAME PLUGIN... a collectd in $CD_TMP/NAME loading copies of PLUGIN
#                           (mdraid from build/, the others from Debian's
#                           folder), Interval 1, the rest of its configuration
#                           on stdin; its output in $CD_TMP/NAME/log
#   cd_track PID            another process to stop on exit
#   near A B                A and B agree to 0.001

cd_init() {
	CD_TOP=$(pwd)
	CD_PLUGIN=$CD_TOP/build/mdraid.so
	command -v collectd >/dev/null || mdb_skip "collectd is not installed (apt-get install collectd-core)"
	[ -f "$CD_PLUGIN" ] || { echo "$CD_PLUGIN is not built (run make)"; exit 1; }
	CD_TMP=$(mktemp -d /tmp/mdraid-collectd.XXXXXX)
	CD_PIDS=()
	trap cd_cleanup EXIT
}

cd_cleanup() {
	local p
	for p in "${CD_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	# KEEP=1 keeps the daemons' folders for a look after a failure.
	if [ -n "${KEEP:-}" ]; then echo "kept $CD_TMP"; else rm -rf "$CD_TMP"; fi
}

cd_track() { CD_PIDS+=("$1"); }

# collectd 5.12 loads only regular files from its PluginDir: copies, not links.
cd_start() {
	local dir=$CD_TMP/$1 p
	shift
	mkdir -p "$dir/plugins"
	for p in "$@"; do
		case "$p" in
		mdraid) cp "$CD_PLUGIN" "$dir/plugins/mdraid.so" ;;
		*)
			[ -f "/usr/lib/collectd/$p.so" ] || { echo "collectd's $p plugin is missing (collectd-core)"; exit 1; }
			cp "/usr/lib/collectd/$p.so" "$dir/plugins/"
			;;
		esac
	done
	{
		printf 'BaseDir "%s"\nPIDFile "%s/collectd.pid"\nPluginDir "%s/plugins"\n' "$dir" "$dir" "$dir"
		printf 'TypesDB "/usr/share/collectd/types.db"\nInterval 1\n'
		cat
	} >"$dir/collectd.conf"
	collectd -f -C "$dir/collectd.conf" >"$dir/log" 2>&1 &
	cd_track $!
}

near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a - b < 0.001 && b - a < 0.001) }'; }
