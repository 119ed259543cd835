/* SPDX-License-Identifier: MIT */
/* org.freedesktop.DBus.Properties, ObjectManager and Introspectable for every object. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "dispatch.h"
#include "errors.h"
#include "interface.h"
#include "monitor.h"
#include "props.h"

static const md_array *call_array(call *k) {
        for (unsigned i = 0; i < k->c->arrays.n; i++)
                if (strcmp(k->c->arrays.arrays[i].name, k->array) == 0)
                        return &k->c->arrays.arrays[i];
        return NULL;
}

/* The properties interface of the called object; NULL for the other (property-less) ones. */
static int call_props(call *k, const char *iface, obj_kind *ret_kind, const md_array **ret_array) {
        const char *own = k->kind == TARGET_MANAGER ? MANAGER_IFACE : ARRAY_IFACE;

        if (*iface && strcmp(iface, own) != 0)
                return -ENOENT;
        *ret_kind = k->kind == TARGET_MANAGER ? OBJ_MANAGER : OBJ_ARRAY;
        *ret_array = k->kind == TARGET_ARRAY ? call_array(k) : NULL;
        if (k->kind == TARGET_ARRAY && !*ret_array)
                return -ENODEV;
        return 0;
}

static bool is_std_iface(const char *iface) {
        return strcmp(iface, DBUS_INTERFACE_PROPERTIES) == 0 || strcmp(iface, DBUS_INTERFACE_INTROSPECTABLE) == 0 ||
               strcmp(iface, DBUS_INTERFACE_PEER) == 0 || strcmp(iface, DBUS_INTERFACE_OBJECT_MANAGER) == 0;
}

DBusMessage *method_properties_get(call *k) {
        _cleanup_message_ DBusMessage *reply = NULL;
        const char *iface, *name;
        const md_array *a;
        DBusMessageIter it;
        obj_kind kind;
        int idx;

        if (!dbus_message_get_args(k->m, NULL, DBUS_TYPE_STRING, &iface, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID))
                return NULL;
        if (call_props(k, iface, &kind, &a) < 0)
                return errors_reply_bus(k->m, DBUS_ERROR_UNKNOWN_INTERFACE, "%s has no properties of interface '%s'.",
                                        k->path, iface);
        idx = props_find(kind, name);
        if (idx < 0)
                return errors_reply_bus(k->m, DBUS_ERROR_UNKNOWN_PROPERTY, "No property '%s'.", name);
        reply = dbus_message_new_method_return(k->m);
        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (!props_append_variant(k->c, kind, a, (unsigned)idx, &it))
                return NULL;
        return TAKE_PTR(reply);
}

DBusMessage *method_properties_get_all(call *k) {
        _cleanup_message_ DBusMessage *reply = NULL;
        DBusMessageIter it, empty;
        const char *iface;
        const md_array *a;
        obj_kind kind;
        bool ok;

        if (!dbus_message_get_args(k->m, NULL, DBUS_TYPE_STRING, &iface, DBUS_TYPE_INVALID))
                return NULL;
        reply = dbus_message_new_method_return(k->m);
        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (call_props(k, iface, &kind, &a) == 0)
                ok = props_append_all(k->c, kind, a, &it);
        else if (is_std_iface(iface))
                ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &empty) &&
                     dbus_message_iter_close_container(&it, &empty);
        else
                return errors_reply_bus(k->m, DBUS_ERROR_UNKNOWN_INTERFACE, "%s has no interface '%s'.", k->path,
                                        iface);
        return ok ? TAKE_PTR(reply) : NULL;
}

DBusMessage *method_properties_set(call *k) {
        const char *iface, *name;
        DBusMessageIter it;
        const md_array *a;
        obj_kind kind;

        dbus_message_iter_init(k->m, &it);
        dbus_message_iter_get_basic(&it, &iface);
        dbus_message_iter_next(&it);
        dbus_message_iter_get_basic(&it, &name);
        if (call_props(k, iface, &kind, &a) < 0)
                return errors_reply_bus(k->m, DBUS_ERROR_UNKNOWN_INTERFACE, "%s has no properties of interface '%s'.",
                                        k->path, iface);
        if (props_find(kind, name) < 0)
                return errors_reply_bus(k->m, DBUS_ERROR_UNKNOWN_PROPERTY, "No property '%s'.", name);
        return errors_reply_bus(k->m, DBUS_ERROR_PROPERTY_READ_ONLY,
                                "Property '%s' is read-only; change tunables with Boost and Restore.", name);
}

DBusMessage *method_get_managed_objects(call *k) {
        _cleanup_message_ DBusMessage *reply = dbus_message_new_method_return(k->m);
        DBusMessageIter it, dict, e;

        if (!reply)
                return NULL;
        dbus_message_iter_init_append(reply, &it);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{oa{sa{sv}}}", &dict))
                return NULL;
        for (unsigned i = 0; i < k->c->n_objects && i < k->c->arrays.n; i++) {
                const char *path = k->c->objects[i].path;

                if (!dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_OBJECT_PATH, &path) ||
                    !monitor_append_object(k->c, &k->c->arrays.arrays[i], &e) ||
                    !dbus_message_iter_close_container(&dict, &e))
                        return NULL;
        }
        if (!dbus_message_iter_close_container(&it, &dict))
                return NULL;
        return TAKE_PTR(reply);
}

/* ---- introspection ---- */

static void xml_children(FILE *f, const call *k) {
        static const struct {
                const char *path, *child;
        } tree[] = {
                { "/", "org" },
                { "/org", "mdboost" },
                { "/org/mdboost", "MdBoost1" },
                { MANAGER_PATH, "arrays" },
        };

        for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
                if (strcmp(k->path, tree[i].path) == 0)
                        fprintf(f, " <node name=\"%s\"/>\n", tree[i].child);
        if (strcmp(k->path, ARRAYS_PATH) == 0)
                for (unsigned i = 0; i < k->c->n_objects; i++)
                        fprintf(f, " <node name=\"%s\"/>\n", k->c->objects[i].name);
}

DBusMessage *method_introspect(call *k) {
        _cleanup_message_ DBusMessage *reply = NULL;
        _cleanup_free_ char *xml = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&xml, &len);

        if (!f)
                return NULL;
        fputs(DBUS_INTROSPECT_1_0_XML_DOCTYPE_DECL_NODE "<node>\n", f);
        interface_write_xml(f, k->kind);
        xml_children(f, k);
        fputs("</node>\n", f);
        if (fclose(f) != 0)
                return NULL;
        reply = dbus_message_new_method_return(k->m);
        if (!reply || !dbus_message_append_args(reply, DBUS_TYPE_STRING, &xml, DBUS_TYPE_INVALID))
                return NULL;
        return TAKE_PTR(reply);
}
