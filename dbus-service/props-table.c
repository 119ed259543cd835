/* SPDX-License-Identifier: MIT */
/*
 * Every property of the Manager and of the array objects, one row each:
 * name, D-Bus type, the function that appends its value, and how a change
 * is noticed (props.c compares each PROP_POLLED value with the last one
 * sent after every poll and every write; a PROP_CONST one never changes).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profiles.h"
#include "predict.h"
#include "props.h"
#include "service.h"
#include "settings.h"

/* The words of dev-NAME/state, as the kernel's state_show() prints them. */
static const struct {
        unsigned flag;
        const char *word;
} member_words[] = {
        { MD_MEMBER_FAULTY, "faulty" },           { MD_MEMBER_IN_SYNC, "in_sync" },
        { MD_MEMBER_JOURNAL, "journal" },         { MD_MEMBER_WRITE_MOSTLY, "write_mostly" },
        { MD_MEMBER_BLOCKED, "blocked" },         { MD_MEMBER_SPARE, "spare" },
        { MD_MEMBER_WRITE_ERROR, "write_error" }, { MD_MEMBER_WANT_REPLACEMENT, "want_replacement" },
        { MD_MEMBER_REPLACEMENT, "replacement" }, { MD_MEMBER_EXTERNAL_BBL, "external_bbl" },
        { MD_MEMBER_FAILFAST, "failfast" },       { MD_MEMBER_CLUSTER_ADD, "cluster_add" },
};

const journal_entry *props_entry_of(const context *c, const md_array *a) {
        if (!a->uuid[0])
                return NULL;
        for (unsigned i = 0; i < c->journal.n; i++)
                if (strcmp(c->journal.entries[i].uuid, a->uuid) == 0)
                        return &c->journal.entries[i];
        return NULL;
}

static bool add_string(DBusMessageIter *it, const char *s) {
        return dbus_message_iter_append_basic(it, DBUS_TYPE_STRING, &s);
}

static bool add_u64(DBusMessageIter *it, uint64_t v) {
        dbus_uint64_t x = v;
        return dbus_message_iter_append_basic(it, DBUS_TYPE_UINT64, &x);
}

static bool add_u32(DBusMessageIter *it, uint64_t v) {
        dbus_uint32_t x = v > UINT32_MAX ? UINT32_MAX : (dbus_uint32_t)v;
        return dbus_message_iter_append_basic(it, DBUS_TYPE_UINT32, &x);
}

static bool add_bool(DBusMessageIter *it, bool v) {
        dbus_bool_t x = v;
        return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &x);
}

static bool add_pair(DBusMessageIter *dict, const char *k, const char *v) {
        DBusMessageIter e;

        return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) && add_string(&e, k) &&
               add_string(&e, v) && dbus_message_iter_close_container(dict, &e);
}

static uint64_t tval_number(const md_tval *v) {
        return md_tval_has_number(v) ? v->value : 0;
}

static bool add_tvals(DBusMessageIter *it, const md_tval vals[_MD_T_ARRAY_MAX]) {
        DBusMessageIter dict;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{ss}", &dict))
                return false;
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                char text[64];

                if (vals[t].kind == MD_V_ABSENT || md_tval_format(&vals[t], text, sizeof(text)) < 0)
                        continue;
                if (!add_pair(&dict, md_tunable_get((md_tunable)t)->name, text))
                        return false;
        }
        return dbus_message_iter_close_container(it, &dict);
}

static bool add_member(DBusMessageIter *arr, const md_member *m) {
        DBusMessageIter st, words;
        dbus_int64_t slot = m->slot;

        if (!dbus_message_iter_open_container(arr, DBUS_TYPE_STRUCT, NULL, &st) || !add_string(&st, m->name) ||
            !add_string(&st, md_member_role_to_string(m->role) ?: "unknown") ||
            !dbus_message_iter_open_container(&st, DBUS_TYPE_ARRAY, "s", &words))
                return false;
        for (size_t i = 0; i < sizeof(member_words) / sizeof(member_words[0]); i++)
                if ((m->flags & member_words[i].flag) && !add_string(&words, member_words[i].word))
                        return false;
        return dbus_message_iter_close_container(&st, &words) &&
               dbus_message_iter_append_basic(&st, DBUS_TYPE_INT64, &slot) &&
               dbus_message_iter_close_container(arr, &st);
}

