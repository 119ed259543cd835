/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "profiles.h"
#include "props.h"

enum {
        P_NAME, P_DEVICE, P_UUID, P_LEVEL, P_STATE, P_SIZE, P_RAID_DISKS, P_CHUNK_SIZE, P_DEGRADED,
        P_CAN_BOOST, P_MEMBERS, P_ACTION, P_DELAYED, P_LAST_ACTION, P_PROGRESS, P_SYNC_COMPLETED,
        P_SYNC_TOTAL, P_SPEED, P_TIME_LEFT, P_MISMATCH, P_TUNABLES, P_STRIPE_MEMORY, P_BOOSTED,
        P_PROFILE, P_BOOSTED_SINCE, P_ORIGINALS, P_STUCK, _P_ARRAY_MAX,
};

_Static_assert(_P_ARRAY_MAX <= PROPS_MAX, "PROPS_MAX holds every property");

static const prop_def array_props[_P_ARRAY_MAX] = {
        [P_NAME] = { "Name", "s" },
        [P_DEVICE] = { "Device", "s" },
        [P_UUID] = { "UUID", "s" },
        [P_LEVEL] = { "Level", "s" },
        [P_STATE] = { "State", "s" },
        [P_SIZE] = { "Size", "t" },
        [P_RAID_DISKS] = { "RaidDisks", "u" },
        [P_CHUNK_SIZE] = { "ChunkSize", "t" },
        [P_DEGRADED] = { "Degraded", "u" },
        [P_CAN_BOOST] = { "CanBoost", "b" },
        [P_MEMBERS] = { "Members", "a(ssasx)" },
        [P_ACTION] = { "Action", "s" },
        [P_DELAYED] = { "Delayed", "b" },
        [P_LAST_ACTION] = { "LastAction", "s" },
        [P_PROGRESS] = { "Progress", "d" },
        [P_SYNC_COMPLETED] = { "SyncCompleted", "t" },
        [P_SYNC_TOTAL] = { "SyncTotal", "t" },
        [P_SPEED] = { "Speed", "t" },
        [P_TIME_LEFT] = { "TimeLeft", "t" },
        [P_MISMATCH] = { "MismatchCount", "t" },
        [P_TUNABLES] = { "Tunables", "a{ss}" },
        [P_STRIPE_MEMORY] = { "StripeCacheMemory", "t" },
        [P_BOOSTED] = { "Boosted", "b" },
        [P_PROFILE] = { "Profile", "s" },
        [P_BOOSTED_SINCE] = { "BoostedSince", "t" },
        [P_ORIGINALS] = { "Originals", "a{ss}" },
        [P_STUCK] = { "Stuck", "s" },
};

enum { M_VERSION, M_SPEED_MIN, M_SPEED_MAX, M_BUDGET, M_ARRAYS, M_JOURNAL_PROBLEM, _M_MAX };

static const prop_def manager_props[_M_MAX] = {
        [M_VERSION] = { "Version", "s" },
        [M_SPEED_MIN] = { "SpeedLimitMin", "t" },
        [M_SPEED_MAX] = { "SpeedLimitMax", "t" },
        [M_BUDGET] = { "MemoryBudget", "t" },
        [M_ARRAYS] = { "Arrays", "ao" },
        [M_JOURNAL_PROBLEM] = { "JournalProblem", "s" },
};

/* The words of dev-NAME/state, as the kernel's state_show() prints them. */
static const struct {
        unsigned flag;
        const char *word;
} member_words[] = {
        { MD_MEMBER_FAULTY, "faulty" },
        { MD_MEMBER_IN_SYNC, "in_sync" },
        { MD_MEMBER_JOURNAL, "journal" },
        { MD_MEMBER_WRITE_MOSTLY, "write_mostly" },
        { MD_MEMBER_BLOCKED, "blocked" },
        { MD_MEMBER_SPARE, "spare" },
        { MD_MEMBER_WRITE_ERROR, "write_error" },
        { MD_MEMBER_WANT_REPLACEMENT, "want_replacement" },
        { MD_MEMBER_REPLACEMENT, "replacement" },
        { MD_MEMBER_EXTERNAL_BBL, "external_bbl" },
        { MD_MEMBER_FAILFAST, "failfast" },
        { MD_MEMBER_CLUSTER_ADD, "cluster_add" },
};

