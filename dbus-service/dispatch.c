/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "errors.h"
#include "interface.h"
#include "log.h"
#include "monitor.h"
#include "profiles.h"

/*
 * Calls that need polkit are refused before it is asked when they are
 * larger than their arguments can be (an array name, a profile word and a
 * few options) or carry more options than there are: a question may wait
 * minutes for a password, and the service keeps the call that long.
 */
#define CALL_MAX_BYTES 4096
#define CALL_MAX_OPTIONS 32

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
                } else if (type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH || type == DBUS_TYPE_SIGNATURE) {
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
        if (mt->array_arg == ARG_ALL || (spec && !*spec && strcmp(mt->action, ACTION_CONFIGURE) == 0))
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

static void send_reply(context *c, DBusMessage *m, DBusMessage *reply) {
        if (!reply) {
                reply = errors_reply_bus(m, DBUS_ERROR_NO_MEMORY, "Out of memory.");
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
        char signature[64];
        const method *mt;
        caller who = {};
        int r;

        if (!k.path || !member)
                return;
        if (dispatch_resolve(c, k.path, &k.kind, k.array) < 0) {
                send_reply(c, m, errors_reply_bus(m, DBUS_ERROR_UNKNOWN_OBJECT, "No object at %s.", k.path));
                return;
        }
        mt = interface_find_method(k.kind, iface, member);
        if (!mt) {
                send_reply(c, m,
                           errors_reply_bus(m, DBUS_ERROR_UNKNOWN_METHOD, "%s has no method %s.%s.", k.path,
                                            iface ?: "", member));
                return;
        }
        if (interface_signature(mt, signature, sizeof(signature)) < 0)
                return;
        if (!dbus_message_has_signature(m, signature)) {
                if (interface_is_own(mt->interface))
                        send_reply(c, m,
                                   errors_reply(m, -EINVAL, "%s takes arguments '%s', not '%s'.", member, signature,
                                                dbus_message_get_signature(m)));
                else
                        send_reply(c, m,
                                   errors_reply_bus(m, DBUS_ERROR_INVALID_ARGS, "%s takes arguments '%s', not '%s'.",
                                                    member, signature, dbus_message_get_signature(m)));
                return;
        }
        if (mt->action) {
                auth_details details;

                if (call_too_big(m)) {
                        send_reply(c, m,
                                   errors_reply(m, -EINVAL,
                                                "%s takes an array name, a profile and at most "
                                                "%u options, in at most %u bytes; this call is larger.",
                                                member, CALL_MAX_OPTIONS, CALL_MAX_BYTES));
                        return;
                }
                details_for(c, &k, mt, &details);
                r = auth_check(c, m, mt->action, &details, &who);
                if (r == 0)
                        return; /* resumed by the answer */
                if (r == -EUSERS) {
                        send_reply(c, m,
                                   errors_reply(m, r,
                                                "Too many of your calls are waiting for "
                                                "authorisation; wait for their answers."));
                        return;
                }
                if (r < 0) {
                        const char *what = "restore";

                        if (strcmp(mt->action, ACTION_BOOST) == 0)
                                what = "boost";
                        else if (strcmp(mt->action, ACTION_CONFIGURE) == 0)
                                what = "set the policy or settings of";
                        send_reply(c, m,
                                   errors_reply(m, -EACCES, "You are not allowed to %s md arrays (polkit action %s).",
                                                what, mt->action));
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
        monitor_freshen(userdata);
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
