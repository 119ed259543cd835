/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The edge where a negative errno becomes a D-Bus error name. Everything
 * inside the service returns -errno; only this file knows the names.
 */

#include <dbus/dbus.h>
#include <errno.h>

#define MDB_ERROR_PREFIX "org.mdboost.MdBoost1.Error."
#define MDB_ERROR_NOT_AUTHORIZED MDB_ERROR_PREFIX "NotAuthorized"
#define MDB_ERROR_NO_SUCH_ARRAY MDB_ERROR_PREFIX "NoSuchArray"
#define MDB_ERROR_NOT_SUPPORTED MDB_ERROR_PREFIX "NotSupported"
#define MDB_ERROR_INVALID_ARGUMENT MDB_ERROR_PREFIX "InvalidArgument"
#define MDB_ERROR_BUSY MDB_ERROR_PREFIX "Busy"
#define MDB_ERROR_CONFLICT MDB_ERROR_PREFIX "Conflict"
#define MDB_ERROR_NOT_BOOSTED MDB_ERROR_PREFIX "NotBoosted"
#define MDB_ERROR_FAILED MDB_ERROR_PREFIX "Failed"

/*
 * The errno that stands for "an admin changed a value after the boost, so
 * Restore left it alone": our record of that value is stale.
 */
#define MDB_ECONFLICT ESTALE

/* The errno that stands for "Restore of an array the journal holds no boost of". */
#define MDB_ENOTBOOSTED ENODATA

/* The error name for a negative (or positive) errno. Never NULL. */
const char *errors_name(int err);

/* A short hint telling a person what to do about @err; never NULL. */
const char *errors_hint(int err);

/* An error reply to @call named after @err, with @text as it is: for messages that say what to do themselves. */
DBusMessage *errors_reply_text(DBusMessage *call, int err, const char *text);

/* An error reply to @call named after @err, with the formatted message plus the hint. */
DBusMessage *errors_reply(DBusMessage *call, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * An error reply with one of D-Bus's own names (DBUS_ERROR_UNKNOWN_METHOD,
 * DBUS_ERROR_UNKNOWN_PROPERTY, ...): for what the bus's standard interfaces
 * and the dispatcher refuse, where clients expect those names.
 */
DBusMessage *errors_reply_bus(DBusMessage *call, const char *name, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
