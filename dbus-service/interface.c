/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "interface.h"
#include "props.h"

#define ARGS(...) ((const iface_arg[]){ __VA_ARGS__, { NULL, NULL } })
#define NO_ARGS ((const iface_arg[]){ { NULL, NULL } })

static const method methods[] = {
        /* org.freedesktop.DBus.Peer: libdbus answers these before any object sees them. */
        { T_ALL, DBUS_INTERFACE_PEER, "Ping", NO_ARGS, NO_ARGS, NULL, NULL, ARG_NONE, ARG_NONE },
        { T_ALL, DBUS_INTERFACE_PEER, "GetMachineId", NO_ARGS, ARGS({ "machine_uuid", "s" }), NULL, NULL, ARG_NONE,
          ARG_NONE },
        { T_ALL, DBUS_INTERFACE_INTROSPECTABLE, "Introspect", NO_ARGS, ARGS({ "xml_data", "s" }), method_introspect,
          NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "Get",
          ARGS({ "interface_name", "s" }, { "property_name", "s" }), ARGS({ "value", "v" }), method_properties_get,
          NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "GetAll", ARGS({ "interface_name", "s" }),
          ARGS({ "props", "a{sv}" }), method_properties_get_all, NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "Set",
          ARGS({ "interface_name", "s" }, { "property_name", "s" }, { "value", "v" }), NO_ARGS, method_properties_set,
          NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER, DBUS_INTERFACE_OBJECT_MANAGER, "GetManagedObjects", NO_ARGS, ARGS({ "objects", "a{oa{sa{sv}}}" }),
          method_get_managed_objects, NULL, ARG_NONE, ARG_NONE },

        { T_MANAGER, MANAGER_IFACE, "Boost", ARGS({ "array", "s" }, { "profile", "s" }, { "options", "a{sv}" }),
          ARGS({ "array_path", "o" }, { "changes", "a(sss)" }, { "held", "a(ss)" }), method_manager_boost, ACTION_BOOST,
          0, 1 },
        { T_MANAGER, MANAGER_IFACE, "Restore", ARGS({ "array", "s" }, { "options", "a{sv}" }),
          ARGS({ "changes", "a(sss)" }), method_manager_restore, ACTION_RESTORE, 0, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "RestoreAll", ARGS({ "options", "a{sv}" }), ARGS({ "arrays", "as" }),
          method_restore_all, ACTION_RESTORE, ARG_ALL, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "SetPolicy", ARGS({ "array", "s" }, { "rule", "s" }, { "policy", "s" }), NO_ARGS,
          method_set_policy, ACTION_CONFIGURE, 0, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "SetSettings", ARGS({ "array", "s" }, { "settings", "a{sv}" }),
          ARGS({ "changes", "a(sss)" }), method_set_settings, ACTION_CONFIGURE, 0, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "GetProfiles", NO_ARGS, ARGS({ "profiles", "a(ssa{ss})" }), method_get_profiles,
          NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "GetReports", ARGS({ "array", "s" }), ARGS({ "reports", "aa{sv}" }),
          method_get_reports, NULL, ARG_NONE, ARG_NONE },

        { T_ARRAY, ARRAY_IFACE, "Boost", ARGS({ "profile", "s" }, { "options", "a{sv}" }),
          ARGS({ "changes", "a(sss)" }, { "held", "a(ss)" }), method_array_boost, ACTION_BOOST, ARG_OBJECT, 0 },
        { T_ARRAY, ARRAY_IFACE, "Restore", ARGS({ "options", "a{sv}" }), ARGS({ "changes", "a(sss)" }),
          method_array_restore, ACTION_RESTORE, ARG_OBJECT, ARG_NONE },
};

typedef struct signal_row {
        unsigned targets;
        const char *interface;
        const char *member;
        const iface_arg *args;
} signal_row;

static const signal_row signals[] = {
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "PropertiesChanged",
          ARGS({ "interface_name", "s" }, { "changed_properties", "a{sv}" }, { "invalidated_properties", "as" }) },
        { T_MANAGER, DBUS_INTERFACE_OBJECT_MANAGER, "InterfacesAdded",
          ARGS({ "object", "o" }, { "interfaces", "a{sa{sv}}" }) },
        { T_MANAGER, DBUS_INTERFACE_OBJECT_MANAGER, "InterfacesRemoved",
          ARGS({ "object", "o" }, { "interfaces", "as" }) },
        { T_ARRAY, ARRAY_IFACE, "OperationStarted", ARGS({ "action", "s" }) },
        { T_ARRAY, ARRAY_IFACE, "OperationEnded",
          ARGS({ "action", "s" }, { "outcome", "s" }, { "started", "t" }, { "ended", "t" }, { "progress", "d" }) },
};

