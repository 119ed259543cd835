/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "caller.h"
#include "log.h"

#define POLKIT_NAME "org.freedesktop.PolicyKit1"
#define POLKIT_PATH "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"
#define POLKIT_ALLOW_USER_INTERACTION 1u

/* An interactive question waits for a person to type a password. */
#define AUTH_TIMEOUT_MS 25000
#define AUTH_INTERACTIVE_TIMEOUT_MS 300000

/*
 * Every question to polkit is a reply the bus keeps for the service, and the
 * bus allows a connection only so many (max_replies_per_connection, 128 on
 * Debian's system bus); past that, every call the service makes fails. So
 * the questions out at once are capped per connection, per uid (a user can
 * open many connections) and in all, well below the bus's limit: a flood
 * from one user is refused with LimitsExceeded while root (never asked
 * about) and the other users are served.
 */
#define AUTH_MAX_PER_CONNECTION 16
#define AUTH_MAX_PER_UID 16
#define AUTH_MAX_POLKIT 64

typedef enum auth_state {
        AUTH_CREDENTIALS,
        AUTH_POLKIT,
        AUTH_DONE,
} auth_state;

typedef struct auth_request {
        struct auth_request *next;
        context *c;
        DBusMessage *msg; /* small: dispatch refuses big calls before asking */
        const char *action;
        auth_details details;
        auth_state state;
        int result;
        caller who;
        bool who_known;           /* the bus driver told us the caller's uid */
        DBusPendingCall *pending; /* the question that is out, if any */
        char cancel_id[32];       /* polkit's cancellation id for this question */
} auth_request;

static auth_redispatch_fn redispatch;
static unsigned long long cancel_counter;

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

/* Tells polkit to stop deciding (and close any password dialog): nothing will read its answer. */
static void polkit_cancel(auth_request *req) {
        DBusMessage *m;
        const char *id = req->cancel_id;

        m = dbus_message_new_method_call(POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE, "CancelCheckAuthorization");
        if (!m)
                return;
        dbus_message_set_no_reply(m, TRUE);
        if (dbus_message_append_args(m, DBUS_TYPE_STRING, &id, DBUS_TYPE_INVALID))
                dbus_connection_send(req->c->bus, m, NULL);
        dbus_message_unref(m);
}

static void request_free(auth_request *req) {
        if (req->pending) {
                if (req->state == AUTH_POLKIT)
                        polkit_cancel(req);
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
        if (result == -EUSERS)
                log_notice("refused %s to uid %u (%s): too many of its questions are waiting for polkit", req->action,
                           req->who.uid, req->who.bus_name);
        else if (result < 0 && req->who_known)
                log_notice("denied %s on %s to uid %u (%s)", req->action, req->details.array, req->who.uid,
                           req->who.bus_name);
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
        } else if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
                log_warning("polkit could not decide %s for %s: %s", req->action, req->who.bus_name,
                            dbus_message_get_error_name(reply));
                /* Our own timeout: polkit may still be waiting for a password nobody will type. */
                if (dbus_message_is_error(reply, DBUS_ERROR_NO_REPLY))
                        polkit_cancel(req);
        }
        if (reply)
                dbus_message_unref(reply);
        dbus_pending_call_unref(pending);
        req->pending = NULL;
        request_decide(req, authorized ? 1 : -EACCES);
}

/* What the question is about, for polkit rules (action.lookup("array")) and the dialog's $(array). */
static bool append_details(DBusMessageIter *it, const auth_details *d) {
        const struct {
                const char *key, *value;
        } rows[] = { { "array", d->array }, { "uuid", d->uuid }, { "profile", d->profile } };
        DBusMessageIter details, e;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{ss}", &details))
                return false;
        for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
                if (!rows[i].value[0])
                        continue;
                if (!dbus_message_iter_open_container(&details, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &rows[i].key) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &rows[i].value) ||
                    !dbus_message_iter_close_container(&details, &e))
                        return false;
        }
        return dbus_message_iter_close_container(it, &details);
}

