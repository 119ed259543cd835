/* SPDX-License-Identifier: MIT */
/* The reports of ended operations: the tally, the summary, the book and its JSON. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"
#define UUID2 "11111111-2222-3333-4444-555555555555"
#define S(x) (UINT64_C(1000000) * (x))
#define DEFAULTS (&PROFILE_SETTINGS_DEFAULT)

static md_member members[3];

static md_array array_at(uint64_t io_sectors, uint64_t speed) {
        md_array a = { .name = "md0", .uuid = UUID1, .members = members, .n_members = 3 };

        a.io_sectors = (md_tval){ .kind = MD_V_NUMBER, .value = io_sectors };
        a.sync_speed = (md_tval){ .kind = MD_V_NUMBER, .value = speed };
        return a;
}

static void test_tally(void **state) {
        tally_boost fast = { .profile = "fast", .policy = "rebuild", .users_alone_kibs = 8192 };
        op_tally t;
        md_array a;

        (void)state;
        memset(members, 0, sizeof(members));
        snprintf(members[0].name, sizeof(members[0].name), "vdb");
        snprintf(members[1].name, sizeof(members[1].name), "vdc");
        snprintf(members[2].name, sizeof(members[2].name), "vdd");
        members[2].role = MD_ROLE_REBUILDING;

        a = array_at(1000, 5000);
        report_tally_start(&t, &a, S(100));
        assert_string_equal(t.onto, "vdd");
        /* 10 s of users at 4 MiB/s, boosted, no redundancy. */
        a = array_at(1000 + 10 * 4096 * 2, 30000);
        report_tally_sample(&t, DEFAULTS, &a, S(110), &fast, true);
        assert_int_equal(t.users_kib, 40960);
        assert_int_equal(t.users_busy_usec, S(10));
        assert_int_equal(t.boosted_usec, S(10));
        assert_int_equal(t.exposed_usec, S(10));
        assert_int_equal(t.peak_kibs, 30000);
        assert_string_equal(t.boost, "fast");
        assert_string_equal(t.policy, "rebuild");
        assert_int_equal(t.users_alone_kibs, 8192);
        /* 10 s of idle users (under 1 MiB/s), no boost: not busy, not boosted. */
        a = array_at(1000 + 10 * 4096 * 2 + 100, 20000);
        report_tally_sample(&t, DEFAULTS, &a, S(120), NULL, false);
        assert_int_equal(t.users_kib, 40960 + 50);
        assert_int_equal(t.users_busy_usec, S(10));
        assert_int_equal(t.boosted_usec, S(10));
        assert_int_equal(t.exposed_usec, S(10));
        assert_int_equal(t.peak_kibs, 30000);
        /* The counter starting again (the array assembled anew) adds nothing. */
        a = array_at(10, 20000);
        report_tally_sample(&t, DEFAULTS, &a, S(130), NULL, false);
        assert_int_equal(t.users_kib, 40960 + 50);
        /* A gap of an hour (the service was stopped) counts as a minute at most. */
        report_tally_sample(&t, DEFAULTS, &a, S(130 + 3600), &fast, false);
        assert_int_equal(t.boosted_usec, S(10 + 60));
}

static op_report sample_report(void) {
        op_report r = { .uuid = UUID1,
                        .array = "md0",
                        .action = "recover",
                        .outcome = "finished",
                        .onto = "sdd",
                        .started_usec = S(1000),
                        .ended_usec = S(1000 + 3 * 3600 + 12 * 60),
                        .progress = 100,
                        .kib = (uint64_t)41 * 1024 * (3 * 3600 + 12 * 60),
                        .peak_kibs = 60000,
                        .boost = "fast",
                        .policy = "",
                        .boosted_usec = S(2 * 3600 + 58 * 60),
                        .exposed_usec = S(3 * 3600 + 12 * 60),
                        .users_kib = 61ull * 100 * 3600,
                        .users_busy_usec = S(3600),
                        .users_alone_kibs = 10000,
                        .whole_kibs = 90000,
                        .steered_kibs = 7000,
                        .steered_target = "50%",
                        .restored = "automatically" };
        return r;
}

