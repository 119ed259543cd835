#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs inside the test VM on one disk served by the modelled hard disk
# (tests/integration/hdd-model: run-in-vm --disk-model hdd --disk-scale
# HDD_SCALE --disk-queue HDD_QUEUE): fio, direct, must find the disk the
# model describes, within 10 %:
#   - a sequential read for 5 s at the start, the middle and the end of the
#     disk, after a second that takes the seek there, runs at the published
#     zone rates, 82, 72 and 44 MB/s, divided by the scale: the model joins
#     them with straight lines, so the rate expected is the model's where
#     the read is halfway through (near the end of the disk, 48 MiB in from
#     it, that is 45 MB/s, not 44). Four requests deep, as disk benchmarks
#     read: the disk serves one at a time, and the next one waits at the
#     disk while the current one transfers. At one deep, the time the guest
#     takes between two requests (an emulated CPU on a host that may be
#     busy) would count against the disk. Blocks of 256 KiB: fio counts the
#     requests that end within the 5 s, and one 1 MiB block at the inner
#     zone's 4.4 MB/s is already 5 % of them. A pause of the guest longer
#     than the four requests last (a host busy with other work) can only
#     lower a reading; nothing can raise one above the model's rate. So a
#     reading below the range is taken once more, the higher of the two
#     counts, and both are printed;
#   - random 4 KiB reads over the whole disk, one at a time, for 20 s, complete at the rate the seek
#     curve and the rotation give: a seek of 4 + 17.5 * 8/15 = 13.3 ms on
#     average between two uniform offsets, half a turn at 7200 rpm
#     (4.17 ms) and a 4 KiB transfer, each multiplied by the scale: 5.7 a
#     second at scale 10;
#   - the same 16 deep, as many as qemu's NBD client lets reach the disk at
#     once, for 30 s: the rate the model gives that queue
#     (build/diskmodel/hdd-random-rate, which serves the queue by the same
#     rule as the plugin), divided by the scale: 7.6 a second with ncq, 5.7
#     with fifo. It holds the plugin to its timeline: a choice made late, or
#     among the wrong requests, would show here.
# What the guest adds (virtio, qemu's NBD client, nbdkit) must stay inside
# the margin.
set -u
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

scale=${HDD_SCALE:?}
queue=${HDD_QUEUE:?}
disk=$(vm_disk 0)
size=$(blockdev --getsize64 "$disk")
vm_log "$disk: $size bytes, scale $scale"

# fio_json NAME ARGS...: fio's JSON report of one job on the disk.
fio_json() {
	local name=$1
	shift
	fio --name="$name" --filename="$disk" --direct=1 --ioengine=libaio \
		--output-format=json "$@" 2>/dev/null
}

# within GOT WANT: GOT is within 10 % of WANT.
within() { awk -v g="$1" -v w="$2" 'BEGIN { exit !(g > 0 && g >= w * 0.9 && g <= w * 1.1) }'; }

# zone_rate OFFSET: the model's transfer rate at OFFSET in MB/s, the
# published figures at the start, the middle and the end joined by straight
# lines (diskmodel/hdd-model.c).
zone_rate() {
	awk -v o="$1" -v s="$size" 'BEGIN { f = o / s; if (f > 1) f = 1
		printf "%.3f", f <= 0.5 ? 82 + (72 - 82) * f / 0.5 : 72 + (44 - 72) * (f - 0.5) / 0.5 }'
}

# 48 MiB: more than 6 s at the outer zone's 8.2 MB/s, so no read wraps round.
span=$((48 * 1024 * 1024))
# seq_read NAME OFFSET: bytes a second of a 5 s sequential read at OFFSET.
seq_read() {
	fio_json "$1" --rw=read --bs=256k --iodepth=4 --offset="$2" --size="$span" \
		--time_based --runtime=5 --ramp_time=1 | jq -r '.jobs[0].read.bw_bytes'
}

# mb BYTES: BYTES as MB with two decimals.
mb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e6 }'; }

for zone in "outer 0 82" "middle $((size / 2 - span / 2)) 72" "inner $((size - span)) 44"; do
	read -r name offset mbs <<<"$zone"
	# Halfway through the 6 s read at the published rate.
	at=$(zone_rate "$(awk -v o="$offset" -v m="$mbs" -v s="$scale" 'BEGIN { printf "%.0f", o + 3 * m * 1e6 / s }')")
	want=$(awk -v m="$at" -v s="$scale" 'BEGIN { printf "%.0f", m * 1e6 / s }')
	bw=$(seq_read "$name" "$offset")
	read_as="$(mb "$bw") MB/s"
	if awk -v g="$bw" -v w="$want" 'BEGIN { exit !(g < w * 0.9) }'; then
		again=$(seq_read "$name" "$offset")
		read_as="$read_as, again $(mb "$again") MB/s"
		bw=$(awk -v a="$bw" -v b="$again" 'BEGIN { printf "%.0f", (b > a ? b : a) }')
	fi
	vm_check "sequential read, $name zone: $read_as, the model's $at MB/s there (published $mbs) / $scale = $(mb "$want")" \
		within "$bw" "$want"
done

# The mean transfer rate over the whole disk is the mean of the two zones'
# straight lines: (82 + 72) / 4 + (72 + 44) / 4 = 67.5 MB/s.
want=$(awk -v s="$scale" 'BEGIN { ms = 4 + 17.5 * 8 / 15 + 60000 / 7200 / 2 + 4096 / 67.5e6 * 1000; printf "%.3f", 1000 / (ms * s) }')
iops=$(fio_json random --rw=randread --bs=4k --iodepth=1 --norandommap --randrepeat=1 --runtime=20 --time_based |
	jq -r '.jobs[0].read.iops')
vm_check "random 4 KiB reads: $(awk -v i="$iops" 'BEGIN { printf "%.2f", i }') a second, the model's $want" within "$iops" "$want"

model=$("$VM_BUILD/diskmodel/hdd-random-rate" "$size" 4096 16 "$queue")
want=$(awk -v m="$model" -v s="$scale" 'BEGIN { printf "%.3f", m / s }')
iops=$(fio_json random16 --rw=randread --bs=4k --iodepth=16 --norandommap --randrepeat=1 --runtime=30 --time_based |
	jq -r '.jobs[0].read.iops')
vm_check "random 4 KiB reads 16 deep on the $queue queue: $(awk -v i="$iops" 'BEGIN { printf "%.2f", i }') a second, the model's $want" \
	within "$iops" "$want"

vm_finish
