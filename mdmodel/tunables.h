/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The rebuild tunables, described once.
 *
 * Each row says where the kernel keeps the value, whether it is per array or
 * global, the range the kernel accepts, which levels have it, how an original
 * is put back, and what it costs in memory. The plugin reports these; the
 * service boosts and restores them; nothing else hard-codes a path or bound.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "root.h"

typedef enum md_tunable {
        /* per array */
        MD_T_SYNC_SPEED_MIN,      /* md/sync_speed_min, KiB/s, "N (system|local)" */
        MD_T_SYNC_SPEED_MAX,      /* md/sync_speed_max, KiB/s, "N (system|local)" */
        MD_T_SYNC_MIN,            /* md/sync_min, sectors */
        MD_T_SYNC_MAX,            /* md/sync_max, sectors or "max" */
        MD_T_STRIPE_CACHE_SIZE,   /* md/stripe_cache_size, stripes, raid4/5/6 */
        MD_T_STRIPE_CACHE_ACTIVE, /* md/stripe_cache_active, read-only */
        MD_T_GROUP_THREAD_CNT,    /* md/group_thread_cnt, raid4/5/6 */
        MD_T_READ_AHEAD_KB,       /* queue/read_ahead_kb, KiB */
        MD_T_SYNC_IO_DEPTH,       /* md/sync_io_depth, requests, "N (system|local)", Linux 6.16+ */
        _MD_T_ARRAY_MAX,
        /* global */
        MD_T_SPEED_LIMIT_MIN = _MD_T_ARRAY_MAX, /* /proc/sys/dev/raid/speed_limit_min */
        MD_T_SPEED_LIMIT_MAX,                   /* /proc/sys/dev/raid/speed_limit_max */
        MD_T_SYNC_IO_DEPTH_DEFAULT,             /* /proc/sys/dev/raid/sync_io_depth, Linux 6.16+ */
        _MD_T_MAX,
        _MD_T_INVALID = -EINVAL,
} md_tunable;

typedef enum md_scope {
        MD_SCOPE_ARRAY,  /* path relative to sys/block/<array>/ */
        MD_SCOPE_GLOBAL, /* path relative to the root */
} md_scope;

/* How a saved original is written back. */
typedef enum md_restore {
        MD_RESTORE_NUMBER, /* write the number that was read */
        MD_RESTORE_MODE,   /* "N (system)" -> "system", "N (local)" -> "N" */
        MD_RESTORE_MAX,    /* "max" -> "max", a number -> the number */
        MD_RESTORE_NEVER,  /* read-only, never written */
} md_restore;

typedef struct md_tunable_info {
        const char *name; /* "sync_speed_min": the D-Bus, journal and metric name */
        const char *path; /* "md/sync_speed_min" (array) or "proc/sys/dev/raid/..." (global) */
        md_scope scope;
        uint64_t min, max; /* range the kernel accepts for a number */
        unsigned levels;   /* MD_LEVEL_BIT mask of levels that have it; 0 for global */
        md_restore restore;
        /*
         * The kernel drops the value when an operation completes (md_do_sync
         * resets resync_max to MaxSector: "min/max setting can be forgotten"),
         * so an original is only meaningful while that operation runs.
         */
        bool forgotten_on_completion;
        const char *unit;                       /* "KiB/s", "sectors", "stripes", "KiB", "threads" */
        uint64_t mem_bytes_per_unit_per_member; /* stripe cache: 4096; else 0 */
} md_tunable_info;

/* The table row for @t, or NULL when out of range. */
const md_tunable_info *md_tunable_get(md_tunable t);

/* Looks a tunable up by name ("stripe_cache_size"); _MD_T_INVALID if unknown. */
md_tunable md_tunable_from_name(const char *name);

/* True if arrays of @level have @t. Global tunables apply to every level. */
bool md_tunable_applies(md_tunable t, md_level level);

/* Memory the kernel pins for @value of @t on an array of @members members, in bytes. */
uint64_t md_tunable_mem_cost(md_tunable t, uint64_t value, unsigned members);

/* Checks a number against the table's range: 0 or -ERANGE. */
int md_tunable_check(md_tunable t, uint64_t value);

/*
 * Text to write to put @original back: "system" for "N (system)", "N" for
 * "N (local)" and plain numbers, "max" for "max". -EINVAL for ABSENT/UNKNOWN/NONE
 * or a read-only tunable.
 */
int md_tunable_restore_text(md_tunable t, const md_tval *original, char *buf, size_t size);

/*
 * Reads @t of @array (ignored for globals) into ret. An absent file gives
 * kind MD_V_ABSENT and returns 0; an unreadable or garbage file returns the
 * negative errno.
 */
int md_tunable_read(const md_root *r, const char *array, md_tunable t, md_tval *ret);

/*
 * Writes @text ("50000", "system", "max") to @t of @array, then reads it back
 * to verify: a number must read back as that number (in any mode), "system"
 * as an "(system)" value, "max" as "max". Returns 0 and the value read back,
 * the write's negative errno if the kernel refused, or -EIO if the value read
 * back differs (the kernel clamped it or someone raced us).
 */
int md_tunable_write(const md_root *r, const char *array, md_tunable t, const char *text, md_tval *ret_readback);
