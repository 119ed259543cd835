/* SPDX-License-Identifier: MIT */
/*
 * Boost, Restore, RestoreAll, SetPolicy, SetSettings, GetProfiles and GetReports. Every mutating method has the
 * same shape: parse, validate, (authorised by the dispatcher), write,
 * persist, emit PropertiesChanged, reply. The Manager's and the array
 * objects' methods share one helper each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "dispatch.h"
#include "errors.h"
#include "log.h"
#include "monitor.h"
#include "options.h"
#include "profiles.h"
#include "props.h"
#include "service.h"

static bool append_changes(DBusMessageIter *it, const op_result *res) {
        DBusMessageIter arr, st;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "(sss)", &arr))
                return false;
        for (unsigned i = 0; i < res->n_changes; i++) {
                const char *name = res->changes[i].name, *old = res->changes[i].old,
                           *new_text = res->changes[i].new_text;

                if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_STRUCT, NULL, &st) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &name) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &old) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &new_text) ||
                    !dbus_message_iter_close_container(&arr, &st))
                        return false;
        }
        return dbus_message_iter_close_container(it, &arr);
}

static bool append_held(DBusMessageIter *it, const op_result *res) {
        DBusMessageIter arr, st;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "(ss)", &arr))
                return false;
        for (unsigned i = 0; i < res->n_held; i++) {
                const char *name = res->held[i].name, *why = res->held[i].why;

                if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_STRUCT, NULL, &st) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &name) ||
                    !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &why) ||
                    !dbus_message_iter_close_container(&arr, &st))
                        return false;
        }
        return dbus_message_iter_close_container(it, &arr);
}

/* Restore's reply: the changes; Boost's also the tunables it left alone (@with_held). */
static DBusMessage *reply_changes(call *k, const op_result *res, bool with_path, bool with_held) {
        _cleanup_message_ DBusMessage *reply = dbus_message_new_method_return(k->m);
        char path[OBJECT_PATH_MAX];
        const char *p = path;
        DBusMessageIter it;

        if (!reply)
                return NULL;
        snprintf(path, sizeof(path), ARRAYS_PATH "/%s", res->array);
        dbus_message_iter_init_append(reply, &it);
        if ((with_path && !dbus_message_iter_append_basic(&it, DBUS_TYPE_OBJECT_PATH, &p)) ||
            !append_changes(&it, res) || (with_held && !append_held(&it, res)))
                return NULL;
        return TAKE_PTR(reply);
}

/*
 * Announces the boost's own state (Boosted, Profile, Originals) first, then
 * reads the arrays again and announces what the kernel reads back, so both
 * PropertiesChanged go out before the reply and Tunables agrees with it.
 * Polls at the fast rate from now on: a boost may be in place.
 */
static void publish_after_write(context *c) {
        monitor_publish(c, true);
        if (service_refresh(c) < 0)
                log_warning("could not read the md arrays back after writing");
        monitor_publish(c, true);
        loop_tick_within(&c->loop, c->cfg.poll_active_ms);
}

/* The error reply to a Boost or Restore that failed: its message, with the hint unless it says what to do itself. */
static DBusMessage *reply_failure(call *k, int r, const op_result *res) {
        if (res->complete)
                return errors_reply_text(k->m, r, res->message);
        return errors_reply(k->m, r, "%s", res->message);
}

static DBusMessage *do_boost(call *k, const char *spec, const char *profile_name, DBusMessageIter *opts, bool manager) {
        char errbuf[512];
        boost_options o;
        op_result res = {};
        int r;

        r = options_parse_boost(opts, &o, errbuf, sizeof(errbuf));
        if (r < 0)
                return errors_reply(k->m, r, "%s", errbuf);
        r = service_boost(k->c, spec, profile_name, &o, k->who, &res);
        if (!o.dry_run || r < 0)
                publish_after_write(k->c);
        if (r < 0)
                return reply_failure(k, r, &res);
        return reply_changes(k, &res, manager, true);
}

