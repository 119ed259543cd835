/* SPDX-License-Identifier: MIT */
/* The configuration file and MemTotal, the two inputs of the memory budget. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "meminfo.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"

static void test_defaults_and_keys(void **state) {
        config c = CONFIG_DEFAULT;
        char err[256] = "";

        (void)state;
        assert_int_equal(c.profiles.fast_floor, 50000);
        assert_int_equal(c.profiles.budget_percent, 12);
        assert_int_equal(c.profiles.fit_percent, 80);
        assert_int_equal(c.profiles.fit_after_ms, 30000);
        assert_int_equal(c.profiles.hold_ceiling, 1);
        assert_int_equal(c.profiles.quiet_ms, 3000);
        assert_int_equal(c.profiles.users_share, 50);
        assert_int_equal(c.profiles.users_latency_ms, 0);
        assert_int_equal(c.profiles.learn_ms, 10000);
        assert_int_equal(c.profiles.relearn_ms, 300000);
        assert_int_equal(c.profiles.step_ms, 5000);
        assert_int_equal(c.profiles.busy_kibs, 1024);
        assert_int_equal(c.profiles.busy_iops, 8);
        assert_int_equal(config_parse("# comment\n\n  memory_budget_percent = 25  \n"
                                      "fast_sync_speed_min=80000\npoll_idle_ms = 10000\n"
                                      "fast_floor_fit_percent = 0\nfast_floor_fit_after_ms = 2000\n"
                                      "fast_ceiling_hold = 0\nfast_ceiling_quiet_ms = 5000\nfast_users_share = 70\n"
                                      "fast_users_latency_ms = 40\n"
                                      "fast_governor_learn_ms = 2000\nfast_governor_relearn_ms = 60000\n"
                                      "fast_governor_step_ms = 1000\n"
                                      "users_busy_kibs = 102\nusers_busy_iops = 1\n",
                                      &c, err, sizeof(err)),
                         0);
        assert_int_equal(c.profiles.budget_percent, 25);
        assert_int_equal(c.profiles.fast_floor, 80000);
        assert_int_equal(c.poll_idle_ms, 10000);
        assert_int_equal(c.poll_active_ms, 1000);
        assert_int_equal(c.profiles.fit_percent, 0);
        assert_int_equal(c.profiles.fit_after_ms, 2000);
        assert_int_equal(c.profiles.hold_ceiling, 0);
        assert_int_equal(c.profiles.quiet_ms, 5000);
        assert_int_equal(c.profiles.users_share, 70);
        assert_int_equal(c.profiles.users_latency_ms, 40);
        assert_int_equal(c.profiles.learn_ms, 2000);
        assert_int_equal(c.profiles.relearn_ms, 60000);
        assert_int_equal(c.profiles.step_ms, 1000);
        assert_int_equal(c.profiles.busy_kibs, 102);
        assert_int_equal(c.profiles.busy_iops, 1);
}

static void test_refused(void **state) {
        static const char *const bad[] = {
                "memory_budget_percent = 91\n",
                "memory_budget_percent = -1\n",
                "poll_idle_ms = 5s\n",
                "fast_stripe_cache_size = 16\n",
                "no_such_key = 1\n",
                "just words\n",
                "fast_sync_speed_min = 99999999999999999999999\n",
                "fast_floor_fit_percent = 101\n",
                "fast_floor_fit_after_ms = 999\n",
                "fast_ceiling_hold = 2\n",
                "fast_ceiling_quiet_ms = 999\n",
                "fast_users_share = 0\n",
                "fast_users_share = 101\n",
                "fast_users_latency_ms = 60001\n",
                "fast_governor_learn_ms = 999\n",
                "fast_governor_relearn_ms = 9999\n",
                "fast_governor_step_ms = 600001\n",
                "users_busy_kibs = 0\n",
                "users_busy_iops = 0\n",
                "users_busy_iops = 1000001\n",
                "poll_notified_ms = 0\n",
                "poll_notified_ms = 86400001\n",
                "event_command = on-event\n",
                "event_command_timeout_ms = 999\n",
        };
        config c = CONFIG_DEFAULT;
        char err[256];

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                err[0] = 0;
                assert_true(config_parse(bad[i], &c, err, sizeof(err)) < 0);
                assert_non_null(strstr(err, "line 1"));
        }
        /* A bad line later in the file leaves every earlier value unapplied too. */
        assert_true(config_parse("memory_budget_percent = 30\nbogus\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "line 2"));
        assert_int_equal(c.profiles.budget_percent, 12);
}

/* Policy keys: the default for every array, an array's own by UUID, refused words with their line. */
/* The new keys' accepted values; an empty event_command turns it off again. */
static void test_wakeup_and_event_keys(void **state) {
        config c = CONFIG_DEFAULT;
        char err[256] = "";

        (void)state;
        assert_int_equal(c.poll_notified_ms, 600000);
        assert_int_equal(c.event_command_timeout_ms, 60000);
        assert_string_equal(c.event_command, "");
        assert_int_equal(config_parse("poll_notified_ms = 1000\nevent_command = /usr/local/sbin/on-event\n"
                                      "event_command_timeout_ms = 5000\n",
                                      &c, err, sizeof(err)),
                         0);
        assert_int_equal(c.poll_notified_ms, 1000);
        assert_string_equal(c.event_command, "/usr/local/sbin/on-event");
        assert_int_equal(c.event_command_timeout_ms, 5000);
        assert_int_equal(config_parse("event_command =\n", &c, err, sizeof(err)), 0);
        assert_string_equal(c.event_command, "");
}

static void test_policies(void **state) {
        config c = CONFIG_DEFAULT;
        char err[256] = "";
        bool own;

        (void)state;
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_REBUILD, NULL)->kind, POLICY_NONE);
        /* Shipped: nothing by itself; a rebuild the policy boosts escalates to max without redundancy. */
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_CHECK, NULL)->kind, POLICY_NONE);
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_ESCALATE, NULL)->kind, POLICY_MAX);
        assert_int_equal(config_parse("policy_escalate." UUID1 " = none\n", &c, err, sizeof(err)), 0);
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_ESCALATE, &own)->kind, POLICY_NONE);
        assert_true(own);
        assert_int_equal(config_parse("policy_rebuild = fast\npolicy_check = max\n"
                                      "policy_rebuild." UUID1 " = fast:80\n",
                                      &c, err, sizeof(err)),
                         0);
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_REBUILD, &own)->users_share, 80);
        assert_true(own);
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_CHECK, &own)->kind, POLICY_MAX);
        assert_false(own);
        assert_int_equal(policy_lookup(&c.policies, "11111111-2222-3333-4444-555555555555", POLICY_REBUILD, NULL)->kind,
                         POLICY_FAST);
        /* Upper-case digits name the same array. */
        assert_int_equal(
                config_parse("policy_check.7AC7B4D7-C925-6F89-525E-4CAECAB28AEC = none\n", &c, err, sizeof(err)), 0);
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_CHECK, &own)->kind, POLICY_NONE);
        assert_true(own);
        assert_true(config_parse("\npolicy_rebuild = turbo\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "line 2: policy_rebuild must be none, fast, fast:N"));
        assert_true(config_parse("policy_check.md0 = max\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "line 1: 'md0' does not name an array by its UUID"));
        assert_true(config_parse("policy_scrub = max\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "unknown key 'policy_scrub'"));
        /* A refused file leaves every policy as it was. */
        assert_true(config_parse("policy_rebuild = none\npolicy_rebuild = fast:0\n", &c, err, sizeof(err)) < 0);
        assert_int_equal(policy_lookup(&c.policies, NULL, POLICY_REBUILD, NULL)->kind, POLICY_FAST);
}

/* Check windows: "any" by default, windows for every array or one, a clear error for bad words. */
static void test_check_window(void **state) {
        config c = CONFIG_DEFAULT;
        char err[256] = "", words[POLICY_RULE_TEXT_MAX];
        const policy_rule *r;
        bool own;

        (void)state;
        r = policy_lookup(&c.policies, UUID1, POLICY_CHECK_WINDOW, &own);
        policy_rule_format(r, words, sizeof(words));
        assert_string_equal(words, "any");
        assert_false(own);
        assert_int_equal(config_parse("policy_check_window = Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00\n"
                                      "policy_check_window." UUID1 " = 22:00-05:00\n",
                                      &c, err, sizeof(err)),
                         0);
        r = policy_lookup(&c.policies, NULL, POLICY_CHECK_WINDOW, NULL);
        assert_int_equal(r->windows.n, 2);
        policy_rule_format(r, words, sizeof(words));
        assert_string_equal(words, "Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00");
        r = policy_lookup(&c.policies, UUID1, POLICY_CHECK_WINDOW, &own);
        assert_true(own);
        assert_true(check_windows_open(&r->windows, 3, 23 * 60));
        assert_false(check_windows_open(&r->windows, 3, 12 * 60));
        assert_true(config_parse("\npolicy_check_window = 1:00-6:00\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "line 2: policy_check_window must be any, or windows such as"));
        /* A boost's words are no window, nor a window a boost's rule. */
        assert_true(config_parse("policy_check_window = fast\n", &c, err, sizeof(err)) < 0);
        assert_true(config_parse("policy_check = 01:00-06:00\n", &c, err, sizeof(err)) < 0);
        r = policy_lookup(&c.policies, NULL, POLICY_CHECK_WINDOW, NULL);
        assert_int_equal(r->windows.n, 2);
        /* check_busy: run by default, pause on request. */
        assert_int_equal(policy_lookup(&c.policies, UUID1, POLICY_CHECK_BUSY, NULL)->kind, POLICY_RUN);
        assert_int_equal(config_parse("policy_check_busy." UUID1 " = pause\n", &c, err, sizeof(err)), 0);
        r = policy_lookup(&c.policies, UUID1, POLICY_CHECK_BUSY, &own);
        policy_rule_format(r, words, sizeof(words));
        assert_string_equal(words, "pause");
        assert_true(own);
        assert_true(config_parse("policy_check_busy = sometimes\n", &c, err, sizeof(err)) < 0);
        assert_non_null(strstr(err, "line 1: policy_check_busy must be run or pause"));
}

static void test_meminfo(void **state) {
        static const char text[] = "MemTotal:        4030112 kB\nMemFree:          123456 kB\n";
        static const char later[] = "Foo: 1 kB\nMemTotal: 2048 kB\n";
        uint64_t v = 17;

        (void)state;
        assert_int_equal(meminfo_parse_total(text, strlen(text), &v), 0);
        assert_int_equal(v, 4030112ull * 1024);
        assert_int_equal(meminfo_parse_total(later, strlen(later), &v), 0);
        assert_int_equal(v, 2048 * 1024);
        v = 17;
        assert_int_equal(meminfo_parse_total("MemFree: 1 kB\n", 14, &v), -ENOENT);
        assert_int_equal(meminfo_parse_total("MemTotal: 1 MB\n", 15, &v), -EINVAL);
        assert_int_equal(meminfo_parse_total("MemTotal: x kB\n", 15, &v), -EINVAL);
        assert_int_equal(v, 17);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_defaults_and_keys),     cmocka_unit_test(test_refused),
                cmocka_unit_test(test_wakeup_and_event_keys), cmocka_unit_test(test_policies),
                cmocka_unit_test(test_check_window),          cmocka_unit_test(test_meminfo),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
