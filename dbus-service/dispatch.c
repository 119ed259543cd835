/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "errors.h"
#include "log.h"
#include "profiles.h"

#define T_NODE (1u << TARGET_NODE)
#define T_MANAGER (1u << TARGET_MANAGER)
#define T_ARRAY (1u << TARGET_ARRAY)
#define T_ALL (T_NODE | T_MANAGER | T_ARRAY)

/*
 * Calls that need polkit are refused before it is asked when they are
 * larger than their arguments can be (an array name, a profile word and a
 * few options) or carry more options than there are: a question may wait
 * minutes for a password, and the service keeps the call that long.
 */
#define CALL_MAX_BYTES 4096
#define CALL_MAX_OPTIONS 32

/* Where a row's polkit details come from. */
enum {
        ARG_NONE = -1,   /* no such detail */
        ARG_OBJECT = -2, /* the array object the call was made on */
        ARG_ALL = -3,    /* every boosted array */
};

typedef struct method {
        unsigned targets;
        const char *interface;
        const char *member;
        const char *signature;
        method_fn handler;
        const char *action; /* polkit action, NULL: anyone */
        int array_arg;      /* the argument naming the array, or ARG_* */
        int profile_arg;    /* the argument naming the profile, or ARG_NONE */
} method;

static const method methods[] = {
        { T_MANAGER, MANAGER_IFACE, "Boost", "ssa{sv}", method_manager_boost, ACTION_BOOST, 0, 1 },
        { T_MANAGER, MANAGER_IFACE, "Restore", "sa{sv}", method_manager_restore, ACTION_RESTORE, 0, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "RestoreAll", "a{sv}", method_restore_all, ACTION_RESTORE, ARG_ALL, ARG_NONE },
        { T_MANAGER, MANAGER_IFACE, "GetProfiles", "", method_get_profiles, NULL, ARG_NONE, ARG_NONE },
        { T_ARRAY, ARRAY_IFACE, "Boost", "sa{sv}", method_array_boost, ACTION_BOOST, ARG_OBJECT, 0 },
        { T_ARRAY, ARRAY_IFACE, "Restore", "a{sv}", method_array_restore, ACTION_RESTORE, ARG_OBJECT, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "Get", "ss", method_properties_get, NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "GetAll", "s", method_properties_get_all, NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER | T_ARRAY, DBUS_INTERFACE_PROPERTIES, "Set", "ssv", method_properties_set, NULL, ARG_NONE, ARG_NONE },
        { T_MANAGER, DBUS_INTERFACE_OBJECT_MANAGER, "GetManagedObjects", "", method_get_managed_objects, NULL, ARG_NONE, ARG_NONE },
        { T_ALL, DBUS_INTERFACE_INTROSPECTABLE, "Introspect", "", method_introspect, NULL, ARG_NONE, ARG_NONE },
};

int dispatch_resolve(const context *c, const char *path, target *ret_kind, char ret_array[MD_NAME_MAX + 1]) {
        static const char *const nodes[] = { "/", "/org", "/org/mdboost", ARRAYS_PATH };
        const char *prefix = ARRAYS_PATH "/";

        for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
                if (strcmp(path, nodes[i]) == 0) {
                        *ret_kind = TARGET_NODE;
                        return 0;
                }
        if (strcmp(path, MANAGER_PATH) == 0) {
                *ret_kind = TARGET_MANAGER;
                return 0;
        }
        if (strncmp(path, prefix, strlen(prefix)) != 0)
                return -ENOENT;
        path += strlen(prefix);
        for (unsigned i = 0; i < c->n_objects; i++)
                if (strcmp(c->objects[i].name, path) == 0) {
                        *ret_kind = TARGET_ARRAY;
                        snprintf(ret_array, MD_NAME_MAX + 1, "%s", path);
                        return 0;
                }
        return -ENOENT;
}

static const method *find_method(target kind, const char *iface, const char *member) {
        for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
                const method *mt = &methods[i];

                if (!(mt->targets & (1u << kind)) || strcmp(mt->member, member) != 0)
                        continue;
                /* libdbus allows calls without an interface: the member alone decides then. */
                if (iface && strcmp(mt->interface, iface) != 0)
                        continue;
                return mt;
        }
        return NULL;
}

/*
 * Bytes of the values under @it, stopping as soon as they pass @budget;
 * @options counts the dictionary entries met.
 */
static size_t args_bytes(DBusMessageIter *it, size_t budget, unsigned *options) {
        size_t n = 0;

        for (; n <= budget && dbus_message_iter_get_arg_type(it) != DBUS_TYPE_INVALID; dbus_message_iter_next(it)) {
                int type = dbus_message_iter_get_arg_type(it);

                if (dbus_type_is_container(type)) {
                        DBusMessageIter sub;

                        if (type == DBUS_TYPE_DICT_ENTRY)
                                (*options)++;
                        dbus_message_iter_recurse(it, &sub);
                        n += 8 + args_bytes(&sub, budget - n, options);
                } else if (type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH ||
                           type == DBUS_TYPE_SIGNATURE) {
                        const char *v;

                        dbus_message_iter_get_basic(it, &v);
                        n += strnlen(v, budget - n + 1) + 1;
                } else
                        n += 8;
        }
        return n;
}

static bool call_too_big(DBusMessage *m) {
        DBusMessageIter it;
        unsigned options = 0;

        if (!dbus_message_iter_init(m, &it))
                return false;
        return args_bytes(&it, CALL_MAX_BYTES, &options) > CALL_MAX_BYTES || options > CALL_MAX_OPTIONS;
}

