/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "profiles.h"
#include "syncmax.h"

static const char *const profile_names[_PROFILE_MAX] = {
        [PROFILE_FAST] = "fast",
        [PROFILE_MAX] = "max",
};

static const char *const profile_descriptions[_PROFILE_MAX] = {
        [PROFILE_FAST] = "Balanced: guarantees the rebuild a floor of its own while the array's users "
                         "keep most of their throughput",
        [PROFILE_MAX] = "Rebuild first: the floor is raised to the ceiling and the stripe cache takes "
                        "the memory budget; users of the array slow down a lot",
};

const char *profile_to_string(profile p) {
        if (p < 0 || p >= _PROFILE_MAX)
                return NULL;
        return profile_names[p];
}

profile profile_from_string(const char *s) {
        for (int p = 0; p < _PROFILE_MAX; p++)
                if (strcmp(s, profile_names[p]) == 0)
                        return (profile)p;
        return _PROFILE_INVALID;
}

const char *profile_description(profile p) {
        if (p < 0 || p >= _PROFILE_MAX)
                return NULL;
        return profile_descriptions[p];
}

int profile_rule(profile p, const profile_settings *s, md_tunable t, char *buf, size_t size) {
        switch (t) {
        case MD_T_SYNC_SPEED_MIN:
                if (p == PROFILE_FAST && s->fit_percent > 0)
                        snprintf(buf, size,
                                 "at least %" PRIu64 " KiB/s, then lowered to %u %% of the rebuild's "
                                 "speed under it",
                                 s->fast_floor, s->fit_percent);
                else if (p == PROFILE_FAST)
                        snprintf(buf, size, "at least %" PRIu64 " KiB/s", s->fast_floor);
                else
                        snprintf(buf, size, "equal to sync_speed_max");
                return 0;
        case MD_T_SYNC_SPEED_MAX:
                if (p == PROFILE_FAST && s->fit_percent > 0 && s->hold_ceiling)
                        snprintf(buf, size,
                                 "at least %" PRIu64 " KiB/s when below the floor; down to the "
                                 "lowered floor while the array's users are busy",
                                 s->ceiling);
                else if (p == PROFILE_FAST)
                        snprintf(buf, size, "at least %" PRIu64 " KiB/s when below the floor", s->ceiling);
                else
                        snprintf(buf, size, "at least %" PRIu64 " KiB/s", s->ceiling);
                return 0;
        case MD_T_SYNC_MAX:
                snprintf(buf, size, "max");
                return 0;
        case MD_T_STRIPE_CACHE_SIZE:
                if (p == PROFILE_FAST)
                        snprintf(buf, size, "at least %" PRIu64 " stripes within the memory budget (raid4/5/6)",
                                 s->fast_stripe_cache);
                else
                        snprintf(buf, size, "the largest the memory budget allows, up to 32768 stripes (raid4/5/6)");
                return 0;
        default:
                return -ENOENT;
        }
}

unsigned profile_cache_members(const md_array *a) {
        uint64_t m = a->n_members;

        if (a->raid_disks.kind == MD_V_NUMBER) {
                m = a->raid_disks.value;
                if (a->raid_disks.old_value > m)
                        m = a->raid_disks.old_value;
        }
        return m > 4096 ? 4096 : (unsigned)m;
}

uint64_t profile_stripe_cache_bytes(const md_array *a) {
        const md_tval *v = &a->tunables[MD_T_STRIPE_CACHE_SIZE];

        if (!md_tval_has_number(v))
                return 0;
        return md_tunable_mem_cost(MD_T_STRIPE_CACHE_SIZE, v->value, profile_cache_members(a));
}

uint64_t profile_memory_budget(const profile_settings *s, uint64_t mem_total) {
        return mem_total / 100 * s->budget_percent;
}

uint64_t profile_budget_for(const profile_settings *s, uint64_t mem_total, const md_array_set *set, const md_array *a) {
        uint64_t budget = profile_memory_budget(s, mem_total), others = 0;

        for (unsigned i = 0; i < set->n; i++)
                if (strcmp(set->arrays[i].name, a->name) != 0)
                        others += profile_stripe_cache_bytes(&set->arrays[i]);
        return others >= budget ? 0 : budget - others;
}

static void plan_add(plan *p, const md_array *a, md_tunable t, uint64_t value, const char *text) {
        plan_item *it = &p->items[p->n++];

        *it = (plan_item){ .tunable = t, .old = a->tunables[t], .value = value };
        if (text)
                snprintf(it->text, sizeof(it->text), "%s", text);
        else
                snprintf(it->text, sizeof(it->text), "%" PRIu64, value);
}

static int need_number(const md_array *a, md_tunable t, char *errbuf, size_t errlen) {
        if (md_tval_has_number(&a->tunables[t]))
                return 0;
        snprintf(errbuf, errlen, "Could not read %s of %s; nothing was written.", md_tunable_get(t)->name, a->name);
        return -EIO;
}

