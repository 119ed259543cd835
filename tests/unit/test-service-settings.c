/* SPDX-License-Identifier: MIT */
/* Persistent settings: what the kernel's value says about one, and their file's shape. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "settings.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"

static md_tval tv(md_vkind k, uint64_t v) {
        return (md_tval){ .kind = k, .value = v };
}

static journal_entry entry(void) {
        journal_entry e = { .uuid = UUID1, .array = "md0", .profile = SETTINGS_PROFILE, .operation = "always" };

        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                e.originals[t] = e.written[t] = e.earlier[t] = tv(MD_V_ABSENT, 0);
        e.originals[MD_T_READ_AHEAD_KB] = tv(MD_V_NUMBER, 3072);
        e.written[MD_T_READ_AHEAD_KB] = tv(MD_V_NUMBER, 2048);
        e.originals[MD_T_SYNC_SPEED_MIN] = tv(MD_V_SYSTEM, 1000);
        e.written[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 5000);
        return e;
}

/* Applied when the kernel reads what it wrote; to apply when it reads the original; else an admin's value. */
static void test_judge(void **state) {
        journal_entry e = entry();
        md_tval v;

        (void)state;
        v = tv(MD_V_NUMBER, 2048);
        assert_int_equal(settings_judge(&e, MD_T_READ_AHEAD_KB, &v), SETTING_APPLIED);
        v = tv(MD_V_NUMBER, 3072);
        assert_int_equal(settings_judge(&e, MD_T_READ_AHEAD_KB, &v), SETTING_TO_APPLY);
        v = tv(MD_V_NUMBER, 4096);
        assert_int_equal(settings_judge(&e, MD_T_READ_AHEAD_KB, &v), SETTING_OVERRIDDEN);
        v = tv(MD_V_LOCAL, 5000);
        assert_int_equal(settings_judge(&e, MD_T_SYNC_SPEED_MIN, &v), SETTING_APPLIED);
        /* md's own default, though the system-wide value changed since: still the original. */
        v = tv(MD_V_SYSTEM, 2000);
        assert_int_equal(settings_judge(&e, MD_T_SYNC_SPEED_MIN, &v), SETTING_TO_APPLY);
        /* The same number written for this array by someone else is theirs. */
        v = tv(MD_V_LOCAL, 1000);
        assert_int_equal(settings_judge(&e, MD_T_SYNC_SPEED_MIN, &v), SETTING_OVERRIDDEN);
        assert_string_equal(setting_state_to_string(SETTING_OVERRIDDEN), "overridden");
        assert_null(setting_state_to_string(_SETTING_STATE_MAX));
        assert_false(settings_empty(&e));
        e.originals[MD_T_READ_AHEAD_KB] = e.originals[MD_T_SYNC_SPEED_MIN] = tv(MD_V_ABSENT, 0);
        assert_true(settings_empty(&e));
}

/* The file is the journal's shape under "settings"; a "boosts" file is not one. */
static void test_file_shape(void **state) {
        journal j = {}, back = {};
        journal_entry e = entry();
        char *text;

        (void)state;
        assert_int_equal(journal_put(&j, &e), 0);
        text = journal_format_section(&j, SETTINGS_SECTION);
        assert_non_null(text);
        assert_non_null(strstr(text, "\"settings\""));
        assert_null(strstr(text, "\"boosts\""));
        assert_int_equal(journal_parse_section(text, SETTINGS_SECTION, &back, NULL), 0);
        assert_int_equal(back.n, 1);
        assert_true(journal_tval_equal(&back.entries[0].written[MD_T_SYNC_SPEED_MIN], &e.written[MD_T_SYNC_SPEED_MIN]));
        journal_free(&back);
        assert_int_equal(journal_parse(text, &back, NULL), -EINVAL);
        free(text);
        journal_free(&j);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_judge),
                cmocka_unit_test(test_file_shape),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