/* The interfaces in the order Introspect lists them, and whose properties each has. */
static const struct {
        const char *name;
        int props; /* obj_kind, or -1 */
} interfaces[] = {
        { DBUS_INTERFACE_PEER, -1 },           { DBUS_INTERFACE_INTROSPECTABLE, -1 }, { DBUS_INTERFACE_PROPERTIES, -1 },
        { DBUS_INTERFACE_OBJECT_MANAGER, -1 }, { MANAGER_IFACE, OBJ_MANAGER },        { ARRAY_IFACE, OBJ_ARRAY },
};

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

const method *interface_find_method(target kind, const char *iface, const char *member) {
        for (size_t i = 0; i < ELEMENTSOF(methods); i++) {
                const method *mt = &methods[i];

                if (!mt->handler || !(mt->targets & (1u << kind)) || strcmp(mt->member, member) != 0)
                        continue;
                /* libdbus allows calls without an interface: the member alone decides then. */
                if (iface && strcmp(mt->interface, iface) != 0)
                        continue;
                return mt;
        }
        return NULL;
}

int interface_signature(const method *mt, char *buf, size_t size) {
        size_t len = 0;

        if (size == 0)
                return -ENOBUFS;
        buf[0] = 0;
        for (const iface_arg *a = mt->in; a->name; a++) {
                size_t n = strlen(a->type);

                if (len + n >= size)
                        return -ENOBUFS;
                memcpy(buf + len, a->type, n + 1);
                len += n;
        }
        return 0;
}

bool interface_is_own(const char *iface) {
        return strcmp(iface, MANAGER_IFACE) == 0 || strcmp(iface, ARRAY_IFACE) == 0;
}

static void write_args(FILE *f, const iface_arg *args, const char *direction) {
        for (const iface_arg *a = args; a->name; a++) {
                fprintf(f, "<arg name=\"%s\" type=\"%s\"", a->name, a->type);
                if (direction)
                        fprintf(f, " direction=\"%s\"", direction);
                fputs("/>", f);
        }
}

static void write_method(FILE *f, const method *mt) {
        if (!mt->in[0].name && !mt->out[0].name) {
                fprintf(f, "  <method name=\"%s\"/>\n", mt->member);
                return;
        }
        fprintf(f, "  <method name=\"%s\">", mt->member);
        write_args(f, mt->in, "in");
        write_args(f, mt->out, "out");
        fputs("</method>\n", f);
}

static void write_props(FILE *f, obj_kind kind) {
        unsigned n;
        const prop_def *t = props_table(kind, &n);

        for (unsigned i = 0; i < n; i++) {
                fprintf(f, "  <property name=\"%s\" type=\"%s\" access=\"read\"", t[i].name, t[i].signature);
                /* The default, "true", is what every other property does: PropertiesChanged carries it. */
                if (t[i].change == PROP_CONST)
                        fputs("><annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" "
                              "value=\"const\"/></property>\n",
                              f);
                else
                        fputs("/>\n", f);
        }
}

void interface_write_xml(FILE *f, target kind) {
        const unsigned bit = 1u << kind;

        for (size_t i = 0; i < ELEMENTSOF(interfaces); i++) {
                const char *name = interfaces[i].name;
                bool open = false;

                /* An interface is on an object when one of its methods is. */
                for (size_t j = 0; j < ELEMENTSOF(methods); j++) {
                        if (!(methods[j].targets & bit) || strcmp(methods[j].interface, name) != 0)
                                continue;
                        if (!open)
                                fprintf(f, " <interface name=\"%s\">\n", name);
                        open = true;
                        write_method(f, &methods[j]);
                }
                if (!open)
                        continue;
                for (size_t j = 0; j < ELEMENTSOF(signals); j++) {
                        if (!(signals[j].targets & bit) || strcmp(signals[j].interface, name) != 0)
                                continue;
                        fprintf(f, "  <signal name=\"%s\">", signals[j].member);
                        write_args(f, signals[j].args, NULL);
                        fputs("</signal>\n", f);
                }
                if (interfaces[i].props >= 0)
                        write_props(f, (obj_kind)interfaces[i].props);
                fputs(" </interface>\n", f);
        }
}