static bool add_members(DBusMessageIter *it, const md_array *a) {
        DBusMessageIter arr;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "(ssasx)", &arr))
                return false;
        for (unsigned i = 0; i < a->n_members; i++)
                if (!add_member(&arr, &a->members[i]))
                        return false;
        return dbus_message_iter_close_container(it, &arr);
}

static bool array_can_boost(const md_array *a) {
        return md_array_has_redundancy(a) && a->state >= 0 && a->state != MD_ARRAY_INACTIVE &&
               a->state != MD_ARRAY_CLEAR;
}

/* ---- the arrays ---- */

static bool get_name(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, a->name);
}

static bool get_device(const context *c, const md_array *a, DBusMessageIter *it) {
        char dev[sizeof("/dev/") + MD_NAME_MAX];

        (void)c;
        snprintf(dev, sizeof(dev), "/dev/%s", a->name);
        return add_string(it, dev);
}

static bool get_uuid(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, a->uuid);
}

static bool get_level(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, md_level_to_string(a->level) ?: "");
}

static bool get_state(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, md_array_state_to_string(a->state) ?: "");
}

static bool get_size(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, a->size_bytes);
}

static bool get_raid_disks(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u32(it, a->raid_disks.kind == MD_V_NUMBER ? a->raid_disks.value : 0);
}

static bool get_chunk_size(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, a->chunk_size.kind == MD_V_NUMBER ? a->chunk_size.value : 0);
}

static bool get_degraded(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u32(it, tval_number(&a->degraded));
}

static bool get_can_boost(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_bool(it, array_can_boost(a));
}

static bool get_members(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_members(it, a);
}

static bool get_action(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, md_sync_action_to_string(a->sync_action) ?: "");
}

static bool get_delayed(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_bool(it, a->progress.kind == MD_PROGRESS_DELAYED);
}

static bool get_last_action(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, md_sync_action_to_string(a->last_sync_action) ?: "");
}

static bool get_progress(const context *c, const md_array *a, DBusMessageIter *it) {
        double pct;

        (void)c;
        if (md_array_progress_percent(a, &pct) < 0)
                pct = -1;
        return dbus_message_iter_append_basic(it, DBUS_TYPE_DOUBLE, &pct);
}

static bool get_sync_completed(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.done : 0);
}

static bool get_sync_total(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.total : 0);
}

static bool get_speed(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, tval_number(&a->sync_speed));
}

/* md's rate before the boost in place came (its sync_speed then), 0 when not boosted or not known. */
static bool get_speed_before_boost(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);

        return add_u64(it, o && o->op_running && props_entry_of(c, a) ? o->tally.before_boost_kibs : 0);
}

static bool get_time_left(const context *c, const md_array *a, DBusMessageIter *it) {
        uint64_t secs;

        (void)c;
        return add_u64(it, md_array_seconds_left(a, &secs) < 0 ? 0 : secs);
}

static bool get_mismatch(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, tval_number(&a->mismatch_cnt));
}

static bool get_tunables(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_tvals(it, a->tunables);
}

static bool get_stripe_memory(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_u64(it, profile_stripe_cache_bytes(a));
}

static bool get_boosted(const context *c, const md_array *a, DBusMessageIter *it) {
        return add_bool(it, props_entry_of(c, a) != NULL);
}

static bool get_profile(const context *c, const md_array *a, DBusMessageIter *it) {
        const journal_entry *e = props_entry_of(c, a);

        return add_string(it, e ? e->profile : "");
}

static bool get_boosted_since(const context *c, const md_array *a, DBusMessageIter *it) {
        const journal_entry *e = props_entry_of(c, a);

        return add_u64(it, e ? e->since_usec : 0);
}