static DBusMessage *do_restore(call *k, const char *spec, DBusMessageIter *opts) {
        char errbuf[512];
        op_result res = {};
        int r;

        r = options_parse_restore(opts, errbuf, sizeof(errbuf));
        if (r < 0)
                return errors_reply(k->m, r, "%s", errbuf);
        r = service_restore(k->c, spec, k->who, &res);
        publish_after_write(k->c);
        if (r < 0)
                return reply_failure(k, r, &res);
        return reply_changes(k, &res, false, false);
}

DBusMessage *method_manager_boost(call *k) {
        const char *spec, *profile_name;
        DBusMessageIter it;

        dbus_message_iter_init(k->m, &it);
        dbus_message_iter_get_basic(&it, &spec);
        dbus_message_iter_next(&it);
        dbus_message_iter_get_basic(&it, &profile_name);
        dbus_message_iter_next(&it);
        return do_boost(k, spec, profile_name, &it, true);
}

DBusMessage *method_array_boost(call *k) {
        const char *profile_name;
        DBusMessageIter it;

        dbus_message_iter_init(k->m, &it);
        dbus_message_iter_get_basic(&it, &profile_name);
        dbus_message_iter_next(&it);
        return do_boost(k, k->array, profile_name, &it, false);
}

DBusMessage *method_manager_restore(call *k) {
        const char *spec;
        DBusMessageIter it;

        dbus_message_iter_init(k->m, &it);
        dbus_message_iter_get_basic(&it, &spec);
        dbus_message_iter_next(&it);
        return do_restore(k, spec, &it);
}

DBusMessage *method_array_restore(call *k) {
        DBusMessageIter it;

        dbus_message_iter_init(k->m, &it);
        return do_restore(k, k->array, &it);
}

/* RestoreAll's reply: the kernel names of the arrays it restored. */
static DBusMessage *reply_names(call *k, char (*names)[MD_NAME_MAX + 1], unsigned n) {
        _cleanup_message_ DBusMessage *reply = dbus_message_new_method_return(k->m);
        DBusMessageIter it, arr;

        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &arr))
                return NULL;
        for (unsigned i = 0; i < n; i++) {
                const char *s = names[i];

                if (!dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &s))
                        return NULL;
        }
        if (!dbus_message_iter_close_container(&it, &arr))
                return NULL;
        return TAKE_PTR(reply);
}

/* Restores every boost; conflicts and failures are reported after all were tried. */
DBusMessage *method_restore_all(call *k) {
        _cleanup_free_ char(*names)[MD_NAME_MAX + 1] = NULL;
        char errbuf[512];
        op_result failed = {};
        int first_err = 0, r;
        DBusMessageIter it;
        unsigned n = 0;

        bool settings;

        dbus_message_iter_init(k->m, &it);
        r = options_parse_restore_all(&it, &settings, errbuf, sizeof(errbuf));
        if (r < 0)
                return errors_reply(k->m, r, "%s", errbuf);
        r = service_refresh(k->c);
        if (r < 0)
                return errors_reply(k->m, r, "Could not read the md arrays: %s.", strerror(-r));
        /* An array's name can come twice: once for its boost, once for its settings. */
        names = calloc(k->c->arrays.n ? 2 * k->c->arrays.n : 1, sizeof(*names));
        if (!names)
                return NULL;
        for (unsigned i = 0; i < k->c->arrays.n; i++) {
                const md_array *a = &k->c->arrays.arrays[i];
                op_result res = {};

                if (!props_entry_of(k->c, a))
                        continue;
                r = service_restore_array(k->c, a, k->who, NULL, &res);
                if (r < 0 && !first_err) {
                        first_err = r;
                        failed = res;
                }
                if (r == 0 || r == -MDB_ECONFLICT)
                        snprintf(names[n++], sizeof(names[0]), "%s", a->name);
        }
        /* The boosts first: a boost on top of a setting comes back to it, then the setting to its original. */
        if (settings) {
                r = service_refresh(k->c);
                if (r == 0)
                        r = service_unapply_settings(k->c, k->who, names, &n);
                if (r < 0 && !first_err) {
                        first_err = r;
                        snprintf(failed.message, sizeof(failed.message),
                                 "Could not put back every array's settings (%s); see the service's log.",
                                 strerror(-r));
                }
        }
        publish_after_write(k->c);
        if (first_err)
                return reply_failure(k, first_err, &failed);
        return reply_names(k, names, n);
}