const prop_def *props_table(obj_kind k, unsigned *ret_n) {
        if (k == OBJ_MANAGER) {
                *ret_n = _M_MAX;
                return manager_props;
        }
        *ret_n = _P_ARRAY_MAX;
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

static bool add_array_prop2(const context *c, const md_array *a, unsigned idx, DBusMessageIter *it) {
        const journal_entry *e = props_entry_of(c, a);
        static const md_tval none[_MD_T_ARRAY_MAX];
        uint64_t secs;
        double pct;

        switch (idx) {
        case P_PROGRESS:
                if (md_array_progress_percent(a, &pct) < 0)
                        pct = -1;
                return dbus_message_iter_append_basic(it, DBUS_TYPE_DOUBLE, &pct);
        case P_SYNC_COMPLETED:
                return add_u64(it, a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.done : 0);
        case P_SYNC_TOTAL:
                return add_u64(it, a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.total : 0);
        case P_SPEED:
                return add_u64(it, tval_number(&a->sync_speed));
        case P_TIME_LEFT:
                return add_u64(it, md_array_seconds_left(a, &secs) < 0 ? 0 : secs);
        case P_MISMATCH:
                return add_u64(it, tval_number(&a->mismatch_cnt));
        case P_TUNABLES:
                return add_tvals(it, a->tunables);
        case P_STRIPE_MEMORY:
                return add_u64(it, profile_stripe_cache_bytes(a));
        case P_BOOSTED:
                return add_bool(it, e != NULL);
        case P_PROFILE:
                return add_string(it, e ? e->profile : "");
        case P_BOOSTED_SINCE:
                return add_u64(it, e ? e->since_usec : 0);
        case P_ORIGINALS:
                return add_tvals(it, e ? e->originals : none);
        case P_STUCK:
                for (unsigned i = 0; i < c->n_objects; i++)
                        if (strcmp(c->objects[i].name, a->name) == 0)
                                return add_string(it, c->objects[i].reshape.stuck);
                return add_string(it, "");
        default:
                return false;
        }
}

static bool add_array_prop(const context *c, const md_array *a, unsigned idx, DBusMessageIter *it) {
        char dev[sizeof("/dev/") + MD_NAME_MAX];

        switch (idx) {
        case P_NAME:
                return add_string(it, a->name);
        case P_DEVICE:
                snprintf(dev, sizeof(dev), "/dev/%s", a->name);
                return add_string(it, dev);
        case P_UUID:
                return add_string(it, a->uuid);
        case P_LEVEL:
                return add_string(it, md_level_to_string(a->level) ?: "");
        case P_STATE:
                return add_string(it, md_array_state_to_string(a->state) ?: "");
        case P_SIZE:
                return add_u64(it, a->size_bytes);
        case P_RAID_DISKS:
                return add_u32(it, a->raid_disks.kind == MD_V_NUMBER ? a->raid_disks.value : 0);
        case P_CHUNK_SIZE:
                return add_u64(it, a->chunk_size.kind == MD_V_NUMBER ? a->chunk_size.value : 0);
        case P_DEGRADED:
                return add_u32(it, tval_number(&a->degraded));
        case P_CAN_BOOST:
                return add_bool(it, array_can_boost(a));
        case P_MEMBERS:
                return add_members(it, a);
        case P_ACTION:
                return add_string(it, md_sync_action_to_string(a->sync_action) ?: "");
        case P_DELAYED:
                return add_bool(it, a->progress.kind == MD_PROGRESS_DELAYED);
        case P_LAST_ACTION:
                return add_string(it, md_sync_action_to_string(a->last_sync_action) ?: "");
        default:
                return add_array_prop2(c, a, idx, it);
        }
}

static bool add_manager_prop(const context *c, unsigned idx, DBusMessageIter *it) {
        DBusMessageIter arr;

        switch (idx) {
        case M_VERSION:
                return add_string(it, MDBOOSTD_VERSION);
        case M_SPEED_MIN:
                return add_u64(it, tval_number(&c->globals.speed_limit_min));
        case M_SPEED_MAX:
                return add_u64(it, tval_number(&c->globals.speed_limit_max));
        case M_BUDGET:
                return add_u64(it, profile_memory_budget(&c->cfg.profiles, c->mem_total));
        case M_ARRAYS:
                if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr))
                        return false;
                for (unsigned i = 0; i < c->n_objects; i++) {
                        const char *p = c->objects[i].path;
                        if (!dbus_message_iter_append_basic(&arr, DBUS_TYPE_OBJECT_PATH, &p))
                                return false;
                }
                return dbus_message_iter_close_container(it, &arr);
        case M_JOURNAL_PROBLEM:
                return add_string(it, c->journal_problem);
        default:
                return false;
        }
}

bool props_append_variant(const context *c, obj_kind k, const md_array *a, unsigned idx,
                          DBusMessageIter *it) {
        unsigned n;
        const prop_def *t = props_table(k, &n);
        DBusMessageIter v;
        bool ok;

        if (idx >= n || !dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, t[idx].signature, &v))
                return false;
        ok = k == OBJ_MANAGER ? add_manager_prop(c, idx, &v) : add_array_prop(c, a, idx, &v);
        if (!ok) {
                dbus_message_iter_abandon_container(it, &v);
                return false;
        }
        return dbus_message_iter_close_container(it, &v);
}

static bool append_entries(const context *c, obj_kind k, const md_array *a, const bool *which,
                           DBusMessageIter *dict) {
        unsigned n;
        const prop_def *t = props_table(k, &n);

        for (unsigned i = 0; i < n; i++) {
                DBusMessageIter e;

                if (which && !which[i])
                        continue;
                if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !add_string(&e, t[i].name) || !props_append_variant(c, k, a, i, &e) ||
                    !dbus_message_iter_close_container(dict, &e))
                        return false;
        }
        return true;
}

