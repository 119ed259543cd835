/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The method table and the one function that dispatches every incoming
 * call: it finds the object, the row for (interface, member), checks the
 * signature, asks for authorisation when the row names a polkit action, and
 * only then runs the handler. Handlers return the reply.
 */

#include <dbus/dbus.h>

#include "auth.h"
#include "context.h"

typedef enum target {
        TARGET_NODE, /* a parent path: only introspection */
        TARGET_MANAGER,
        TARGET_ARRAY,
        _TARGET_MAX,
} target;

typedef struct call {
        context *c;
        DBusMessage *m;
        target kind;
        const char *path;
        char array[MD_NAME_MAX + 1]; /* TARGET_ARRAY: its kernel name */
        const caller *who;           /* set when the row has a polkit action */
} call;

typedef DBusMessage *(*method_fn)(call *k);

/* Registers the dispatcher for every path on the connection. */
int dispatch_register(context *c);

/* Dispatches @m (also used to resume a call whose authorisation was decided). */
void dispatch_message(context *c, DBusMessage *m);

/* Handlers (methods.c and stdifaces.c). */
DBusMessage *method_manager_boost(call *k);
DBusMessage *method_manager_restore(call *k);
DBusMessage *method_restore_all(call *k);
DBusMessage *method_get_profiles(call *k);
DBusMessage *method_set_policy(call *k);
DBusMessage *method_set_settings(call *k);
DBusMessage *method_get_reports(call *k);
DBusMessage *method_array_boost(call *k);
DBusMessage *method_array_restore(call *k);
DBusMessage *method_properties_get(call *k);
DBusMessage *method_properties_get_all(call *k);
DBusMessage *method_properties_set(call *k);
DBusMessage *method_get_managed_objects(call *k);
DBusMessage *method_introspect(call *k);

/* Resolves @path to a target; -ENOENT for a path that is not ours. */
int dispatch_resolve(const context *c, const char *path, target *ret_kind, char ret_array[MD_NAME_MAX + 1]);
