/* SPDX-License-Identifier: MIT */
/*
 * The rebuild tunables as one table, after the kernel's own attribute
 * tables in drivers/md/md.c and drivers/md/raid5.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tunables.h"

/* Every level that is a block device with a request queue: all but containers and "none". */
#define MD_LEVELS_BLOCK                                                                                                \
        ((MD_LEVEL_BIT(_MD_LEVEL_MAX) - 1u) & ~MD_LEVEL_BIT(MD_LEVEL_CONTAINER) & ~MD_LEVEL_BIT(MD_LEVEL_NONE))

static const md_tunable_info table[_MD_T_MAX] = {
        /*
         * sync_speed_min/max: the store method refuses 0 ("system" resets the
         * mode instead) and anything that does not fit an int.
         */
        [MD_T_SYNC_SPEED_MIN] = { .name = "sync_speed_min",
                                  .path = "md/sync_speed_min",
                                  .scope = MD_SCOPE_ARRAY,
                                  .min = 1,
                                  .max = INT_MAX,
                                  .levels = MD_LEVELS_SYNCING,
                                  .restore = MD_RESTORE_MODE,
                                  .unit = "KiB/s" },
        [MD_T_SYNC_SPEED_MAX] = { .name = "sync_speed_max",
                                  .path = "md/sync_speed_max",
                                  .scope = MD_SCOPE_ARRAY,
                                  .min = 1,
                                  .max = INT_MAX,
                                  .levels = MD_LEVELS_SYNCING,
                                  .restore = MD_RESTORE_MODE,
                                  .unit = "KiB/s" },
        /*
         * sync_min/max: sector positions the sync thread stays within. A
         * completed operation resets sync_max to "max" (sync_min only after a
         * requested check or repair, and a boost never writes it).
         */
        [MD_T_SYNC_MIN] = { .name = "sync_min",
                            .path = "md/sync_min",
                            .scope = MD_SCOPE_ARRAY,
                            .min = 0,
                            .max = UINT64_MAX,
                            .levels = MD_LEVELS_SYNCING,
                            .restore = MD_RESTORE_NUMBER,
                            .unit = "sectors" },
        [MD_T_SYNC_MAX] = { .name = "sync_max",
                            .path = "md/sync_max",
                            .scope = MD_SCOPE_ARRAY,
                            .min = 0,
                            .max = UINT64_MAX,
                            .levels = MD_LEVELS_SYNCING,
                            .restore = MD_RESTORE_MAX,
                            .forgotten_on_completion = true,
                            .unit = "sectors" },
        /*
         * raid5_set_cache_size refuses below 17 (NR_STRIPES floor) and above
         * 32768; every stripe holds one 4 KiB page per member.
         */
        [MD_T_STRIPE_CACHE_SIZE] = { .name = "stripe_cache_size",
                                     .path = "md/stripe_cache_size",
                                     .scope = MD_SCOPE_ARRAY,
                                     .min = 17,
                                     .max = 32768,
                                     .levels = MD_LEVELS_PARITY,
                                     .restore = MD_RESTORE_NUMBER,
                                     .unit = "stripes",
                                     .mem_bytes_per_unit_per_member = 4096 },
        [MD_T_STRIPE_CACHE_ACTIVE] = { .name = "stripe_cache_active",
                                       .path = "md/stripe_cache_active",
                                       .scope = MD_SCOPE_ARRAY,
                                       .min = 0,
                                       .max = 32768,
                                       .levels = MD_LEVELS_PARITY,
                                       .restore = MD_RESTORE_NEVER,
                                       .unit = "stripes" },
        /* raid5_store_group_thread_cnt refuses more than 8192 worker threads. */
        [MD_T_GROUP_THREAD_CNT] = { .name = "group_thread_cnt",
                                    .path = "md/group_thread_cnt",
                                    .scope = MD_SCOPE_ARRAY,
                                    .min = 0,
                                    .max = 8192,
                                    .levels = MD_LEVELS_PARITY,
                                    .restore = MD_RESTORE_NUMBER,
                                    .unit = "threads" },
        /*
         * The block layer takes any unsigned long here; a read-ahead beyond
         * 4 TiB is meaningless, so the range stops at UINT32_MAX KiB, which
         * also keeps the value exact on 32-bit kernels.
         */
        [MD_T_READ_AHEAD_KB] = { .name = "read_ahead_kb",
                                 .path = "queue/read_ahead_kb",
                                 .scope = MD_SCOPE_ARRAY,
                                 .min = 0,
                                 .max = UINT32_MAX,
                                 .levels = MD_LEVELS_BLOCK,
                                 .restore = MD_RESTORE_NUMBER,
                                 .unit = "KiB" },
        /*
         * Linux 6.16+: how many sync requests may be in flight while the
         * array has users (md_do_sync waits below it), "32 (system)" following
         * the sysctl below, or "N (local)". The store method takes an unsigned
         * int into an int: 0 is refused and "system" resets the mode, as for
         * the speed limits; 4294967295 reads back "-1 (local)".
         */
        [MD_T_SYNC_IO_DEPTH] = { .name = "sync_io_depth",
                                 .path = "md/sync_io_depth",
                                 .scope = MD_SCOPE_ARRAY,
                                 .min = 1,
                                 .max = INT_MAX,
                                 .levels = MD_LEVELS_SYNCING,
                                 .restore = MD_RESTORE_MODE,
                                 .unit = "requests" },
        /* The sysctls are proc_dointvec: no range check beyond an int. */
        [MD_T_SPEED_LIMIT_MIN] = { .name = "speed_limit_min",
                                   .path = "proc/sys/dev/raid/speed_limit_min",
                                   .scope = MD_SCOPE_GLOBAL,
                                   .min = 0,
                                   .max = INT_MAX,
                                   .restore = MD_RESTORE_NUMBER,
                                   .unit = "KiB/s" },
        [MD_T_SPEED_LIMIT_MAX] = { .name = "speed_limit_max",
                                   .path = "proc/sys/dev/raid/speed_limit_max",
                                   .scope = MD_SCOPE_GLOBAL,
                                   .min = 0,
                                   .max = INT_MAX,
                                   .restore = MD_RESTORE_NUMBER,
                                   .unit = "KiB/s" },
        /* Linux 6.16+: the sync_io_depth an array in "(system)" mode follows. */
        [MD_T_SYNC_IO_DEPTH_DEFAULT] = { .name = "sync_io_depth_default",
                                         .path = "proc/sys/dev/raid/sync_io_depth",
                                         .scope = MD_SCOPE_GLOBAL,
                                         .min = 1,
                                         .max = INT_MAX,
                                         .restore = MD_RESTORE_NUMBER,
                                         .unit = "requests" },
};

