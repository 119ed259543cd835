/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Profiles: from an array's current tunables, the memory budget and the
 * caller's options to the list of writes a boost makes. Pure: no I/O, no
 * logging; docs/profiles.md explains every number.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "options.h"

typedef enum profile {
        PROFILE_FAST,
        PROFILE_MAX,
        _PROFILE_MAX,
        _PROFILE_INVALID = -EINVAL,
} profile;

typedef struct profile_settings {
        uint64_t fast_floor;        /* KiB/s: fast's sync_speed_min */
        uint64_t fast_stripe_cache; /* stripes: fast's stripe_cache_size */
        uint64_t ceiling;           /* KiB/s: sync_speed_max is lifted to at least this */
        unsigned budget_percent;    /* share of MemTotal all stripe caches may pin */
        unsigned fit_percent;       /* fast's floor is lowered to this share of the boosted speed; 0: never */
        uint64_t fit_after_ms;      /* how long the boost runs before sync_speed is read for that */
        unsigned hold_ceiling;      /* 1: after the fit, fast steers the rebuild while the array has users */
        uint64_t quiet_ms;          /* how long the users must be quiet before that ceiling lifts */
        unsigned users_share;       /* percent of their held-back throughput the users keep while steering */
        unsigned users_latency_ms;  /* instead: the bound on their 99th percentile latency, ms; 0: a share */
        uint64_t learn_ms;          /* how long the rebuild is held back to learn that throughput */
        uint64_t relearn_ms;        /* how often it is learnt again while steering */
        uint64_t step_ms;           /* how often the rate is steered */
        uint64_t busy_kibs;         /* users moving this many KiB/s or more are busy (governor_users_busy) */
        uint64_t busy_iops;         /* and so are users completing this many requests a second */
} profile_settings;

#define PROFILE_SETTINGS_DEFAULT                                                                                       \
        ((profile_settings){ .fast_floor = 50000,                                                                      \
                             .fast_stripe_cache = 1024,                                                                \
                             .ceiling = 200000,                                                                        \
                             .budget_percent = 12,                                                                     \
                             .fit_percent = 80,                                                                        \
                             .fit_after_ms = 30000,                                                                    \
                             .hold_ceiling = 1,                                                                        \
                             .quiet_ms = 3000,                                                                         \
                             .users_share = 50,                                                                        \
                             .learn_ms = 10000,                                                                        \
                             .relearn_ms = 300000,                                                                     \
                             .step_ms = 5000,                                                                          \
                             .busy_kibs = 1024,                                                                        \
                             .busy_iops = 8 })

#define PLAN_TEXT_MAX 32

typedef struct plan_item {
        md_tunable tunable;
        md_tval old;              /* as read */
        uint64_t value;           /* the number written, 0 for "max" */
        char text[PLAN_TEXT_MAX]; /* what is written: "50000", "max" */
} plan_item;

#define PLAN_WHY_MAX 320

/* A tunable the profile would change and the plan leaves alone, and why. */
typedef struct plan_hold {
        md_tunable tunable;
        char why[PLAN_WHY_MAX];
} plan_hold;

typedef struct plan {
        plan_item items[_MD_T_ARRAY_MAX]; /* in the order they are written */
        unsigned n;
        plan_hold held[_MD_T_ARRAY_MAX];
        unsigned n_held;
} plan;

typedef struct plan_input {
        const md_array *array;
        const profile_settings *settings;
        uint64_t budget_bytes; /* what this array's stripe cache may pin: the budget minus other arrays' caches */
        int mdadm;             /* syncmax_mdadm_running(): 1, 0, or negative for unknown */
} plan_input;

const char *profile_to_string(profile p);
profile profile_from_string(const char *s);
const char *profile_description(profile p);

/*
 * The rule @p applies to @t as a sentence fragment (">= 50000 KiB/s"), written
 * into @buf; 0, or -ENOENT when @p leaves @t alone.
 */
int profile_rule(profile p, const profile_settings *s, md_tunable t, char *buf, size_t size);

/*
 * Computes the writes. Never lowers a value unless an option asks for that
 * exact value. -EOPNOTSUPP for arrays without redundancy or not active;
 * -EINVAL/-ERANGE for values the kernel or the budget refuse; -EIO when a
 * tunable the profile needs could not be read. @errbuf gets a sentence.
 */
int profile_plan(const plan_input *in, profile p, const boost_options *o, plan *ret, char *errbuf, size_t errlen);

/* Bytes @a's current stripe cache pins (0 without one). */
uint64_t profile_stripe_cache_bytes(const md_array *a);

/* Bytes all stripe caches together may pin: budget_percent of @mem_total, 0 when MemTotal is unknown. */
uint64_t profile_memory_budget(const profile_settings *s, uint64_t mem_total);

/*
 * The most stripes @a's stripe cache may have within @budget_bytes (what
 * `max` sets): the budget's, at most md's 32768; 0 when @a has no stripe
 * cache or the budget leaves it less than md's least.
 */
uint64_t profile_stripe_cache_most(const md_array *a, uint64_t budget_bytes);

/* What @a's stripe cache may pin: the budget less what the other arrays of @set pin now. */
uint64_t profile_budget_for(const profile_settings *s, uint64_t mem_total, const md_array_set *set, const md_array *a);

/*
 * The stripes a reshape of @a needs while it runs, 0 when none runs: four
 * chunks of the larger of the old and new chunk size (raid5.c check_reshape
 * refuses to start one with fewer, and a smaller cache written under a
 * running one stalls it).
 */
uint64_t profile_stripe_cache_reshape_min(const md_array *a);

/* Members the stripe cache allocates a page for: the larger of new and old raid_disks. */
unsigned profile_cache_members(const md_array *a);
