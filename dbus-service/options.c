/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "governor.h"
#include "options.h"

bool options_tunable_settable(md_tunable t) {
        return t == MD_T_SYNC_SPEED_MIN || t == MD_T_SYNC_SPEED_MAX || t == MD_T_STRIPE_CACHE_SIZE ||
               t == MD_T_READ_AHEAD_KB || t == MD_T_SYNC_IO_DEPTH;
}

static int option_number(DBusMessageIter *variant, const char *key, uint64_t *ret, char *errbuf, size_t errlen) {
        int type = dbus_message_iter_get_arg_type(variant);

        if (type == DBUS_TYPE_UINT32) {
                dbus_uint32_t v;
                dbus_message_iter_get_basic(variant, &v);
                *ret = v;
                return 0;
        }
        if (type == DBUS_TYPE_UINT64) {
                dbus_uint64_t v;
                dbus_message_iter_get_basic(variant, &v);
                *ret = v;
                return 0;
        }
        snprintf(errbuf, errlen, "Option '%s' must be a number of type 'u' or 't', not '%c'.", key, type ? type : '?');
        return -EINVAL;
}

/* A governor's target @key: a whole number 1..@max, given once; @what says what it must be. */
static int option_target(DBusMessageIter *variant, const char *key, uint64_t max, const char *what, unsigned *ret,
                         char *errbuf, size_t errlen) {
        uint64_t v;
        int r;

        if (*ret) {
                snprintf(errbuf, errlen, "Option '%s' is given twice.", key);
                return -EINVAL;
        }
        r = option_number(variant, key, &v, errbuf, errlen);
        if (r < 0)
                return r;
        if (v < 1 || v > max) {
                snprintf(errbuf, errlen, "Option '%s' = %" PRIu64 " %s %" PRIu64 ".", key, v, what, max);
                return -ERANGE;
        }
        *ret = (unsigned)v;
        return 0;
}

/* A boolean option @key in @variant, once: *@seen says whether it came before. */
static int option_bool(DBusMessageIter *variant, const char *key, bool *seen, bool *ret, char *errbuf, size_t errlen) {
        dbus_bool_t b;

        if (*seen) {
                snprintf(errbuf, errlen, "Option '%s' is given twice.", key);
                return -EINVAL;
        }
        if (dbus_message_iter_get_arg_type(variant) != DBUS_TYPE_BOOLEAN) {
                snprintf(errbuf, errlen, "Option '%s' must be a boolean ('b').", key);
                return -EINVAL;
        }
        dbus_message_iter_get_basic(variant, &b);
        *seen = true;
        *ret = b;
        return 0;
}

/* Enters the a{sv} at @iter: its first entry in @ret_dict. */
static int options_dict(DBusMessageIter *iter, DBusMessageIter *ret_dict, char *errbuf, size_t errlen) {
        if (dbus_message_iter_get_arg_type(iter) != DBUS_TYPE_ARRAY ||
            dbus_message_iter_get_element_type(iter) != DBUS_TYPE_DICT_ENTRY) {
                snprintf(errbuf, errlen, "Options must be a dictionary a{sv}.");
                return -EINVAL;
        }
        dbus_message_iter_recurse(iter, ret_dict);
        return 0;
}

static int option_one(DBusMessageIter *entry, boost_options *o, bool seen[], char *errbuf, size_t errlen) {
        DBusMessageIter variant;
        const char *key;
        md_tunable t;
        uint64_t v;
        int r;

        dbus_message_iter_get_basic(entry, &key);
        dbus_message_iter_next(entry);
        dbus_message_iter_recurse(entry, &variant);

        if (strcmp(key, "dry_run") == 0)
                return option_bool(&variant, key, &seen[_MD_T_ARRAY_MAX], &o->dry_run, errbuf, errlen);

        if (strcmp(key, "users_share") == 0)
                return option_target(&variant, key, 100, "is no share: a percent from 1 to", &o->users_share, errbuf,
                                     errlen);
        if (strcmp(key, "users_latency_ms") == 0)
                return option_target(&variant, key, GOVERNOR_LATENCY_MAX_MS,
                                     "is no latency bound: milliseconds from 1 to", &o->users_latency_ms, errbuf,
                                     errlen);

        t = md_tunable_from_name(key);
        if (t < 0 || !options_tunable_settable(t)) {
                snprintf(errbuf, errlen,
                         "Unknown option '%.64s'; known options are dry_run, users_share, users_latency_ms, "
                         "sync_speed_min, sync_speed_max, stripe_cache_size, read_ahead_kb and sync_io_depth.",
                         key);
                return -EINVAL;
        }
        if (seen[t]) {
                snprintf(errbuf, errlen, "Option '%s' is given twice.", key);
                return -EINVAL;
        }
        r = option_number(&variant, key, &v, errbuf, errlen);
        if (r < 0)
                return r;
        if (md_tunable_check(t, v) < 0) {
                const md_tunable_info *info = md_tunable_get(t);
                snprintf(errbuf, errlen,
                         "Option '%s' = %" PRIu64 " is outside the kernel's range %" PRIu64 "..%" PRIu64 " %s.", key, v,
                         info->min, info->max, info->unit);
                return -ERANGE;
        }
        seen[t] = true;
        o->set[t] = true;
        o->value[t] = v;
        return 0;
}

