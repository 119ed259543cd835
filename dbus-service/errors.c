/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "errors.h"

const char *errors_name(int err) {
        switch (abs(err)) {
        case EACCES:
        case EPERM:
                return MDB_ERROR_NOT_AUTHORIZED;
        case ENOENT:
        case ENODEV:
                return MDB_ERROR_NO_SUCH_ARRAY;
        case EOPNOTSUPP:
                return MDB_ERROR_NOT_SUPPORTED;
        case EINVAL:
        case ERANGE:
                return MDB_ERROR_INVALID_ARGUMENT;
        case EBUSY:
                return MDB_ERROR_BUSY;
        case EUSERS:
                return DBUS_ERROR_LIMITS_EXCEEDED;
        case MDB_ECONFLICT:
                return MDB_ERROR_CONFLICT;
        case MDB_ENOTBOOSTED:
                return MDB_ERROR_NOT_BOOSTED;
        default:
                return MDB_ERROR_FAILED;
        }
}

const char *errors_hint(int err) {
        switch (abs(err)) {
        case EACCES:
        case EPERM:
                return "Ask an administrator, or run the command as root.";
        case ENOENT:
        case ENODEV:
                return "List the arrays with: busctl get-property org.mdboost.MdBoost1 "
                       "/org/mdboost/MdBoost1 org.mdboost.MdBoost1.Manager Arrays";
        case EOPNOTSUPP:
                return "Only active raid1, raid4, raid5, raid6 and raid10 arrays rebuild and can be boosted.";
        case EINVAL:
        case ERANGE:
                return "Nothing was written; correct the value and call again (man 8 mdboostd: BOOST OPTIONS).";
        case EBUSY:
                return "The kernel refuses this while an operation runs; try again when it ends.";
        case EUSERS:
                return "Nothing was written; call again once polkit has answered your earlier calls.";
        case MDB_ECONFLICT:
                return "The values an administrator set were kept; put them back by hand if they are "
                       "not wanted.";
        case MDB_ENOTBOOSTED:
                return "Nothing was written. The Boosted property of an array says whether it is boosted.";
        default:
                return "Details are in the service log (journalctl -t mdboostd).";
        }
}

DBusMessage *errors_reply_text(DBusMessage *call, int err, const char *text) {
        return dbus_message_new_error(call, errors_name(err), text);
}

DBusMessage *errors_reply(DBusMessage *call, int err, const char *fmt, ...) {
        char text[1536], full[2048];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(text, sizeof(text), fmt, ap);
        va_end(ap);
        snprintf(full, sizeof(full), "%s %s", text, errors_hint(err));
        return errors_reply_text(call, err, full);
}

DBusMessage *errors_reply_bus(DBusMessage *call, const char *name, const char *fmt, ...) {
        char text[1536];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(text, sizeof(text), fmt, ap);
        va_end(ap);
        return dbus_message_new_error(call, name, text);
}
