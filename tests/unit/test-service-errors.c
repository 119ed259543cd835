/* SPDX-License-Identifier: MIT */
/* errno -> D-Bus error names, in the one place they are decided. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "errors.h"

static void test_names(void **state) {
        static const struct {
                int err;
                const char *name;
        } map[] = {
                { EACCES, MDB_ERROR_NOT_AUTHORIZED },
                { EPERM, MDB_ERROR_NOT_AUTHORIZED },
                { ENOENT, MDB_ERROR_NO_SUCH_ARRAY },
                { ENODEV, MDB_ERROR_NO_SUCH_ARRAY },
                { EOPNOTSUPP, MDB_ERROR_NOT_SUPPORTED },
                { EINVAL, MDB_ERROR_INVALID_ARGUMENT },
                { ERANGE, MDB_ERROR_INVALID_ARGUMENT },
                { EBUSY, MDB_ERROR_BUSY },
                { MDB_ECONFLICT, MDB_ERROR_CONFLICT },
                { MDB_ENOTBOOSTED, MDB_ERROR_NOT_BOOSTED },
                { EIO, MDB_ERROR_FAILED },
                { ENOSPC, MDB_ERROR_FAILED },
                { 0, MDB_ERROR_FAILED },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
                assert_string_equal(errors_name(-map[i].err), map[i].name);
                assert_string_equal(errors_name(map[i].err), map[i].name);
                assert_true(strlen(errors_hint(-map[i].err)) > 10);
        }
        assert_string_equal(MDB_ERROR_NOT_AUTHORIZED, "org.mdboost.MdBoost1.Error.NotAuthorized");
        assert_string_equal(MDB_ERROR_NOT_BOOSTED, "org.mdboost.MdBoost1.Error.NotBoosted");
}

static void test_reply(void **state) {
        DBusMessage *call = dbus_message_new_method_call("org.mdboost.MdBoost1", "/org/mdboost/MdBoost1",
                                                         "org.mdboost.MdBoost1.Manager", "Boost");
        DBusMessage *reply;
        const char *text = NULL;

        (void)state;
        dbus_message_set_serial(call, 7);
        reply = errors_reply(call, -EBUSY, "The kernel refused %s on %s.", "sync_max", "md0");
        assert_non_null(reply);
        assert_int_equal(dbus_message_get_type(reply), DBUS_MESSAGE_TYPE_ERROR);
        assert_string_equal(dbus_message_get_error_name(reply), MDB_ERROR_BUSY);
        assert_int_equal(dbus_message_get_reply_serial(reply), 7);
        assert_true(dbus_message_get_args(reply, NULL, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID));
        /* What happened, then what to do. */
        assert_non_null(strstr(text, "The kernel refused sync_max on md0."));
        assert_non_null(strstr(text, errors_hint(EBUSY)));
        dbus_message_unref(reply);
        dbus_message_unref(call);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_names),
                cmocka_unit_test(test_reply),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