/*
 * The array's persistent settings (settings.h) as a(sss): each tunable, the
 * value its setting wrote, and its state: "applied", "overridden" (an
 * administrator's value in its place, left alone), "to-apply" (written on
 * the next poll), "boosted" (a boost is on top; its restore comes back to
 * the setting), "held" (RestoreAll put the original back until the service
 * starts again).
 */
static bool get_settings(const context *c, const md_array *a, DBusMessageIter *it) {
        const journal_entry *e = a->uuid[0] ? journal_find((journal *)&c->settings, a->uuid) : NULL;
        bool boosted = props_entry_of(c, a) != NULL;
        DBusMessageIter arr, st;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "(sss)", &arr))
                return false;
        for (unsigned t = 0; e && t < _MD_T_ARRAY_MAX; t++) {
                const char *name = md_tunable_get(t)->name, *state, *v;
                char value[64];

                if (e->originals[t].kind == MD_V_ABSENT)
                        continue;
                if (md_tval_format(&e->written[t], value, sizeof(value)) < 0)
                        snprintf(value, sizeof(value), "?");
                if (boosted)
                        state = "boosted";
                else if (c->settings_held)
                        state = "held";
                else
                        state = setting_state_to_string(settings_judge(e, t, &a->tunables[t]));
                v = value;
                if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_STRUCT, NULL, &st) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &name) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &v) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &state) ||
                    !dbus_message_iter_close_container(&arr, &st))
                        return false;
        }
        return dbus_message_iter_close_container(it, &arr);
}

static bool get_originals(const context *c, const md_array *a, DBusMessageIter *it) {
        static const md_tval none[_MD_T_ARRAY_MAX];
        const journal_entry *e = props_entry_of(c, a);

        return add_tvals(it, e ? e->originals : none);
}

static bool get_stuck(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);

        return add_string(it, o ? o->reshape.stuck : "");
}

static bool get_failures_tolerated(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);
        dbus_int32_t v = o ? o->failures_tolerated : -1;

        return dbus_message_iter_append_basic(it, DBUS_TYPE_INT32, &v);
}

static bool get_no_redundancy_since(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);

        return add_u64(it, o ? o->exposed_usec : 0);
}

bool props_dict_add(DBusMessageIter *dict, const char *key, int type, const char *sig, const void *value) {
        DBusMessageIter e, v;

        return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
               dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
               dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v) &&
               dbus_message_iter_append_basic(&v, type, value) && dbus_message_iter_close_container(&e, &v) &&
               dbus_message_iter_close_container(dict, &e);
}

/* The last operation the service watched end, as a{sv}; empty before one has. */
static bool get_last_operation(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);
        const operation_record *r = o ? &o->last_op : NULL;
        DBusMessageIter dict;
        bool ok;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
                return false;
        ok = true;
        if (r && r->action[0]) {
                const char *action = r->action, *outcome = r->outcome;
                dbus_uint64_t started = r->started_usec, ended = r->ended_usec, kib = r->kib;
                dbus_bool_t completed = r->completed, restored = r->restored;
                double progress = r->progress;

                ok = props_dict_add(&dict, "action", DBUS_TYPE_STRING, "s", &action) &&
                     props_dict_add(&dict, "started", DBUS_TYPE_UINT64, "t", &started) &&
                     props_dict_add(&dict, "ended", DBUS_TYPE_UINT64, "t", &ended) &&
                     props_dict_add(&dict, "completed", DBUS_TYPE_BOOLEAN, "b", &completed) &&
                     props_dict_add(&dict, "outcome", DBUS_TYPE_STRING, "s", &outcome) &&
                     props_dict_add(&dict, "progress", DBUS_TYPE_DOUBLE, "d", &progress) &&
                     props_dict_add(&dict, "kib", DBUS_TYPE_UINT64, "t", &kib) &&
                     props_dict_add(&dict, "restored", DBUS_TYPE_BOOLEAN, "b", &restored);
        }
        return dbus_message_iter_close_container(it, &dict) && ok;
}

