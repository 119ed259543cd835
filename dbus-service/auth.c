/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "log.h"

#define POLKIT_NAME "org.freedesktop.PolicyKit1"
#define POLKIT_PATH "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"
#define POLKIT_ALLOW_USER_INTERACTION 1u

/* An interactive question waits for a person to type a password. */
#define AUTH_TIMEOUT_MS 25000
#define AUTH_INTERACTIVE_TIMEOUT_MS 300000
/* Questions one client may have out at once: a flood from one cannot starve the others. */
#define AUTH_MAX_PER_CALLER 16

typedef enum auth_state {
        AUTH_CREDENTIALS,
        AUTH_POLKIT,
        AUTH_DONE,
} auth_state;

typedef struct auth_request {
        struct auth_request *next;
        context *c;
        DBusMessage *msg;
        const char *action;
        auth_state state;
        int result;
        caller who;
        bool who_known;           /* the bus driver told us the caller's uid */
        DBusPendingCall *pending; /* the question that is out, if any */
} auth_request;

static auth_redispatch_fn redispatch;

void auth_set_redispatch(auth_redispatch_fn fn) {
        redispatch = fn;
}

static void request_unlink(context *c, auth_request *req) {
        for (auth_request **p = &c->auths; *p; p = &(*p)->next)
                if (*p == req) {
                        *p = req->next;
                        return;
                }
}

static void request_free(auth_request *req) {
        if (req->pending) {
                dbus_pending_call_cancel(req->pending);
                dbus_pending_call_unref(req->pending);
        }
        dbus_message_unref(req->msg);
        free(req);
}

static void request_decide(auth_request *req, int result) {
        context *c = req->c;
        DBusMessage *m;

        req->state = AUTH_DONE;
        req->result = result;
        if (result < 0 && req->who_known)
                log_notice("denied %s to uid %u (%s)", req->action, req->who.uid, req->who.bus_name);
        else if (result < 0)
                log_notice("denied %s to %s, whose uid the bus did not tell", req->action, req->who.bus_name);
        /* auth_check() frees @req during the redispatch: the call must outlive it. */
        m = dbus_message_ref(req->msg);
        if (redispatch)
                redispatch(c, m);
        /* A call that did not reach auth_check() again (its object went away) leaves its answer unused. */
        for (auth_request *r = c->auths; r; r = r->next)
                if (r == req) {
                        request_unlink(c, req);
                        request_free(req);
                        break;
                }
        dbus_message_unref(m);
}

static int credentials_parse(DBusMessage *reply, caller *who) {
        DBusMessageIter it, dict;
        bool have_uid = false;

        if (!dbus_message_iter_init(reply, &it) || dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_ARRAY)
                return -EINVAL;
        dbus_message_iter_recurse(&it, &dict);
        for (; dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dict)) {
                DBusMessageIter e, v;
                const char *key;
                dbus_uint32_t x;

                dbus_message_iter_recurse(&dict, &e);
                dbus_message_iter_get_basic(&e, &key);
                dbus_message_iter_next(&e);
                dbus_message_iter_recurse(&e, &v);
                if (dbus_message_iter_get_arg_type(&v) != DBUS_TYPE_UINT32)
                        continue;
                dbus_message_iter_get_basic(&v, &x);
                if (strcmp(key, "UnixUserID") == 0) {
                        who->uid = x;
                        have_uid = true;
                } else if (strcmp(key, "ProcessID") == 0)
                        who->pid = x;
        }
        return have_uid ? 0 : -EINVAL;
}

static bool append_subject(DBusMessageIter *it, const char *sender) {
        DBusMessageIter st, dict, e, v;
        const char *kind = "system-bus-name", *key = "name";

        return dbus_message_iter_open_container(it, DBUS_TYPE_STRUCT, NULL, &st) &&
               dbus_message_iter_append_basic(&st, DBUS_TYPE_STRING, &kind) &&
               dbus_message_iter_open_container(&st, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
               dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
               dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
               dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "s", &v) &&
               dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &sender) &&
               dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(&dict, &e) &&
               dbus_message_iter_close_container(&st, &dict) && dbus_message_iter_close_container(it, &st);
}

static void polkit_done(DBusPendingCall *pending, void *data) {
        auth_request *req = data;
        DBusMessage *reply = dbus_pending_call_steal_reply(pending);
        DBusMessageIter it, st;
        dbus_bool_t authorized = FALSE;

        if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN &&
            dbus_message_has_signature(reply, "(bba{ss})")) {
                dbus_message_iter_init(reply, &it);
                dbus_message_iter_recurse(&it, &st);
                dbus_message_iter_get_basic(&st, &authorized);
        } else if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR)
                log_warning("polkit could not decide %s for %s: %s", req->action, req->who.bus_name,
                            dbus_message_get_error_name(reply));
        if (reply)
                dbus_message_unref(reply);
        dbus_pending_call_unref(pending);
        req->pending = NULL;
        request_decide(req, authorized ? 1 : -EACCES);
}