const md_tunable_info *md_tunable_get(md_tunable t) {
        if (t < 0 || t >= _MD_T_MAX)
                return NULL;
        return &table[t];
}

md_tunable md_tunable_from_name(const char *name) {
        if (!name)
                return _MD_T_INVALID;
        for (int t = 0; t < _MD_T_MAX; t++)
                if (strcmp(table[t].name, name) == 0)
                        return (md_tunable)t;
        return _MD_T_INVALID;
}

bool md_tunable_applies(md_tunable t, md_level level) {
        const md_tunable_info *i = md_tunable_get(t);

        if (!i)
                return false;
        if (i->scope == MD_SCOPE_GLOBAL)
                return true;
        if (level < 0 || level >= _MD_LEVEL_MAX)
                return false;
        return (i->levels & MD_LEVEL_BIT(level)) != 0;
}

uint64_t md_tunable_mem_cost(md_tunable t, uint64_t value, unsigned members) {
        const md_tunable_info *i = md_tunable_get(t);
        uint64_t per_unit;

        if (!i || i->mem_bytes_per_unit_per_member == 0 || value == 0 || members == 0)
                return 0;
        per_unit = i->mem_bytes_per_unit_per_member * members;
        if (value > UINT64_MAX / per_unit)
                return UINT64_MAX;
        return value * per_unit;
}

int md_tunable_check(md_tunable t, uint64_t value) {
        const md_tunable_info *i = md_tunable_get(t);

        if (!i)
                return -EINVAL;
        if (value < i->min || value > i->max)
                return -ERANGE;
        return 0;
}

static int copy_text(const char *text, char *buf, size_t size) {
        size_t n = strlen(text);

        if (n >= size)
                return -ENOBUFS;
        memcpy(buf, text, n + 1);
        return 0;
}

static int number_text(uint64_t v, char *buf, size_t size) {
        char tmp[24];

        snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
        return copy_text(tmp, buf, size);
}

int md_tunable_restore_text(md_tunable t, const md_tval *original, char *buf, size_t size) {
        const md_tunable_info *i = md_tunable_get(t);

        if (!i || !original || !buf || size == 0)
                return -EINVAL;

        switch (i->restore) {
        case MD_RESTORE_MODE:
                /* Writing "system" puts the array back on the global sysctl. */
                if (original->kind == MD_V_SYSTEM)
                        return copy_text("system", buf, size);
                if (original->kind == MD_V_LOCAL || original->kind == MD_V_NUMBER)
                        return number_text(original->value, buf, size);
                return -EINVAL;
        case MD_RESTORE_MAX:
                if (original->kind == MD_V_MAX)
                        return copy_text("max", buf, size);
                if (original->kind == MD_V_NUMBER)
                        return number_text(original->value, buf, size);
                return -EINVAL;
        case MD_RESTORE_NUMBER:
                if (original->kind == MD_V_NUMBER)
                        return number_text(original->value, buf, size);
                return -EINVAL;
        default:
                return -EINVAL;
        }
}