static bool append_profile(DBusMessageIter *arr, const profile_settings *s, profile p) {
        const char *name = profile_to_string(p), *desc = profile_description(p);
        DBusMessageIter st, dict, e;

        if (!dbus_message_iter_open_container(arr, DBUS_TYPE_STRUCT, NULL, &st) ||
            !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &name) ||
            !dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &desc) ||
            !dbus_message_iter_open_container(&st, DBUS_TYPE_ARRAY, "{ss}", &dict))
                return false;
        for (int t = 0; t < _MD_T_ARRAY_MAX; t++) {
                char rule[160];
                const char *tn = md_tunable_get((md_tunable)t)->name, *rp = rule;

                if (profile_rule(p, s, (md_tunable)t, rule, sizeof(rule)) < 0)
                        continue;
                if (!dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &tn) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &rp) ||
                    !dbus_message_iter_close_container(&dict, &e))
                        return false;
        }
        return dbus_message_iter_close_container(&st, &dict) && dbus_message_iter_close_container(arr, &st);
}

DBusMessage *method_get_profiles(call *k) {
        _cleanup_message_ DBusMessage *reply = dbus_message_new_method_return(k->m);
        DBusMessageIter it, arr;

        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "(ssa{ss})", &arr))
                return NULL;
        for (int p = 0; p < _PROFILE_MAX; p++)
                if (!append_profile(&arr, &k->c->cfg.profiles, (profile)p))
                        return NULL;
        if (!dbus_message_iter_close_container(&it, &arr))
                return NULL;
        return TAKE_PTR(reply);
}

DBusMessage *method_set_policy(call *k) {
        const char *spec, *class_word, *rule_word;
        op_result res = {};
        int r;

        if (!dbus_message_get_args(k->m, NULL, DBUS_TYPE_STRING, &spec, DBUS_TYPE_STRING, &class_word, DBUS_TYPE_STRING,
                                   &rule_word, DBUS_TYPE_INVALID))
                return errors_reply(k->m, -EINVAL, "SetPolicy takes an array, a rule and its policy.");
        r = service_set_policy(k->c, spec, class_word, rule_word, k->who, &res);
        if (r < 0)
                return errors_reply_text(k->m, r, res.message);
        /* Policy and DefaultPolicy change now; an operation that runs is boosted on the next poll. */
        monitor_publish(k->c, true);
        loop_tick_within(&k->c->loop, k->c->cfg.poll_active_ms);
        return dbus_message_new_method_return(k->m);
}

DBusMessage *method_set_settings(call *k) {
        const char *spec;
        char errbuf[512];
        boost_options o;
        op_result res = {};
        DBusMessageIter it;
        int r;

        dbus_message_iter_init(k->m, &it);
        dbus_message_iter_get_basic(&it, &spec);
        dbus_message_iter_next(&it);
        r = options_parse_boost(&it, &o, errbuf, sizeof(errbuf));
        if (r < 0)
                return errors_reply(k->m, r, "%s", errbuf);
        r = service_set_settings(k->c, spec, &o, k->who, &res);
        if (!o.dry_run || r < 0)
                publish_after_write(k->c);
        if (r < 0)
                return reply_failure(k, r, &res);
        return reply_changes(k, &res, false, false);
}

static bool add_string(DBusMessageIter *d, const char *key, const char *value) {
        return props_dict_add(d, key, DBUS_TYPE_STRING, "s", &value);
}