static void test_summary(void **state) {
        op_report r = sample_report();
        char buf[512];

        (void)state;
        assert_int_equal(report_duration_s(&r), 3 * 3600 + 12 * 60);
        assert_int_equal(report_average_kibs(&r), 41 * 1024);
        assert_int_equal(report_users_kibs(&r), 6100);
        assert_int_equal(report_users_kept_percent(&r), 61);
        report_summary(&r, buf, sizeof(buf));
        assert_string_equal(buf, "recover finished onto sdd in 3 h 12 min at 41.0 MiB/s; boosted with fast for 2 h 58 "
                                 "min; users kept 61 %; 3 h 12 min without redundancy");

        r.outcome[0] = 0;
        snprintf(r.outcome, sizeof(r.outcome), "interrupted");
        r.progress = 40.5;
        r.boost[0] = 0;
        r.users_alone_kibs = 0;
        r.exposed_usec = 0;
        r.onto[0] = 0;
        report_summary(&r, buf, sizeof(buf));
        assert_string_equal(buf,
                            "recover was interrupted in 3 h 12 min at 41.0 MiB/s (40.5 % done); not boosted; users "
                            "got 6.0 MiB/s");
        r.users_busy_usec = 0;
        assert_int_equal(report_users_kept_percent(&r), -1);
        /* A short buffer is cut, never overrun. */
        report_summary(&r, buf, 12);
        assert_int_equal(strlen(buf), 11);
}

static void test_book_keeps_five_per_array(void **state) {
        report_book b = {};
        op_report r = sample_report();

        (void)state;
        for (unsigned i = 0; i < REPORT_KEEP + 2; i++) {
                r.started_usec = S(i);
                assert_int_equal(report_book_add(&b, &r), 0);
        }
        snprintf(r.uuid, sizeof(r.uuid), UUID2);
        assert_int_equal(report_book_add(&b, &r), 0);
        assert_int_equal(b.n, REPORT_KEEP + 1);
        /* The oldest two of UUID1 went; the rest keep their order. */
        assert_int_equal(b.reports[0].started_usec, S(2));
        assert_int_equal(b.reports[REPORT_KEEP - 1].started_usec, S(REPORT_KEEP + 1));
        assert_string_equal(b.reports[REPORT_KEEP].uuid, UUID2);
        report_book_free(&b);
}

static void test_json_round_trip(void **state) {
        report_book b = {}, back = {};
        op_report r = sample_report();
        json_object *o, *bad;
        unsigned skipped = 7;

        (void)state;
        assert_int_equal(report_book_add(&b, &r), 0);
        o = report_book_to_json(&b);
        assert_non_null(o);
        assert_int_equal(report_book_from_json(o, &back, &skipped), 0);
        assert_int_equal(skipped, 0);
        assert_int_equal(back.n, 1);
        assert_memory_equal(&back.reports[0], &b.reports[0], sizeof(op_report));
        report_book_free(&back);

        /* An entry with a bad field is left out, the others kept. */
        bad = json_tokener_parse("{\"uuid\": \"x\"}");
        json_object_array_add(json_object_object_get(o, "reports"), bad);
        assert_int_equal(report_book_from_json(o, &back, &skipped), 0);
        assert_int_equal(skipped, 1);
        assert_int_equal(back.n, 1);
        report_book_free(&back);
        json_object_put(o);

        /* Not a report file at all. */
        o = json_tokener_parse("[1, 2]");
        assert_int_equal(report_book_from_json(o, &back, &skipped), -EINVAL);
        json_object_put(o);
        report_book_free(&b);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_tally),
                cmocka_unit_test(test_summary),
                cmocka_unit_test(test_book_keeps_five_per_array),
                cmocka_unit_test(test_json_round_trip),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