/*
 * What the governor of the array's boost does and why, as a{sv}: state
 * ("pending", "free", "learning", "steering", "done"), users_share (u, %),
 * users_latency_ms (u: the bound, 0 when the target is the share), rate (t,
 * KiB/s: the floor the boost has, or the ceiling while steering), depth (t:
 * the sync_io_depth it set, 0 for none), baseline, users, target (t, KiB/s:
 * what the users get alone, get now, are to keep; 0 until measured),
 * latency_us (t: their estimated 99th percentile over the last step, 0
 * until measured), moves (t, KiB/s: while steering, what the rebuild moved
 * over the last step when the users' requests held it below three quarters
 * of the rate, else 0), floor_held (b: steering to a share at the floor from
 * before the boost with the users still short of it), minute (t, KiB/s:
 * steering to a share, what the users got over the last minute, every step
 * counted, when that keeps the rebuild from more, else 0), why (s). Empty when
 * no governor follows a boost.
 */
static bool get_governor(const context *c, const md_array *a, DBusMessageIter *it) {
        const journal_entry *e = props_entry_of(c, a);
        const boost_watch *w = e ? context_watch(c, e) : NULL;
        const governor_clock *clk = w ? &w->governor : NULL;
        DBusMessageIter dict;
        bool ok = true;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
                return false;
        if (e && e->fit != GOVERNOR_OFF) {
                const char *state = governor_state_to_string(e->fit), *why = NULL;
                dbus_uint32_t share = e->users_share ? e->users_share : c->cfg.profiles.users_share;
                dbus_uint32_t bound = governor_bound_ms(&c->cfg.profiles, e);
                bool steering = e->fit == GOVERNOR_LEARNING || e->fit == GOVERNOR_STEERING;
                dbus_uint64_t rate = tval_number(&e->written[steering ? MD_T_SYNC_SPEED_MAX : MD_T_SYNC_SPEED_MIN]);
                dbus_uint64_t depth = tval_number(&e->written[MD_T_SYNC_IO_DEPTH]);
                dbus_uint64_t baseline = clk ? clk->baseline_kibs : 0, users = clk ? clk->users_kibs : 0;
                dbus_uint64_t target = bound ? 0 : governor_target(baseline, share);
                dbus_uint64_t latency = clk ? clk->latency_us : 0;
                dbus_uint64_t cache = governor_grown_cache(e);
                dbus_uint64_t moves = e->fit == GOVERNOR_STEERING ? governor_moves_kibs(clk, bound, depth, rate) : 0;
                dbus_bool_t floor_held = e->fit == GOVERNOR_STEERING && !bound && governor_floor_held(clk, share, rate);
                dbus_uint64_t minute = e->fit == GOVERNOR_STEERING && !bound ? governor_minute_kibs(clk, share) : 0;
                char text[1024];

                governor_explain(&c->cfg.profiles, e->fit, clk, share, bound, rate, depth, cache, text, sizeof(text));
                why = text;
                ok = props_dict_add(&dict, "state", DBUS_TYPE_STRING, "s", &state) &&
                     props_dict_add(&dict, "users_share", DBUS_TYPE_UINT32, "u", &share) &&
                     props_dict_add(&dict, "users_latency_ms", DBUS_TYPE_UINT32, "u", &bound) &&
                     props_dict_add(&dict, "rate", DBUS_TYPE_UINT64, "t", &rate) &&
                     props_dict_add(&dict, "depth", DBUS_TYPE_UINT64, "t", &depth) &&
                     props_dict_add(&dict, "stripe_cache", DBUS_TYPE_UINT64, "t", &cache) &&
                     props_dict_add(&dict, "baseline", DBUS_TYPE_UINT64, "t", &baseline) &&
                     props_dict_add(&dict, "users", DBUS_TYPE_UINT64, "t", &users) &&
                     props_dict_add(&dict, "target", DBUS_TYPE_UINT64, "t", &target) &&
                     props_dict_add(&dict, "latency_us", DBUS_TYPE_UINT64, "t", &latency) &&
                     props_dict_add(&dict, "moves", DBUS_TYPE_UINT64, "t", &moves) &&
                     props_dict_add(&dict, "floor_held", DBUS_TYPE_BOOLEAN, "b", &floor_held) &&
                     props_dict_add(&dict, "minute", DBUS_TYPE_UINT64, "t", &minute) &&
                     props_dict_add(&dict, "why", DBUS_TYPE_STRING, "s", &why);
        }
        return dbus_message_iter_close_container(it, &dict) && ok;
}