int options_parse_boost(DBusMessageIter *iter, boost_options *ret, char *errbuf, size_t errlen) {
        bool seen[_MD_T_ARRAY_MAX + 1] = {};
        boost_options o = {};
        DBusMessageIter dict;

        if (options_dict(iter, &dict, errbuf, errlen) < 0)
                return -EINVAL;
        while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
                DBusMessageIter entry;
                int r;

                dbus_message_iter_recurse(&dict, &entry);
                r = option_one(&entry, &o, seen, errbuf, errlen);
                if (r < 0)
                        return r;
                dbus_message_iter_next(&dict);
        }
        if (o.set[MD_T_SYNC_SPEED_MIN] && o.set[MD_T_SYNC_SPEED_MAX] &&
            o.value[MD_T_SYNC_SPEED_MIN] > o.value[MD_T_SYNC_SPEED_MAX]) {
                snprintf(errbuf, errlen,
                         "Option sync_speed_min (%" PRIu64 ") is above sync_speed_max (%" PRIu64
                         "); the kernel would never reach the floor.",
                         o.value[MD_T_SYNC_SPEED_MIN], o.value[MD_T_SYNC_SPEED_MAX]);
                return -EINVAL;
        }
        if (o.users_share && o.users_latency_ms) {
                snprintf(errbuf, errlen,
                         "Options users_share and users_latency_ms exclude each other: the governor keeps the "
                         "users either a share of their throughput or a latency bound.");
                return -EINVAL;
        }
        if ((o.users_share || o.users_latency_ms) && o.set[MD_T_SYNC_SPEED_MIN]) {
                snprintf(errbuf, errlen,
                         "Options %s and sync_speed_min exclude each other: with %s the governor sets the floor "
                         "itself.",
                         o.users_share ? "users_share" : "users_latency_ms",
                         o.users_share ? "users_share" : "users_latency_ms");
                return -EINVAL;
        }
        if (o.users_latency_ms && o.set[MD_T_SYNC_IO_DEPTH]) {
                snprintf(errbuf, errlen,
                         "Options users_latency_ms and sync_io_depth exclude each other: with users_latency_ms the "
                         "governor sets sync_io_depth itself (Linux 6.16 and later).");
                return -EINVAL;
        }
        *ret = o;
        return 0;
}

int options_parse_restore(DBusMessageIter *iter, char *errbuf, size_t errlen) {
        DBusMessageIter dict, entry;
        const char *key;

        if (options_dict(iter, &dict, errbuf, errlen) < 0)
                return -EINVAL;
        if (dbus_message_iter_get_arg_type(&dict) != DBUS_TYPE_DICT_ENTRY)
                return 0;
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        snprintf(errbuf, errlen, "Unknown option '%.64s': Restore takes no options.", key);
        return -EINVAL;
}

int options_parse_restore_all(DBusMessageIter *iter, bool *ret_settings, char *errbuf, size_t errlen) {
        DBusMessageIter dict;
        bool settings = false, seen = false;

        if (options_dict(iter, &dict, errbuf, errlen) < 0)
                return -EINVAL;
        while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
                DBusMessageIter entry, variant;
                const char *key;
                int r;

                dbus_message_iter_recurse(&dict, &entry);
                dbus_message_iter_get_basic(&entry, &key);
                if (strcmp(key, "settings") != 0) {
                        snprintf(errbuf, errlen, "Unknown option '%.64s': RestoreAll takes only 'settings'.", key);
                        return -EINVAL;
                }
                dbus_message_iter_next(&entry);
                dbus_message_iter_recurse(&entry, &variant);
                r = option_bool(&variant, key, &seen, &settings, errbuf, errlen);
                if (r < 0)
                        return r;
                dbus_message_iter_next(&dict);
        }
        *ret_settings = settings;
        return 0;
}