/* Writes @want unless the value is already at least that high; an option writes any different value. */
/*
 * md keeps the "(system|local)" values as ints: one read as above INT_MAX
 * (md printed it negative; md_parse_tval) is below every speed to md, which
 * then sleeps at any rate above the floor. It counts as 0 here.
 */
static uint64_t md_view(md_tunable t, const md_tval *v) {
        if (md_tunable_get(t)->restore == MD_RESTORE_MODE && v->value > INT_MAX)
                return 0;
        return v->value;
}

static void plan_raise(plan *p, const md_array *a, md_tunable t, uint64_t want, bool exact) {
        const md_tval *cur = &a->tunables[t];

        if (exact ? (cur->value == want && cur->kind != MD_V_SYSTEM) : md_view(t, cur) >= want)
                return;
        plan_add(p, a, t, want, NULL);
}

static int plan_speeds(const plan_input *in, profile pr, const boost_options *o, plan *p, char *errbuf, size_t errlen) {
        const md_array *a = in->array;
        uint64_t cur_max, floor, ceiling;
        int r;

        r = need_number(a, MD_T_SYNC_SPEED_MIN, errbuf, errlen);
        if (r == 0)
                r = need_number(a, MD_T_SYNC_SPEED_MAX, errbuf, errlen);
        if (r < 0)
                return r;
        cur_max = md_view(MD_T_SYNC_SPEED_MAX, &a->tunables[MD_T_SYNC_SPEED_MAX]);

        /* The ceiling: an option, or max's raise to the settings' ceiling, or what is there. */
        if (o->set[MD_T_SYNC_SPEED_MAX])
                ceiling = o->value[MD_T_SYNC_SPEED_MAX];
        else if (pr == PROFILE_MAX && cur_max < in->settings->ceiling)
                ceiling = in->settings->ceiling;
        else
                ceiling = cur_max;

        if (o->set[MD_T_SYNC_SPEED_MIN])
                floor = o->value[MD_T_SYNC_SPEED_MIN];
        else if (pr == PROFILE_MAX)
                floor = ceiling;
        else
                floor = in->settings->fast_floor;

        /*
         * md_do_sync() sleeps whenever the rebuild runs faster than
         * sync_speed_max, even below the floor: a ceiling under the floor
         * would cap the boost, so it is lifted.
         */
        if (ceiling < floor) {
                if (o->set[MD_T_SYNC_SPEED_MAX]) {
                        snprintf(errbuf, errlen,
                                 "sync_speed_max %" PRIu64 " would sit below the floor %" PRIu64
                                 " KiB/s; give a larger sync_speed_max or a smaller sync_speed_min.",
                                 ceiling, floor);
                        return -EINVAL;
                }
                ceiling = floor > in->settings->ceiling ? floor : in->settings->ceiling;
        }
        if (md_tunable_check(MD_T_SYNC_SPEED_MAX, ceiling) < 0 || md_tunable_check(MD_T_SYNC_SPEED_MIN, floor) < 0) {
                snprintf(errbuf, errlen, "The speeds %" PRIu64 "..%" PRIu64 " KiB/s are outside the kernel's range.",
                         floor, ceiling);
                return -ERANGE;
        }
        plan_raise(p, a, MD_T_SYNC_SPEED_MAX, ceiling, o->set[MD_T_SYNC_SPEED_MAX]);
        plan_raise(p, a, MD_T_SYNC_SPEED_MIN, floor, o->set[MD_T_SYNC_SPEED_MIN]);
        return 0;
}

uint64_t profile_stripe_cache_reshape_min(const md_array *a) {
        uint64_t chunk = a->chunk_size.value > a->chunk_size.old_value ? a->chunk_size.value : a->chunk_size.old_value;
        bool reshaping = a->sync_action == MD_SYNC_RESHAPE || a->reshape_position.kind == MD_V_NUMBER;

        if (!reshaping || a->chunk_size.kind != MD_V_NUMBER)
                return 0;
        return chunk * 4 / 4096;
}

uint64_t profile_stripe_cache_most(const md_array *a, uint64_t budget_bytes) {
        const md_tunable t = MD_T_STRIPE_CACHE_SIZE;
        const md_tunable_info *info = md_tunable_get(t);
        unsigned members = profile_cache_members(a);
        uint64_t per_stripe, most;

        if (!md_tunable_applies(t, a->level) || !md_tval_has_number(&a->tunables[t]))
                return 0;
        per_stripe = md_tunable_mem_cost(t, 1, members ? members : 1);
        most = per_stripe ? budget_bytes / per_stripe : 0;
        if (most > info->max)
                most = info->max;
        return most < info->min ? 0 : most;
}