/*
 * The rules a policy gives @uuid (NULL: the defaults), as a{ss}: "rebuild"
 * and "check" -> "none", "fast", "fast:N", "fast:Nms", "max"; for an array also
 * "rebuild_from" and "check_from" -> "array" (its own rule) or "default".
 */
static bool add_policy(const context *c, const char *uuid, DBusMessageIter *it) {
        DBusMessageIter dict;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{ss}", &dict))
                return false;
        for (int k = 0; k < _POLICY_CLASS_MAX; k++) {
                bool own;
                const policy_rule *r = policy_lookup(&c->cfg.policies, uuid, (policy_class)k, &own);
                char words[POLICY_RULE_TEXT_MAX], from[32];

                policy_rule_format(r, words, sizeof(words));
                snprintf(from, sizeof(from), "%s_from", policy_class_to_string((policy_class)k));
                if (!add_pair(&dict, policy_class_to_string((policy_class)k), words) ||
                    (uuid && !add_pair(&dict, from, own ? "array" : "default")))
                        return false;
        }
        return dbus_message_iter_close_container(it, &dict);
}

static bool get_policy(const context *c, const md_array *a, DBusMessageIter *it) {
        return add_policy(c, a->uuid[0] ? a->uuid : "", it);
}

static bool get_has_bitmap(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_bool(it, a->has_bitmap);
}

static bool get_bitmap_type(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, a->bitmap_type);
}

/*
 * When the running operation ends, as a{sv} (predict.h): remaining_kib (t),
 * now_s, governor_s, max_s (t, seconds from now; 0 unknown), now_kibs,
 * governor_kibs, max_kibs (t, the rates they rest on), max_at_most (b: max
 * may be faster, its rate was read under md's ceiling), governor_target
 * (s, the users' target governor_s is for: "50%" or "50ms"), busy_percent (u,
 * how much of the time the users were busy; absent until known). Empty
 * when nothing runs.
 */
static bool get_prediction(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);
        DBusMessageIter dict;
        bool ok = true;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
                return false;
        if (o && o->op_running && a->progress.kind == MD_PROGRESS_RUNNING && a->progress.total >= a->progress.done) {
                char target[GOVERNOR_TARGET_NAME_MAX];
                prediction_input in;
                prediction p;
                dbus_uint64_t left, now_s, gov_s, max_s, now_kibs, gov_kibs, max_kibs;
                dbus_bool_t at_most;

                /* The governor's target: the boost's own, else the one a boost now would get. */
                governor_target_name(&c->cfg.profiles, props_entry_of(c, a), target);
                predict_input(&o->tally, &c->reports, a->uuid, md_sync_action_to_string(o->op_action) ?: "", target,
                              &in);
                in.remaining_kib = (a->progress.total - a->progress.done) / 2;
                in.now_kibs = a->sync_speed.kind == MD_V_NUMBER ? a->sync_speed.value : 0;
                predict(&in, &p);
                left = in.remaining_kib, now_s = p.now_s, gov_s = p.governor_s, max_s = p.max_s;
                now_kibs = in.now_kibs, gov_kibs = p.governor_kibs, max_kibs = p.max_kibs;
                at_most = p.max_at_most;
                ok = props_dict_add(&dict, "remaining_kib", DBUS_TYPE_UINT64, "t", &left) &&
                     props_dict_add(&dict, "now_s", DBUS_TYPE_UINT64, "t", &now_s) &&
                     props_dict_add(&dict, "governor_s", DBUS_TYPE_UINT64, "t", &gov_s) &&
                     props_dict_add(&dict, "max_s", DBUS_TYPE_UINT64, "t", &max_s) &&
                     props_dict_add(&dict, "now_kibs", DBUS_TYPE_UINT64, "t", &now_kibs) &&
                     props_dict_add(&dict, "governor_kibs", DBUS_TYPE_UINT64, "t", &gov_kibs) &&
                     props_dict_add(&dict, "max_kibs", DBUS_TYPE_UINT64, "t", &max_kibs) &&
                     props_dict_add(&dict, "max_at_most", DBUS_TYPE_BOOLEAN, "b", &at_most) &&
                     props_dict_add(&dict, "governor_target", DBUS_TYPE_STRING, "s", &(const char *){ target });
                if (ok && in.busy_known) {
                        dbus_uint32_t busy = (in.busy_permille + 5) / 10;

                        ok = props_dict_add(&dict, "busy_percent", DBUS_TYPE_UINT32, "u", &busy);
                }
        }
        return dbus_message_iter_close_container(it, &dict) && ok;
}