static int polkit_ask(auth_request *req) {
        DBusMessage *m;
        DBusMessageIter it, details;
        DBusPendingCall *pending = NULL;
        bool interactive = dbus_message_get_allow_interactive_authorization(req->msg);
        dbus_uint32_t flags = interactive ? POLKIT_ALLOW_USER_INTERACTION : 0;
        const char *cancel = "";
        bool ok;

        m = dbus_message_new_method_call(POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE, "CheckAuthorization");
        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &it);
        ok = append_subject(&it, req->who.bus_name) &&
             dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &req->action) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{ss}", &details) &&
             dbus_message_iter_close_container(&it, &details) &&
             dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &flags) &&
             dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &cancel) &&
             dbus_connection_send_with_reply(req->c->bus, m, &pending,
                                             interactive ? AUTH_INTERACTIVE_TIMEOUT_MS : AUTH_TIMEOUT_MS) &&
             pending && dbus_pending_call_set_notify(pending, polkit_done, req, NULL);
        dbus_message_unref(m);
        if (!ok) {
                if (pending)
                        dbus_pending_call_unref(pending);
                return -ENOMEM;
        }
        req->state = AUTH_POLKIT;
        req->pending = pending;
        return 0;
}

static void credentials_done(DBusPendingCall *pending, void *data) {
        auth_request *req = data;
        DBusMessage *reply = dbus_pending_call_steal_reply(pending);
        int r = -EACCES;

        if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN)
                r = credentials_parse(reply, &req->who);
        req->who_known = r == 0;
        if (reply)
                dbus_message_unref(reply);
        dbus_pending_call_unref(pending);
        req->pending = NULL;

        if (r < 0) {
                log_warning("could not learn who %s is; refusing", req->who.bus_name);
                request_decide(req, -EACCES);
                return;
        }
        if (req->who.uid == 0) {
                request_decide(req, 1);
                return;
        }
        if (polkit_ask(req) < 0) {
                log_warning("could not ask polkit about %s; refusing", req->who.bus_name);
                request_decide(req, -EACCES);
        }
}

static int credentials_ask(auth_request *req) {
        DBusMessage *m;
        DBusPendingCall *pending = NULL;
        const char *name = req->who.bus_name;
        bool ok;

        m = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS,
                                         "GetConnectionCredentials");
        if (!m)
                return -ENOMEM;
        ok = dbus_message_append_args(m, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID) &&
             dbus_connection_send_with_reply(req->c->bus, m, &pending, AUTH_TIMEOUT_MS) && pending &&
             dbus_pending_call_set_notify(pending, credentials_done, req, NULL);
        dbus_message_unref(m);
        if (!ok) {
                if (pending)
                        dbus_pending_call_unref(pending);
                return -ENOMEM;
        }
        req->pending = pending;
        return 0;
}

static unsigned count_pending(const context *c, const char *sender) {
        unsigned n = 0;

        for (const auth_request *req = c->auths; req; req = req->next)
                if (strcmp(req->who.bus_name, sender) == 0)
                        n++;
        return n;
}

int auth_check(context *c, DBusMessage *m, const char *action, caller *ret_caller) {
        const char *sender = dbus_message_get_sender(m);
        auth_request *req;
        int r;

        for (req = c->auths; req; req = req->next)
                if (req->msg == m)
                        break;
        if (req) {
                if (req->state != AUTH_DONE)
                        return 0;
                r = req->result;
                if (r > 0)
                        *ret_caller = req->who;
                request_unlink(c, req);
                request_free(req);
                return r;
        }
        if (!sender)
                return -EACCES;
        if (count_pending(c, sender) >= AUTH_MAX_PER_CALLER)
                return -EBUSY;

        req = calloc(1, sizeof(*req));
        if (!req)
                return -ENOMEM;
        *req = (auth_request){ .c = c, .msg = dbus_message_ref(m), .action = action, .state = AUTH_CREDENTIALS };
        snprintf(req->who.bus_name, sizeof(req->who.bus_name), "%s", sender);
        r = credentials_ask(req);
        if (r < 0) {
                request_free(req);
                return -EACCES;
        }
        req->next = c->auths;
        c->auths = req;
        return 0;
}

void auth_free_all(context *c) {
        while (c->auths) {
                auth_request *req = c->auths;
                c->auths = req->next;
                request_free(req);
        }
}


