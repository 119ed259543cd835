#!/bin/bash
# CPU cost of one mdraid plugin read over trees of 1, 16 and 64 arrays, and
# memory over 10,000 reads under valgrind.
#
#   tests/bench/plugin-bench.sh build/tests/plugin-bench
#
# Each tree is 03-raid5-recovery (a 4-disk raid5 recovering) with its md0
# copied to md1..mdN-1, so every array is a busy parity array: the most
# files the plugin reads per array. Target: under 50 us of CPU per array per
# read; docs/metrics.md records the results.
set -euo pipefail

bench=${1:?usage: plugin-bench.sh PLUGIN-BENCH-BINARY}
tmp=$(mktemp -d /tmp/mdraid-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

make_tree() { # make_tree N
	local root=$tmp/$1 i
	cp -a tests/fixtures/03-raid5-recovery "$root"
	for ((i = 1; i < $1; i++)); do
		cp -a "$root/sys/block/md0" "$root/sys/block/md$i"
	done
	# /proc/mdstat lists them all: md0's block once per array
	awk -v n="$1" '
		/^md0 : / { inblk = 1 }
		/^unused devices/ { inblk = 0
			for (i = n - 1; i >= 0; i--) { b = blk; sub(/^md0 /, "md" i " ", b); printf "%s", b }
		}
		inblk { blk = blk $0 "\n"; next }
		{ print }
	' tests/fixtures/03-raid5-recovery/proc/mdstat >"$root/proc/mdstat"
}

echo "mdraid plugin: CPU per read (target < 50 us per array per read)"
for n in 1 16 64; do
	make_tree "$n"
	# about 16,000 array reads each: a few seconds of CPU
	"$bench" "$tmp/$n" $((16000 / n))
done

echo
echo "mdraid plugin: 10,000 reads of one array under valgrind"
if ! command -v valgrind >/dev/null; then
	echo "valgrind is not installed (apt-get install valgrind)"
	exit 1
fi
for reads in 10 10000; do
	valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all "$bench" "$tmp/1" "$reads" >"$tmp/out" 2>"$tmp/vg"
	printf '%5d reads: %s\n' "$reads" "$(grep -o 'total heap usage:.*' "$tmp/vg")"
	grep -q 'All heap blocks were freed' "$tmp/vg" || { cat "$tmp/vg"; exit 1; }
	grep -q 'ERROR SUMMARY: 0 errors' "$tmp/vg" || { cat "$tmp/vg"; exit 1; }
done
echo "valgrind: no errors, every block freed at exit"
