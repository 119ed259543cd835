/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Who is calling, and may they. The caller's uid and pid come from the bus
 * driver (GetConnectionCredentials); uid 0 passes; anyone else is asked
 * about with polkit's CheckAuthorization for the caller's system-bus-name.
 * Both questions are asynchronous: while they are out, other clients are
 * served. When the answer arrives, the call is dispatched again from the
 * start, so it is validated against the state of that moment. No answer, an
 * error or an unreachable polkit mean "no".
 */

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stdint.h>

#include "context.h"

typedef struct caller {
        char bus_name[256];
        uint32_t uid;
        uint32_t pid;
        bool automatic;       /* the daemon itself: automatic restore, or a policy's boost */
        char policy[96];      /* automatic: the policy it acts for, "" for none */
        char policy_word[16]; /* and that policy's class word, kept in the journal */
        bool has_login;       /* the caller process belongs to a login session (caller.h) */
        uint32_t login_uid;   /* whose: the user who logged in, whatever uid the process has now */
        char login_name[64];  /* that user's name, "" when no account has the uid */
} caller;

/* What a call is about: polkit passes it to rules and the authentication dialog. */
typedef struct auth_details {
        char array[64];   /* the kernel name, "all" for RestoreAll, "unknown" for no such array */
        char uuid[37];    /* "" when the array is unknown */
        char profile[32]; /* a profile's name, "unknown", or "" for Restore */
} auth_details;

/* Called to dispatch @m again once its authorisation is decided. */
typedef void (*auth_redispatch_fn)(context *c, DBusMessage *m);

void auth_set_redispatch(auth_redispatch_fn fn);

/*
 * 1: authorised, @ret_caller filled. 0: the question is out; return without
 * replying, the call comes back through the redispatch function (or never,
 * when the caller leaves the bus first). -EACCES: denied, or polkit could
 * not be asked. -EUSERS: this connection, this uid or all callers together
 * already have too many questions out.
 */
int auth_check(context *c, DBusMessage *m, const char *action, const auth_details *details, caller *ret_caller);

/* Watches callers leave the bus, so that their questions are withdrawn. */
int auth_attach(context *c);

/* Drops every outstanding question (at exit). */
void auth_free_all(context *c);
