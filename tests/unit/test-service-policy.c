/* SPDX-License-Identifier: MIT */
/* Policies: their words, their classes, and which rule an array gets. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"
#define UUID2 "11111111-2222-3333-4444-555555555555"

static void test_words(void **state) {
        static const char *const good[] = { "none",     "fast",     "fast:1",       "fast:80",
                                            "fast:100", "fast:1ms", "fast:60000ms", "max" };
        static const char *const bad[] = { "",       "Fast",  "fast:", "fast:x",  "fast:80%", "fast:-1",
                                           "max:10", " fast", "slow",  "fast:ms", "fast:20s", "fast:20msx" };
        policy_rule r = { .kind = POLICY_MAX, .users_share = 7 };
        char buf[32];

        (void)state;
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
                assert_int_equal(policy_rule_parse(POLICY_REBUILD, good[i], &r), 0);
                policy_rule_format(&r, buf, sizeof(buf));
                assert_string_equal(buf, good[i]);
        }
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:80", &r), 0);
        assert_int_equal(r.kind, POLICY_FAST);
        assert_int_equal(r.users_share, 80);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                assert_int_equal(policy_rule_parse(POLICY_REBUILD, bad[i], &r), -EINVAL);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:0", &r), -ERANGE);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:101", &r), -ERANGE);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:99999999999999999999", &r), -ERANGE);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:0ms", &r), -ERANGE);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:60001ms", &r), -ERANGE);
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, NULL, &r), -EINVAL);
        /* Refused, the output stays. */
        assert_int_equal(r.kind, POLICY_FAST);
        assert_int_equal(r.users_share, 80);
        /* A latency bound instead of a share. */
        assert_int_equal(policy_rule_parse(POLICY_REBUILD, "fast:25ms", &r), 0);
        assert_int_equal(r.users_latency_ms, 25);
        assert_int_equal(r.users_share, 0);
}

static void test_classes(void **state) {
        (void)state;
        assert_int_equal(policy_class_of(MD_SYNC_RESYNC), POLICY_REBUILD);
        assert_int_equal(policy_class_of(MD_SYNC_RECOVER), POLICY_REBUILD);
        assert_int_equal(policy_class_of(MD_SYNC_RESHAPE), POLICY_REBUILD);
        assert_int_equal(policy_class_of(MD_SYNC_CHECK), POLICY_CHECK);
        assert_int_equal(policy_class_of(MD_SYNC_REPAIR), POLICY_CHECK);
        assert_int_equal(policy_class_of(MD_SYNC_IDLE), -EINVAL);
        assert_int_equal(policy_class_of(MD_SYNC_FROZEN), -EINVAL);
        assert_int_equal(policy_class_of(_MD_SYNC_ACTION_INVALID), -EINVAL);
        assert_string_equal(policy_class_to_string(POLICY_CHECK), "check");
        assert_int_equal(policy_class_from_string("rebuild"), POLICY_REBUILD);
        assert_int_equal(policy_class_from_string("escalate"), POLICY_ESCALATE);
        assert_int_equal(policy_class_from_string("scrub"), -EINVAL);
        assert_int_equal(policy_class_from_string(NULL), -EINVAL);
        assert_null(policy_class_to_string(_POLICY_CLASS_MAX));
}

/* An array's own rule wins for its class only; the rest falls to the default. */
static void test_lookup(void **state) {
        policy_set s = {};
        policy_rule fast80 = { .kind = POLICY_FAST, .users_share = 80 }, max = { .kind = POLICY_MAX },
                    fast = { .kind = POLICY_FAST };
        bool own = true;

        (void)state;
        assert_int_equal(policy_lookup(&s, UUID1, POLICY_REBUILD, &own)->kind, POLICY_NONE);
        assert_false(own);
        assert_int_equal(policy_set_rule(&s, NULL, POLICY_REBUILD, &fast), 0);
        assert_int_equal(policy_set_rule(&s, UUID1, POLICY_REBUILD, &max), 0);
        assert_int_equal(policy_set_rule(&s, UUID1, POLICY_REBUILD, &fast80), 0); /* replaces */
        assert_int_equal(s.n, 1);
        assert_int_equal(policy_lookup(&s, UUID1, POLICY_REBUILD, &own)->users_share, 80);
        assert_true(own);
        assert_int_equal(policy_lookup(&s, UUID1, POLICY_CHECK, &own)->kind, POLICY_NONE);
        assert_false(own);
        assert_int_equal(policy_lookup(&s, UUID2, POLICY_REBUILD, &own)->kind, POLICY_FAST);
        assert_false(own);
        assert_int_equal(policy_lookup(&s, NULL, POLICY_REBUILD, NULL)->kind, POLICY_FAST);
        /* A bounded table: the next array is refused, nothing changes. */
        for (unsigned i = 1; i < POLICY_ARRAYS_MAX; i++) {
                char uuid[37];

                snprintf(uuid, sizeof(uuid), "%08x-0000-0000-0000-000000000000", i);
                assert_int_equal(policy_set_rule(&s, uuid, POLICY_CHECK, &max), 0);
        }
        assert_int_equal(policy_set_rule(&s, UUID2, POLICY_CHECK, &max), -ENOSPC);
        assert_int_equal(s.n, POLICY_ARRAYS_MAX);
        assert_int_equal(policy_lookup(&s, UUID2, POLICY_CHECK, NULL)->kind, POLICY_NONE);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_words),
                cmocka_unit_test(test_classes),
                cmocka_unit_test(test_lookup),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
