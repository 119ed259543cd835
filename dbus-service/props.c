/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "props.h"

bool props_append_variant(const context *c, obj_kind k, const md_array *a, unsigned idx, DBusMessageIter *it) {
        unsigned n;
        const prop_def *t = props_table(k, &n);
        DBusMessageIter v;
        bool ok;

        if (idx >= n || !dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, t[idx].signature, &v))
                return false;
        ok = t[idx].get(c, a, &v);
        if (!ok) {
                dbus_message_iter_abandon_container(it, &v);
                return false;
        }
        return dbus_message_iter_close_container(it, &v);
}

static bool append_entries(const context *c, obj_kind k, const md_array *a, const bool *which, DBusMessageIter *dict) {
        unsigned n;
        const prop_def *t = props_table(k, &n);

        for (unsigned i = 0; i < n; i++) {
                DBusMessageIter e;

                if (which && !which[i])
                        continue;
                if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &t[i].name) ||
                    !props_append_variant(c, k, a, i, &e) || !dbus_message_iter_close_container(dict, &e))
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

/*
 * The canonical text of every property of @k, PROP_CONST ones as "": they
 * never change, so they are never compared.
 */
static int snapshot(const context *c, obj_kind k, const md_array *a, char **values, unsigned n) {
        _cleanup_message_ DBusMessage *m = dbus_message_new_signal("/", "org.mdboost.MdBoost1.Snapshot", "Snapshot");
        const prop_def *t = props_table(k, &n);
        DBusMessageIter w, r;

        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &w);
        for (unsigned i = 0; i < n; i++)
                if (t[i].change != PROP_CONST && !props_append_variant(c, k, a, i, &w))
                        return -ENOMEM;
        dbus_message_iter_init(m, &r);
        for (unsigned i = 0; i < n; i++) {
                DBusMessageIter sub;
                size_t len;
                FILE *f = open_memstream(&values[i], &len);

                if (!f)
                        return -ENOMEM;
                if (t[i].change != PROP_CONST) {
                        /* Only this argument: the variant's contents. */
                        dbus_message_iter_recurse(&r, &sub);
                        canonical(&sub, f);
                        dbus_message_iter_next(&r);
                }
                fclose(f);
        }
        return 0;
}

void prop_cache_free(prop_cache *cache) {
        for (unsigned i = 0; i < cache->n; i++)
                free(cache->values[i]);
        free(cache->values);
        *cache = (prop_cache){};
}

static int emit_changed(context *c, obj_kind k, const md_array *a, const char *path, const bool *which) {
        const char *iface = k == OBJ_MANAGER ? MANAGER_IFACE : ARRAY_IFACE;
        _cleanup_message_ DBusMessage *m =
                dbus_message_new_signal(path, DBUS_INTERFACE_PROPERTIES, "PropertiesChanged");
        DBusMessageIter it, dict, inval;
        bool ok;

        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &it);
        ok = dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &iface) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
             append_entries(c, k, a, which, &dict) && dbus_message_iter_close_container(&it, &dict) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &inval) &&
             dbus_message_iter_close_container(&it, &inval);
        if (ok)
                ok = dbus_connection_send(c->bus, m, NULL);
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

int props_update(context *c, obj_kind k, const md_array *a, const char *path, prop_cache *cache, bool emit) {
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