static int polkit_ask(auth_request *req) {
        DBusMessage *m;
        DBusMessageIter it;
        DBusPendingCall *pending = NULL;
        bool interactive = dbus_message_get_allow_interactive_authorization(req->msg);
        dbus_uint32_t flags = interactive ? POLKIT_ALLOW_USER_INTERACTION : 0;
        const char *cancel = req->cancel_id;
        bool ok;

        snprintf(req->cancel_id, sizeof(req->cancel_id), "mdboost-%llu", ++cancel_counter);
        m = dbus_message_new_method_call(POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE, "CheckAuthorization");
        if (!m)
                return -ENOMEM;
        dbus_message_iter_init_append(m, &it);
        ok = append_subject(&it, req->who.bus_name) &&
             dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &req->action) &&
             append_details(&it, &req->details) && dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &flags) &&
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

/* Requests of connection @sender in any state. */
static unsigned count_pending(const context *c, const char *sender) {
        unsigned n = 0;

        for (const auth_request *req = c->auths; req; req = req->next)
                if (strcmp(req->who.bus_name, sender) == 0)
                        n++;
        return n;
}

/* Questions out to polkit: all of them, or those of uid *@uid. */
static unsigned count_asking(const context *c, const uint32_t *uid) {
        unsigned n = 0;

        for (const auth_request *req = c->auths; req; req = req->next)
                if (req->state == AUTH_POLKIT && (!uid || req->who.uid == *uid))
                        n++;
        return n;
}

static void credentials_done(DBusPendingCall *pending, void *data) {
        auth_request *req = data;
        DBusMessage *reply = dbus_pending_call_steal_reply(pending);
        int r = -EACCES;

        if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN)
                r = credentials_parse(reply, &req->who);
        req->who_known = r == 0;
        if (r == 0)
                caller_learn_login(&req->who);
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
        if (count_asking(req->c, &req->who.uid) >= AUTH_MAX_PER_UID || count_asking(req->c, NULL) >= AUTH_MAX_POLKIT) {
                request_decide(req, -EUSERS);
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

int auth_check(context *c, DBusMessage *m, const char *action, const auth_details *details, caller *ret_caller) {
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
        if (count_pending(c, sender) >= AUTH_MAX_PER_CONNECTION)
                return -EUSERS;

        req = calloc(1, sizeof(*req));
        if (!req)
                return -ENOMEM;
        *req = (auth_request){
                .c = c, .msg = dbus_message_ref(m), .action = action, .details = *details, .state = AUTH_CREDENTIALS
        };
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

/*
 * A caller that left the bus will read no answer: its questions are
 * withdrawn (polkit's too) and its calls dropped, never executed.
 */
static void caller_gone(context *c, const char *name) {
        auth_request **p = &c->auths;

        while (*p) {
                auth_request *req = *p;

                if (strcmp(req->who.bus_name, name) != 0) {
                        p = &req->next;
                        continue;
                }
                *p = req->next;
                log_info("dropped %s for %s: the caller left the bus before it was decided", req->action, name);
                request_free(req);
        }
}

static DBusHandlerResult on_name_owner_changed(DBusConnection *bus, DBusMessage *m, void *userdata) {
        const char *name, *old_owner, *new_owner;

        (void)bus;
        if (!dbus_message_is_signal(m, DBUS_INTERFACE_DBUS, "NameOwnerChanged") ||
            !dbus_message_has_sender(m, DBUS_SERVICE_DBUS) ||
            !dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old_owner, DBUS_TYPE_STRING,
                                   &new_owner, DBUS_TYPE_INVALID))
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
        /* A unique name never gets a new owner: an empty one means the connection is gone. */
        if (name[0] == ':' && !new_owner[0])
                caller_gone(userdata, name);
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

int auth_attach(context *c) {
        DBusError err;

        dbus_error_init(&err);
        dbus_bus_add_match(c->bus,
                           "type='signal',sender='" DBUS_SERVICE_DBUS "',path='" DBUS_PATH_DBUS "',"
                           "interface='" DBUS_INTERFACE_DBUS "',member='NameOwnerChanged',arg2=''",
                           &err);
        if (dbus_error_is_set(&err)) {
                log_error("cannot watch callers leaving the bus: %s", err.message);
                dbus_error_free(&err);
                return -EIO;
        }
        return dbus_connection_add_filter(c->bus, on_name_owner_changed, c, NULL) ? 0 : -ENOMEM;
}

void auth_free_all(context *c) {
        while (c->auths) {
                auth_request *req = c->auths;
                c->auths = req->next;
                request_free(req);
        }
}
