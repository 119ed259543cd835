/* SPDX-License-Identifier: MIT */
/* Who is behind a caller: /proc/PID/loginuid and the audit's words for it. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "caller.h"

static void test_parse(void **state) {
        uint32_t uid = 7;

        (void)state;
        assert_int_equal(caller_parse_loginuid("1000", 4, &uid), 0);
        assert_int_equal(uid, 1000);
        assert_int_equal(caller_parse_loginuid("0\n", 2, &uid), 0);
        assert_int_equal(uid, 0);
        /* The kernel's "no login" is no login, not uid 4294967295. */
        uid = 7;
        assert_int_equal(caller_parse_loginuid("4294967295", 10, &uid), -ENODATA);
        assert_int_equal(uid, 7);
        assert_int_equal(caller_parse_loginuid("4294967296", 10, &uid), -EINVAL);
        assert_int_equal(caller_parse_loginuid("", 0, &uid), -EINVAL);
        assert_int_equal(caller_parse_loginuid("-1", 2, &uid), -EINVAL);
        assert_int_equal(caller_parse_loginuid("12ab", 4, &uid), -EINVAL);
        assert_int_equal(uid, 7);
}

static void test_describe(void **state) {
        caller who = { .bus_name = ":1.4", .uid = 0, .pid = 495 };
        char buf[320];

        (void)state;
        caller_describe(&who, buf, sizeof(buf));
        assert_string_equal(buf, "uid 0 pid 495 bus :1.4");
        /* Cockpit's bridge, root through sudo, in alice's session. */
        who.has_login = true;
        who.login_uid = 1000;
        snprintf(who.login_name, sizeof(who.login_name), "alice");
        caller_describe(&who, buf, sizeof(buf));
        assert_string_equal(buf, "uid 0 pid 495 bus :1.4 for login alice (uid 1000)");
        who.login_name[0] = '\0';
        caller_describe(&who, buf, sizeof(buf));
        assert_string_equal(buf, "uid 0 pid 495 bus :1.4 for login uid 1000");
        /* A user in their own session: the uid says it all. */
        who.uid = 1000;
        caller_describe(&who, buf, sizeof(buf));
        assert_string_equal(buf, "uid 1000 pid 495 bus :1.4");
        /* Cut short, never overrun. */
        who.uid = 0;
        caller_describe(&who, buf, 12);
        assert_string_equal(buf, "uid 0 pid 4");
}

/* This process's own login, as the kernel reports it; no process, no login. */
static void test_learn(void **state) {
        caller who = { .pid = (uint32_t)getpid() };
        char text[32] = "";
        uint32_t want;
        FILE *f;

        (void)state;
        f = fopen("/proc/self/loginuid", "r");
        if (f) {
                if (!fgets(text, sizeof(text), f))
                        text[0] = '\0';
                fclose(f);
        }
        caller_learn_login(&who);
        if (caller_parse_loginuid(text, strlen(text), &want) == 0) {
                assert_true(who.has_login);
                assert_int_equal(who.login_uid, want);
        } else
                assert_false(who.has_login);
        who = (caller){ .pid = 0, .has_login = true };
        caller_learn_login(&who);
        assert_false(who.has_login);
        who = (caller){ .pid = 4194305 }; /* above pid_max's limit: no such process */
        caller_learn_login(&who);
        assert_false(who.has_login);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_parse),
                cmocka_unit_test(test_describe),
                cmocka_unit_test(test_learn),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