bool props_append_all(const context *c, obj_kind k, const md_array *a, DBusMessageIter *it) {
        DBusMessageIter dict;

        return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
               append_entries(c, k, a, NULL, &dict) && dbus_message_iter_close_container(it, &dict);
}

/* ---- change tracking ---- */

/* A text that is equal for two values exactly when the values are equal. */
static void canonical(DBusMessageIter *it, FILE *f) {
        for (int type = dbus_message_iter_get_arg_type(it); type != DBUS_TYPE_INVALID;
             type = dbus_message_iter_get_arg_type(it)) {
                if (dbus_type_is_container(type)) {
                        DBusMessageIter sub;
                        dbus_message_iter_recurse(it, &sub);
                        fprintf(f, "%c(", type);
                        canonical(&sub, f);
                        fputc(')', f);
                } else if (type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH || type == DBUS_TYPE_SIGNATURE) {
                        const char *s;
                        dbus_message_iter_get_basic(it, &s);
                        fprintf(f, "%c%zu:%s", type, strlen(s), s);
                } else {
                        DBusBasicValue v;
                        memset(&v, 0, sizeof(v));
                        dbus_message_iter_get_basic(it, &v);
                        fprintf(f, "%c%llx,", type, (unsigned long long)v.u64);
                }
                dbus_message_iter_next(it);
        }
}

static int snapshot(const context *c, obj_kind k, const md_array *a, char **values, unsigned n) {
        DBusMessage *m = dbus_message_new_signal("/", "org.mdboost.MdBoost1.Snapshot", "Snapshot");
        DBusMessageIter w, r;
        int ret = 0;

        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &w);
        for (unsigned i = 0; i < n; i++)
                if (!props_append_variant(c, k, a, i, &w)) {
                        dbus_message_unref(m);
                        return -ENOMEM;
                }
        dbus_message_iter_init(m, &r);
        for (unsigned i = 0; i < n; i++) {
                DBusMessageIter one = r;
                size_t len;
                FILE *f = open_memstream(&values[i], &len);

                if (!f) {
                        ret = -ENOMEM;
                        break;
                }
                /* Read only this argument: copy the iterator and stop after one. */
                {
                        DBusMessageIter sub;
                        dbus_message_iter_recurse(&one, &sub);
                        canonical(&sub, f);
                }
                fclose(f);
                dbus_message_iter_next(&r);
        }
        dbus_message_unref(m);
        return ret;
}

void prop_cache_free(prop_cache *cache) {
        for (unsigned i = 0; i < cache->n; i++)
                free(cache->values[i]);
        free(cache->values);
        *cache = (prop_cache){};
}

static int emit_changed(context *c, obj_kind k, const md_array *a, const char *path, const bool *which) {
        const char *iface = k == OBJ_MANAGER ? MANAGER_IFACE : ARRAY_IFACE;
        DBusMessage *m = dbus_message_new_signal(path, DBUS_INTERFACE_PROPERTIES, "PropertiesChanged");
        DBusMessageIter it, dict, inval;
        bool ok;

        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &it);
        ok = add_string(&it, iface) && dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
             append_entries(c, k, a, which, &dict) && dbus_message_iter_close_container(&it, &dict) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &inval) &&
             dbus_message_iter_close_container(&it, &inval);
        if (ok)
                ok = dbus_connection_send(c->bus, m, NULL);
        dbus_message_unref(m);
        return ok ? 0 : -ENOMEM;
}

int props_snapshot(const context *c, obj_kind k, const md_array *a, prop_cache *ret) {
        unsigned n;
        char **values;
        int r;

        props_table(k, &n);
        values = calloc(n, sizeof(*values));
        if (!values)
                return -ENOMEM;
        r = snapshot(c, k, a, values, n);
        if (r < 0) {
                prop_cache tmp = { .values = values, .n = n };
                prop_cache_free(&tmp);
                return r;
        }
        *ret = (prop_cache){ .values = values, .n = n };
        return 0;
}

unsigned props_diff(const prop_cache *old, const prop_cache *now, bool *which) {
        unsigned changed = 0;

        for (unsigned i = 0; i < now->n; i++) {
                which[i] = old->n != now->n || !old->values[i] || !now->values[i] ||
                           strcmp(old->values[i], now->values[i]) != 0;
                changed += which[i];
        }
        return changed;
}

int props_update(context *c, obj_kind k, const md_array *a, const char *path, prop_cache *cache,
                 bool emit) {
        bool which[PROPS_MAX] = {};
        prop_cache now;
        unsigned changed;
        int r;

        r = props_snapshot(c, k, a, &now);
        if (r < 0)
                return r;
        changed = props_diff(cache, &now, which);
        prop_cache_free(cache);
        *cache = now;
        if (emit && changed > 0 && c->bus)
                return emit_changed(c, k, a, path, which);
        return 0;
}