/* One stretch of the users (report.h) into @dict as PREFIXkibs and PREFIXbusy_percent. */
static bool add_users(DBusMessageIter *dict, const char *prefix, const tally_users *u) {
        char kibs[32], busy[32];
        dbus_uint64_t rate = report_users_busy_kibs(u);
        dbus_uint32_t percent = (report_users_busy_permille(u) + 5) / 10;

        snprintf(kibs, sizeof(kibs), "%skibs", prefix);
        snprintf(busy, sizeof(busy), "%sbusy_percent", prefix);
        return props_dict_add(dict, kibs, DBUS_TYPE_UINT64, "t", &rate) &&
               props_dict_add(dict, busy, DBUS_TYPE_UINT32, "u", &percent);
}

/*
 * What the array's users get while its operation runs, from the md
 * device's counters (md counts its users there, never the rebuild): under
 * the boost in place (without one: since the operation began or the last
 * boost ended), and before it. Empty when no operation runs or the md
 * device's counters cannot be read. "kibs" (while busy; 0 until they were
 * busy for 10 s), "busy_percent", "sampled_s"; with a boost "before_kibs"
 * and "before_busy_percent" (0 when not known).
 */
static bool get_users(const context *c, const md_array *a, DBusMessageIter *it) {
        const array_object *o = context_object(c, a->name);
        DBusMessageIter dict;
        bool ok = true;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
                return false;
        if (o && o->op_running && o->tally.have_io) {
                const op_tally *t = &o->tally;
                const tally_users *now = t->boosted ? &t->users_boosted : &t->users_unboosted;
                dbus_uint64_t sampled = now->sampled_usec / 1000000u;

                ok = add_users(&dict, "", now) && props_dict_add(&dict, "sampled_s", DBUS_TYPE_UINT64, "t", &sampled) &&
                     (!t->boosted || add_users(&dict, "before_", &t->users_before));
        }
        return dbus_message_iter_close_container(it, &dict) && ok;
}

/*
 * The check or repair of @a, running or paused (checks.h), as a{sv}: empty
 * when there is none. "state" -> "running" or "paused"; "action"; "why"
 * (paused: "window", "degraded", "rebuild"); "position" and "total"
 * (sectors; paused: where it resumes); "progress" (percent); "mismatches"
 * (mismatched sectors found so far, over its pauses); "paused_usec";
 * "resumes_usec" (paused by its windows: when they open, µs since the epoch).
 */
