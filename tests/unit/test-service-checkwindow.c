/* SPDX-License-Identifier: MIT */
/* Check windows: their words, and when they open and close. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "checkwindow.h"

/* Weekdays as struct tm counts them, and a time of day in minutes. */
#define SUN 0u
#define MON 1u
#define TUE 2u
#define WED 3u
#define THU 4u
#define FRI 5u
#define SAT 6u

static int HM(int h, int m) {
        return h * 60 + m;
}

static void assert_words(const char *in, const char *canonical) {
        check_windows s;
        char buf[CHECK_WINDOW_TEXT_MAX];

        assert_int_equal(check_windows_parse(in, &s), 0);
        check_windows_format(&s, buf, sizeof(buf));
        assert_string_equal(buf, canonical);
        /* The canonical words read back the same. */
        assert_int_equal(check_windows_parse(buf, &s), 0);
        check_windows_format(&s, buf, sizeof(buf));
        assert_string_equal(buf, canonical);
}

static void test_words(void **state) {
        static const char *const bad[] = { "",
                                           "never",
                                           "01:00",
                                           "1:00-6:00",
                                           "01:00-06:00 Mon",
                                           "Mon",
                                           "01:60-02:00",
                                           "25:00-01:00",
                                           "24:00-01:00",
                                           "01:00-01:00",
                                           "Mo 01:00-02:00",
                                           "Mon-Xyz 01:00-02:00",
                                           "01:00-06:00;",
                                           "any 01:00-02:00" };
        check_windows s = { .n = 3 };
        char many[512] = "";

        (void)state;
        assert_words("any", "any");
        assert_words("01:00-06:00", "01:00-06:00");
        assert_words("  22:00-06:00", "22:00-06:00");
        assert_words("00:00-24:00", "00:00-24:00");
        assert_words("Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00", "Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00");
        assert_words("sat sun 00:00-08:00", "Sat,Sun 00:00-08:00");
        assert_words("Fri-Mon 23:00-05:00", "Mon,Fri-Sun 23:00-05:00");
        assert_words("Mon,Tue,Wed 01:00-02:00", "Mon-Wed 01:00-02:00");
        assert_words("Sun-Sat 03:00-04:00", "03:00-04:00");
        assert_words("Wed 20:00-00:00", "Wed 20:00-00:00");
        assert_words("Wed 20:00-24:00", "Wed 20:00-00:00");
        assert_words("23:00-00:00", "23:00-00:00");
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                assert_int_equal(check_windows_parse(bad[i], &s), -EINVAL);
                assert_int_equal(s.n, 3); /* refused: unchanged */
        }
        assert_int_equal(check_windows_parse(NULL, &s), -EINVAL);
        for (int i = 0; i <= CHECK_WINDOWS_MAX; i++)
                snprintf(many + strlen(many), sizeof(many) - strlen(many), "%02d:00-%02d:30 ", i, i);
        assert_int_equal(check_windows_parse(many, &s), -E2BIG);
        assert_int_equal(s.n, 3);
}

static void test_open(void **state) {
        check_windows s;

        (void)state;
        assert_int_equal(check_windows_parse("any", &s), 0);
        assert_true(check_windows_open(&s, TUE, HM(13, 0)));
        assert_int_equal(check_windows_minutes_until(&s, TUE, HM(13, 0), false), 0);
        assert_int_equal(check_windows_minutes_until(&s, TUE, HM(13, 0), true), -1);

        assert_int_equal(check_windows_parse("Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00", &s), 0);
        assert_false(check_windows_open(&s, TUE, HM(0, 59)));
        assert_true(check_windows_open(&s, TUE, HM(1, 0)));
        assert_true(check_windows_open(&s, TUE, HM(5, 59)));
        assert_false(check_windows_open(&s, TUE, HM(6, 0)));
        assert_true(check_windows_open(&s, SAT, HM(7, 0)));
        assert_false(check_windows_open(&s, SUN, HM(8, 0)));
        assert_int_equal(check_windows_minutes_until(&s, TUE, HM(13, 0), false), HM(12, 0));
        assert_int_equal(check_windows_minutes_until(&s, TUE, HM(2, 0), true), HM(4, 0));
        /* Friday afternoon: Saturday's window opens at midnight. */
        assert_int_equal(check_windows_minutes_until(&s, FRI, HM(13, 0), false), HM(11, 0));
        /* Sunday morning after its window: Monday 01:00. */
        assert_int_equal(check_windows_minutes_until(&s, SUN, HM(9, 0), false), HM(16, 0));

        /* Past midnight: the window belongs to the day it starts on. */
        assert_int_equal(check_windows_parse("Fri 22:00-06:00", &s), 0);
        assert_true(check_windows_open(&s, FRI, HM(23, 0)));
        assert_true(check_windows_open(&s, SAT, HM(5, 59)));
        assert_false(check_windows_open(&s, SAT, HM(6, 0)));
        assert_false(check_windows_open(&s, FRI, HM(5, 0)));
        assert_int_equal(check_windows_minutes_until(&s, FRI, HM(23, 0), true), HM(7, 0));
        assert_int_equal(check_windows_minutes_until(&s, SAT, HM(6, 0), false), 6 * 1440 + HM(16, 0));
        /* Saturday night to Sunday: the week wraps. */
        assert_int_equal(check_windows_parse("Sat 23:00-01:00", &s), 0);
        assert_true(check_windows_open(&s, SUN, HM(0, 30)));
        assert_false(check_windows_open(&s, SUN, HM(23, 30)));

        /* Windows that cover the whole week never close. */
        assert_int_equal(check_windows_parse("00:00-24:00", &s), 0);
        assert_int_equal(check_windows_minutes_until(&s, WED, HM(12, 0), true), -1);
        assert_int_equal(check_windows_parse("12:00-12:01", &s), 0);
        assert_int_equal(check_windows_minutes_until(&s, WED, HM(12, 1), false), 1439);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_words),
                cmocka_unit_test(test_open),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