/* The string argument @index of @m, or NULL. */
static const char *string_arg(DBusMessage *m, int index) {
        DBusMessageIter it;
        const char *v;

        if (index < 0 || !dbus_message_iter_init(m, &it))
                return NULL;
        for (int i = 0; i < index; i++)
                if (!dbus_message_iter_next(&it))
                        return NULL;
        if (dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_STRING)
                return NULL;
        dbus_message_iter_get_basic(&it, &v);
        return v;
}

/*
 * polkit shows the details in its dialog ($(array) in the .policy's
 * messages) and rules read them: only names the service knows go there,
 * never the caller's own words.
 */
static void details_for(const context *c, const call *k, const method *mt, auth_details *ret) {
        const char *spec = mt->array_arg == ARG_OBJECT ? k->array : string_arg(k->m, mt->array_arg);
        const char *profile = string_arg(k->m, mt->profile_arg);
        const md_array *a = spec ? md_array_set_find(&c->arrays, spec) : NULL;

        *ret = (auth_details){};
        if (mt->array_arg == ARG_ALL)
                snprintf(ret->array, sizeof(ret->array), "all");
        else if (a) {
                snprintf(ret->array, sizeof(ret->array), "%s", a->name);
                snprintf(ret->uuid, sizeof(ret->uuid), "%s", a->uuid);
        } else if (spec)
                snprintf(ret->array, sizeof(ret->array), "unknown");
        if (profile)
                snprintf(ret->profile, sizeof(ret->profile), "%s",
                         profile_from_string(profile) >= 0 ? profile : "unknown");
}

static bool is_own_interface(const char *iface) {
        return strcmp(iface, MANAGER_IFACE) == 0 || strcmp(iface, ARRAY_IFACE) == 0;
}

static void send_reply(context *c, DBusMessage *m, DBusMessage *reply) {
        if (!reply) {
                reply = dbus_message_new_error(m, DBUS_ERROR_NO_MEMORY, "Out of memory.");
                if (!reply)
                        return;
        }
        if (!dbus_message_get_no_reply(m))
                dbus_connection_send(c->bus, reply, NULL);
        dbus_message_unref(reply);
}

void dispatch_message(context *c, DBusMessage *m) {
        const char *iface = dbus_message_get_interface(m), *member = dbus_message_get_member(m);
        call k = { .c = c, .m = m, .path = dbus_message_get_path(m) };
        const method *mt;
        caller who = {};
        int r;

        if (!k.path || !member)
                return;
        if (dispatch_resolve(c, k.path, &k.kind, k.array) < 0) {
                send_reply(c, m, dbus_message_new_error_printf(m, DBUS_ERROR_UNKNOWN_OBJECT,
                                                              "No object at %s.", k.path));
                return;
        }
        mt = find_method(k.kind, iface, member);
        if (!mt) {
                send_reply(c, m, dbus_message_new_error_printf(m, DBUS_ERROR_UNKNOWN_METHOD,
                                                              "%s has no method %s.%s.", k.path, iface ?: "",
                                                              member));
                return;
        }
        if (!dbus_message_has_signature(m, mt->signature)) {
                if (is_own_interface(mt->interface))
                        send_reply(c, m, errors_reply(m, -EINVAL, "%s takes arguments '%s', not '%s'.", member,
                                                      mt->signature, dbus_message_get_signature(m)));
                else
                        send_reply(c, m, dbus_message_new_error_printf(m, DBUS_ERROR_INVALID_ARGS,
                                                                      "%s takes arguments '%s', not '%s'.", member,
                                                                      mt->signature, dbus_message_get_signature(m)));
                return;
        }
        if (mt->action) {
                auth_details details;

                if (call_too_big(m)) {
                        send_reply(c, m, errors_reply(m, -EINVAL, "%s takes an array name, a profile and at most "
                                                      "%u options, in at most %u bytes; this call is larger.",
                                                      member, CALL_MAX_OPTIONS, CALL_MAX_BYTES));
                        return;
                }
                details_for(c, &k, mt, &details);
                r = auth_check(c, m, mt->action, &details, &who);
                if (r == 0)
                        return; /* resumed by the answer */
                if (r == -EUSERS) {
                        send_reply(c, m, errors_reply(m, r, "Too many of your calls are waiting for "
                                                      "authorisation; wait for their answers."));
                        return;
                }
                if (r < 0) {
                        send_reply(c, m, errors_reply(m, -EACCES, "You are not allowed to %s md arrays (polkit action %s).",
                                                      strcmp(mt->action, ACTION_BOOST) == 0 ? "boost" : "restore",
                                                      mt->action));
                        return;
                }
                k.who = &who;
        }
        send_reply(c, m, mt->handler(&k));
}

static DBusHandlerResult on_message(DBusConnection *bus, DBusMessage *m, void *userdata) {
        (void)bus;
        if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL)
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
        dispatch_message(userdata, m);
        return DBUS_HANDLER_RESULT_HANDLED;
}

static void redispatch(context *c, DBusMessage *m) {
        dispatch_message(c, m);
}

int dispatch_register(context *c) {
        static const DBusObjectPathVTable vtable = { .message_function = on_message };

        auth_set_redispatch(redispatch);
        if (!dbus_connection_register_fallback(c->bus, "/", &vtable, c))
                return -ENOMEM;
        return 0;
}