static bool get_check(const context *c, const md_array *a, DBusMessageIter *it) {
        const check_record *r = a->uuid[0] ? check_book_find(&c->checks, a->uuid) : NULL;
        bool runs = a->sync_action == MD_SYNC_CHECK || a->sync_action == MD_SYNC_REPAIR;
        DBusMessageIter dict;
        bool ok = true;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
                return false;
        if (runs || (r && r->why != CHECK_WHY_NONE)) {
                bool paused = !runs;
                const char *state = paused ? "paused" : "running";
                const char *action = md_sync_action_to_string(paused ? r->action : a->sync_action);
                const char *why = paused ? check_why_to_string(r->why) : "";
                dbus_uint64_t pos = 0, total = 0, mismatches = r ? r->mismatches : 0;
                dbus_uint64_t paused_usec = paused ? r->paused_usec : 0;
                dbus_uint64_t resumes = paused && r->why == CHECK_WHY_WINDOW ? service_check_resumes_usec(c, a) : 0;
                double progress = 0;

                if (paused) {
                        pos = r->position, total = r->total;
                } else if (a->progress.kind == MD_PROGRESS_RUNNING) {
                        pos = a->progress.done, total = a->progress.total;
                        mismatches = check_earlier_mismatches(r, pos);
                }
                if (!paused && a->mismatch_cnt.kind == MD_V_NUMBER)
                        mismatches += a->mismatch_cnt.value;
                if (total > 0)
                        progress = 100.0 * (double)pos / (double)total;
                ok = props_dict_add(&dict, "state", DBUS_TYPE_STRING, "s", &state) &&
                     props_dict_add(&dict, "action", DBUS_TYPE_STRING, "s", &action) &&
                     props_dict_add(&dict, "why", DBUS_TYPE_STRING, "s", &why) &&
                     props_dict_add(&dict, "position", DBUS_TYPE_UINT64, "t", &pos) &&
                     props_dict_add(&dict, "total", DBUS_TYPE_UINT64, "t", &total) &&
                     props_dict_add(&dict, "progress", DBUS_TYPE_DOUBLE, "d", &progress) &&
                     props_dict_add(&dict, "mismatches", DBUS_TYPE_UINT64, "t", &mismatches) &&
                     props_dict_add(&dict, "paused_usec", DBUS_TYPE_UINT64, "t", &paused_usec) &&
                     props_dict_add(&dict, "resumes_usec", DBUS_TYPE_UINT64, "t", &resumes);
        }
        return dbus_message_iter_close_container(it, &dict) && ok;
}

static bool get_user_io(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c;
        return add_string(it, md_user_io_to_string(md_array_user_io(a)) ?: "");
}

static const prop_def array_props[] = {
        { "Name", "s", get_name, PROP_POLLED },
        { "Device", "s", get_device, PROP_POLLED },
        { "UUID", "s", get_uuid, PROP_POLLED },
        { "Level", "s", get_level, PROP_POLLED },
        { "State", "s", get_state, PROP_POLLED },
        { "Size", "t", get_size, PROP_POLLED },
        { "RaidDisks", "u", get_raid_disks, PROP_POLLED },
        { "ChunkSize", "t", get_chunk_size, PROP_POLLED },
        { "Degraded", "u", get_degraded, PROP_POLLED },
        { "CanBoost", "b", get_can_boost, PROP_POLLED },
        { "Members", "a(ssasx)", get_members, PROP_POLLED },
        { "Action", "s", get_action, PROP_POLLED },
        { "Delayed", "b", get_delayed, PROP_POLLED },
        { "LastAction", "s", get_last_action, PROP_POLLED },
        { "Progress", "d", get_progress, PROP_POLLED },
        { "SyncCompleted", "t", get_sync_completed, PROP_POLLED },
        { "SyncTotal", "t", get_sync_total, PROP_POLLED },
        { "Speed", "t", get_speed, PROP_POLLED },
        { "TimeLeft", "t", get_time_left, PROP_POLLED },
        { "SpeedBeforeBoost", "t", get_speed_before_boost, PROP_POLLED },
        { "Settings", "a(sss)", get_settings, PROP_POLLED },
        { "MismatchCount", "t", get_mismatch, PROP_POLLED },
        { "Tunables", "a{ss}", get_tunables, PROP_POLLED },
        { "StripeCacheMemory", "t", get_stripe_memory, PROP_POLLED },
        { "Boosted", "b", get_boosted, PROP_POLLED },
        { "Profile", "s", get_profile, PROP_POLLED },
        { "BoostedSince", "t", get_boosted_since, PROP_POLLED },
        { "Originals", "a{ss}", get_originals, PROP_POLLED },
        { "Stuck", "s", get_stuck, PROP_POLLED },
        { "FailuresTolerated", "i", get_failures_tolerated, PROP_POLLED },
        { "NoRedundancySince", "t", get_no_redundancy_since, PROP_POLLED },
        { "LastOperation", "a{sv}", get_last_operation, PROP_POLLED },
        { "Governor", "a{sv}", get_governor, PROP_POLLED },
        { "Prediction", "a{sv}", get_prediction, PROP_POLLED },
        { "Policy", "a{ss}", get_policy, PROP_POLLED },
        { "HasBitmap", "b", get_has_bitmap, PROP_POLLED },
        { "BitmapType", "s", get_bitmap_type, PROP_POLLED },
        { "UserIo", "s", get_user_io, PROP_POLLED },
        { "Check", "a{sv}", get_check, PROP_POLLED },
        { "Users", "a{sv}", get_users, PROP_POLLED },
};