static bool add_u64(DBusMessageIter *d, const char *key, uint64_t value) {
        dbus_uint64_t v = value;

        return props_dict_add(d, key, DBUS_TYPE_UINT64, "t", &v);
}

/* One report as a{sv} (docs/dbus-api.md, GetReports). */
static bool append_report(DBusMessageIter *arr, const op_report *r) {
        DBusMessageIter d;
        char summary[512];
        int kept = report_users_kept_percent(r);
        double progress = r->progress;

        report_summary(r, summary, sizeof(summary));
        return dbus_message_iter_open_container(arr, DBUS_TYPE_ARRAY, "{sv}", &d) &&
               add_string(&d, "array", r->array) && add_string(&d, "uuid", r->uuid) &&
               add_string(&d, "action", r->action) && add_string(&d, "outcome", r->outcome) &&
               add_string(&d, "onto", r->onto) && add_u64(&d, "started", r->started_usec) &&
               add_u64(&d, "ended", r->ended_usec) && add_u64(&d, "duration", report_duration_s(r)) &&
               props_dict_add(&d, "progress", DBUS_TYPE_DOUBLE, "d", &progress) && add_u64(&d, "kib", r->kib) &&
               add_u64(&d, "average_kibs", report_average_kibs(r)) && add_u64(&d, "peak_kibs", r->peak_kibs) &&
               add_string(&d, "boost", r->boost) && add_string(&d, "policy", r->policy) &&
               add_u64(&d, "boosted", r->boosted_usec / 1000000u) && add_string(&d, "restored", r->restored) &&
               add_u64(&d, "exposed", r->exposed_usec / 1000000u) && add_u64(&d, "users_kib", r->users_kib) &&
               add_u64(&d, "users_busy", r->users_busy_usec / 1000000u) &&
               add_u64(&d, "users_kibs", report_users_kibs(r)) &&
               add_u64(&d, "users_alone_kibs", r->users_alone_kibs) && add_u64(&d, "whole_kibs", r->whole_kibs) &&
               add_u64(&d, "steered_kibs", r->steered_kibs) && add_string(&d, "steered_target", r->steered_target) &&
               (kept < 0 ||
                props_dict_add(&d, "users_kept_percent", DBUS_TYPE_UINT32, "u", &(dbus_uint32_t){ (unsigned)kept })) &&
               add_string(&d, "summary", summary) && dbus_message_iter_close_container(arr, &d);
}

/*
 * The reports of one array (by kernel name, /dev path or UUID; a UUID also
 * finds an array that is gone) or of all ("" ), newest first.
 */
DBusMessage *method_get_reports(call *k) {
        _cleanup_message_ DBusMessage *reply = NULL;
        const report_book *b = &k->c->reports;
        const md_array *a;
        DBusMessageIter it, arr;
        const char *spec, *uuid = NULL;

        if (!dbus_message_get_args(k->m, NULL, DBUS_TYPE_STRING, &spec, DBUS_TYPE_INVALID))
                return errors_reply(k->m, -EINVAL, "GetReports takes an array name or UUID, or \"\" for all.");
        if (*spec) {
                a = md_array_set_find(&k->c->arrays, spec);
                uuid = a ? a->uuid : NULL;
                for (unsigned i = 0; !uuid && i < b->n; i++)
                        if (strcasecmp(b->reports[i].uuid, spec) == 0)
                                uuid = b->reports[i].uuid;
                if (!uuid)
                        return errors_reply(k->m, -ENOENT,
                                            "No md array is called '%.64s', and no report has that UUID.", spec);
        }
        reply = dbus_message_new_method_return(k->m);
        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "a{sv}", &arr))
                return NULL;
        for (unsigned i = b->n; i-- > 0;)
                if ((!uuid || strcmp(b->reports[i].uuid, uuid) == 0) && !append_report(&arr, &b->reports[i]))
                        return NULL;
        if (!dbus_message_iter_close_container(&it, &arr))
                return NULL;
        return TAKE_PTR(reply);
}