static int plan_stripe_cache(const plan_input *in, profile pr, const boost_options *o, plan *p, char *errbuf,
                             size_t errlen) {
        const md_array *a = in->array;
        const md_tunable t = MD_T_STRIPE_CACHE_SIZE;
        const md_tunable_info *info = md_tunable_get(t);
        unsigned members = profile_cache_members(a);
        uint64_t per_stripe, by_budget, want;
        int r;

        if (!md_tunable_applies(t, a->level) || a->tunables[t].kind == MD_V_ABSENT) {
                if (!o->set[t])
                        return 0;
                snprintf(errbuf, errlen, "%s is %s, which has no stripe cache; drop the stripe_cache_size option.",
                         a->name, md_level_to_string(a->level) ?: "of unknown level");
                return -EINVAL;
        }
        r = need_number(a, t, errbuf, errlen);
        if (r < 0)
                return r;
        per_stripe = md_tunable_mem_cost(t, 1, members ? members : 1);
        by_budget = per_stripe ? in->budget_bytes / per_stripe : 0;

        if (o->set[t]) {
                want = o->value[t];
                if (want < profile_stripe_cache_reshape_min(a)) {
                        snprintf(errbuf, errlen,
                                 "A reshape of %s needs at least %" PRIu64 " stripes "
                                 "(four chunks); %" PRIu64 " would stall it.",
                                 a->name, profile_stripe_cache_reshape_min(a), want);
                        return -EINVAL;
                }
                if (want > a->tunables[t].value && want > by_budget) {
                        snprintf(errbuf, errlen,
                                 "stripe_cache_size %" PRIu64 " would pin %" PRIu64
                                 " MiB; the memory budget leaves %" PRIu64 " MiB for %s (at most %" PRIu64 " stripes).",
                                 want, md_tunable_mem_cost(t, want, members) >> 20, in->budget_bytes >> 20, a->name,
                                 by_budget);
                        return -ERANGE;
                }
                plan_raise(p, a, t, want, true);
                return 0;
        }

        want = profile_stripe_cache_most(a, in->budget_bytes);
        if (pr == PROFILE_FAST && want > in->settings->fast_stripe_cache)
                want = in->settings->fast_stripe_cache;
        if (want < info->min)
                return 0;
        plan_raise(p, a, t, want, false);
        return 0;
}

static int plan_check_array(const md_array *a, char *errbuf, size_t errlen) {
        if (!md_array_has_redundancy(a)) {
                snprintf(errbuf, errlen, "%s is %s: it has no redundancy, so it never rebuilds.", a->name,
                         md_level_to_string(a->level) ?: "of unknown level");
                return -EOPNOTSUPP;
        }
        if (a->state == MD_ARRAY_INACTIVE || a->state == MD_ARRAY_CLEAR || a->state < 0) {
                snprintf(errbuf, errlen, "%s is not active; start it first.", a->name);
                return -EOPNOTSUPP;
        }
        return 0;
}

int profile_plan(const plan_input *in, profile pr, const boost_options *o, plan *ret, char *errbuf, size_t errlen) {
        const md_array *a = in->array;
        syncmax_verdict v;
        plan p = {};
        int r;

        if (pr < 0 || pr >= _PROFILE_MAX) {
                snprintf(errbuf, errlen, "Unknown profile; the profiles are 'fast' and 'max'.");
                return -EINVAL;
        }
        r = plan_check_array(a, errbuf, errlen);
        if (r < 0)
                return r;

        /* Order matters for the kernel: the ceiling goes up before the floor follows it. */
        r = plan_speeds(in, pr, o, &p, errbuf, errlen);
        if (r < 0)
                return r;

        /* A numeric sync_max stops the operation at that sector; under a
         * reshape it may be mdadm's backup window (syncmax.h). */
        if (a->tunables[MD_T_SYNC_MAX].kind == MD_V_UNKNOWN)
                return need_number(a, MD_T_SYNC_MAX, errbuf, errlen);
        v = syncmax_judge(a, in->mdadm);
        if (v == SYNCMAX_LIFT)
                plan_add(&p, a, MD_T_SYNC_MAX, 0, "max");
        else if (v != SYNCMAX_NOTHING) {
                plan_hold *h = &p.held[p.n_held++];

                h->tunable = MD_T_SYNC_MAX;
                syncmax_explain(v, a, h->why, sizeof(h->why));
        }

        r = plan_stripe_cache(in, pr, o, &p, errbuf, errlen);
        if (r < 0)
                return r;

        if (o->set[MD_T_READ_AHEAD_KB]) {
                r = need_number(a, MD_T_READ_AHEAD_KB, errbuf, errlen);
                if (r < 0)
                        return r;
                plan_raise(&p, a, MD_T_READ_AHEAD_KB, o->value[MD_T_READ_AHEAD_KB], true);
        }
        /* No profile writes sync_io_depth: only the caller's option (Linux 6.16+). */
        if (o->set[MD_T_SYNC_IO_DEPTH]) {
                if (a->tunables[MD_T_SYNC_IO_DEPTH].kind == MD_V_ABSENT) {
                        snprintf(errbuf, errlen,
                                 "%s has no sync_io_depth (Linux 6.16 and later have it, for "
                                 "raid1/4/5/6/10); drop the sync_io_depth option.",
                                 a->name);
                        return -EINVAL;
                }
                r = need_number(a, MD_T_SYNC_IO_DEPTH, errbuf, errlen);
                if (r < 0)
                        return r;
                plan_raise(&p, a, MD_T_SYNC_IO_DEPTH, o->value[MD_T_SYNC_IO_DEPTH], true);
        }
        *ret = p;
        return 0;
}
