/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * /proc/mdstat: every array in one read. It gives the one number sysfs does
 * not give, the live position of a running operation (sync_completed is
 * checkpointed: it moves in steps of about 1/16 of the device, mdstat's
 * "(done/total)" is the live resync position), and each array's members
 * with their flags and the map of slots in sync, which sysfs spreads over
 * two files per member. Everything else comes from sysfs.
 *
 * Grammar (drivers/md/md.c md_seq_show and status_resync):
 *
 *   file   := "Personalities : " {"[" pers "] "} "\n" {array} "unused devices: " ... "\n"
 *   array  := NAME " : " ("active"|"inactive") [" (read-only)"|" (auto-read-only)"] [" " level]
 *             {" " DEV "[" N "]" ["(F)"|"(S)"|"(W)"|"(R)"|"(J)"]} "\n"
 *             "      " BLOCKS " blocks" ... ["[" n "/" m "] [" "U_"... "]"] "\n"
 *             [progress "\n"] ["      bitmap: " ... "\n"] blank line
 *   progress := "      [" bar "]  " ACTION " =" PCT "% (" DONE "/" TOTAL ") finish=" F "min speed=" S "K/sec"
 *             | "      \t" ("resync=DELAYED" | "resync=PENDING")
 *   ACTION := "reshape" | "check" | "resync" | "recovery"   (a repair prints "resync")
 *   PCT    := "%3u.%u": space-padded below 10 %
 *
 * DONE and TOTAL are KiB (1 KiB blocks), unlike sysfs' sectors.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

typedef enum md_mdstat_op {
        MD_MDSTAT_IDLE,   /* no progress line */
        MD_MDSTAT_RESYNC, /* resync or repair */
        MD_MDSTAT_RECOVERY,
        MD_MDSTAT_CHECK,
        MD_MDSTAT_RESHAPE,
        MD_MDSTAT_DELAYED,
        MD_MDSTAT_PENDING,
        _MD_MDSTAT_OP_MAX,
} md_mdstat_op;

/*
 * The members as md_seq_show lists them: "DEV[N]" then flags. N is the
 * member's descriptor number, not its slot, so only the counts are kept.
 * "(F)" ends a faulty member's flags; "(S)" marks one without a slot
 * (a hot spare, or every member of an array that is not running).
 */
typedef struct md_mdstat_disks {
        unsigned members;     /* devices listed */
        unsigned faulty;      /* (F) */
        unsigned spare;       /* (S), never with (F) */
        unsigned journal;     /* (J) and not (F): a raid4/5/6 write journal, no slot */
        unsigned replacement; /* (R) and not (F): shares its original's slot */
        bool has_map;         /* "[n/m] [UU_]" printed: a running level with redundancy */
        unsigned slots;       /* n: raid_disks */
        unsigned in_sync;     /* 'U's in the map: slots whose member is in sync */
} md_mdstat_disks;

typedef struct md_mdstat_entry {
        char name[MD_NAME_MAX + 1];
        bool active;
        md_mdstat_op op;
        uint64_t done_kib; /* live position, valid for RESYNC..RESHAPE */
        uint64_t total_kib;
        uint64_t speed_kib; /* "speed=" KiB/s, 0 when absent */
        md_mdstat_disks disks;
} md_mdstat_entry;

/*
 * Parses @buf (the whole file) and fills up to @n entries of @ret, one per
 * array, in file order. Returns the number of arrays found (which may exceed
 * @n; only @n are filled) or -EINVAL for a file that is not mdstat.
 */
int md_mdstat_parse(const char *buf, size_t len, md_mdstat_entry *ret, size_t n);

/* Finds @name in the parsed entries; NULL if absent. */
const md_mdstat_entry *md_mdstat_find(const md_mdstat_entry *e, size_t n, const char *name);

/*
 * The running operation's progress in percent, from sync_completed, as
 * md_array_progress_percent(), checked against @e, the array's mdstat entry.
 * sync_completed is md's checkpoint: it trails the live position mdstat
 * prints by up to 1/16 of the device and leads it by the I/O in flight
 * (under 1 % in the real-kernel tests; the snapshots in tests/fixtures,
 * taken a few seconds after their mdstat, lead by up to 13 points). Just
 * after an operation starts, md still shows the previous operation's last
 * checkpoint for a moment (a raid10 check right after a resync read 88 %
 * while mdstat said 0 % on 6.12); the array reader catches most of those
 * (MD_PROGRESS_BETWEEN). Beyond that, a checkpoint more than a quarter of the
 * device ahead of the live position is a stale one, and an operation mdstat
 * prints no position for has made no checkpoint of its own yet: both give
 * -ENODATA, as does no operation at all.
 */
int md_mdstat_progress_percent(const md_array *a, const md_mdstat_entry *e, double *ret);

/*
 * The member counts md_array_disk_counts() derives from sysfs, from mdstat's
 * flags and map: a member that is neither faulty, spare nor journal holds a
 * slot (a replacement shares its original's), and a slot holder not marked
 * 'U' is being rebuilt. Without a map (raid0, linear, an array not running)
 * every slot holder but a replacement counts as in sync. @raid_disks is the
 * array's raid_disks from sysfs, or -1 when unknown (missing is then 0).
 */
void md_mdstat_disk_counts(const md_mdstat_entry *e, int64_t raid_disks, md_disk_counts *ret);

/*
 * /proc/mdstat read and parsed, with buffers reused across reads (a poller
 * reads it every interval). Entries are in file order.
 */
typedef struct md_mdstat {
        md_mdstat_entry *entries; /* n valid */
        unsigned n;
        unsigned cap; /* private */
        char *buf;    /* private: the file's text */
        size_t buf_size;
} md_mdstat;

/*
 * Reads and parses proc/mdstat under the root into @m. -ENOENT when the file
 * does not exist (no md driver loaded), -EINVAL when it is not mdstat,
 * -EFBIG past 16 MiB. On failure @m holds no entries.
 */
int md_read_mdstat(const md_root *r, md_mdstat *m);
void md_mdstat_free(md_mdstat *m);