/* ---- the Manager ---- */

static bool get_version(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)c, (void)a;
        return add_string(it, MDBOOSTD_VERSION);
}

static bool get_speed_min(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)a;
        return add_u64(it, tval_number(&c->globals.speed_limit_min));
}

static bool get_speed_max(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)a;
        return add_u64(it, tval_number(&c->globals.speed_limit_max));
}

static bool get_budget(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)a;
        return add_u64(it, profile_memory_budget(&c->cfg.profiles, c->mem_total));
}

static bool get_arrays(const context *c, const md_array *a, DBusMessageIter *it) {
        DBusMessageIter arr;

        (void)a;
        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr))
                return false;
        for (unsigned i = 0; i < c->n_objects; i++) {
                const char *p = c->objects[i].path;

                if (!dbus_message_iter_append_basic(&arr, DBUS_TYPE_OBJECT_PATH, &p))
                        return false;
        }
        return dbus_message_iter_close_container(it, &arr);
}

static bool get_journal_problem(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)a;
        return add_string(it, c->journal_problem);
}

static bool get_default_policy(const context *c, const md_array *a, DBusMessageIter *it) {
        (void)a;
        return add_policy(c, NULL, it);
}

static const prop_def manager_props[] = {
        { "Version", "s", get_version, PROP_CONST },
        { "SpeedLimitMin", "t", get_speed_min, PROP_POLLED },
        { "SpeedLimitMax", "t", get_speed_max, PROP_POLLED },
        { "MemoryBudget", "t", get_budget, PROP_POLLED },
        { "Arrays", "ao", get_arrays, PROP_POLLED },
        { "JournalProblem", "s", get_journal_problem, PROP_POLLED },
        { "DefaultPolicy", "a{ss}", get_default_policy, PROP_POLLED },
};

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

_Static_assert(ELEMENTSOF(array_props) <= PROPS_MAX, "PROPS_MAX holds every property");
_Static_assert(ELEMENTSOF(manager_props) <= PROPS_MAX, "PROPS_MAX holds every property");

const prop_def *props_table(obj_kind k, unsigned *ret_n) {
        if (k == OBJ_MANAGER) {
                *ret_n = ELEMENTSOF(manager_props);
                return manager_props;
        }
        *ret_n = ELEMENTSOF(array_props);
        return array_props;
}

int props_find(obj_kind k, const char *name) {
        unsigned n;
        const prop_def *t = props_table(k, &n);

        for (unsigned i = 0; i < n; i++)
                if (strcmp(t[i].name, name) == 0)
                        return (int)i;
        return -ENOENT;
}
