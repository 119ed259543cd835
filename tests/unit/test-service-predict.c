/* SPDX-License-Identifier: MIT */
/* When the running operation ends: the rates the tally keeps, and the predictions made from them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "predict.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"
#define UUID2 "11111111-2222-3333-4444-555555555555"
#define S(x) (UINT64_C(1000000) * (x))
#define DEFAULTS (&PROFILE_SETTINGS_DEFAULT)

/* The md device having moved @kibs KiB/s (in 4 KiB requests) for @dt s since @a, md's sync_speed @speed. */
static void advance(md_array *a, uint64_t dt, uint64_t kibs, uint64_t speed) {
        a->io_sectors.value += kibs * 2 * dt;
        a->io_requests.value += kibs / 4 * dt;
        a->sync_speed = (md_tval){ .kind = MD_V_NUMBER, .value = speed };
}

static md_array array(void) {
        md_array a = { .name = "md0", .uuid = UUID1 };

        a.io_sectors = (md_tval){ .kind = MD_V_NUMBER, .value = 0 };
        a.io_requests = (md_tval){ .kind = MD_V_NUMBER, .value = 0 };
        a.sync_speed = (md_tval){ .kind = MD_V_NUMBER, .value = 0 };
        a.tunables[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_SYSTEM, .value = 200000 };
        return a;
}

/* Users whose requests wait in flight, completing nothing, count as busy: held up, not gone. */
static void test_tally_waiting_users(void **state) {
        md_array a = array();
        op_tally t;
        uint64_t now = 100;

        (void)state;
        a.io_in_flight = (md_tval){ .kind = MD_V_NUMBER, .value = 32 };
        report_tally_start(&t, &a, S(now));
        for (int i = 0; i < 10; i++) {
                advance(&a, 1, 0, 30000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.users_busy_usec, S(10));
        a.io_in_flight.value = 0;
        for (int i = 0; i < 10; i++) {
                advance(&a, 1, 0, 30000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.users_busy_usec, S(10));
        assert_int_equal(t.sampled_usec, S(20));
}

/* The tally learns the rate with the disks to itself only after md's averaging span of quiet users. */
static void test_tally_whole_rate(void **state) {
        md_array a = array();
        op_tally t;
        uint64_t now = 100;

        (void)state;
        report_tally_start(&t, &a, S(now));
        /* Busy users (8 MiB/s): no whole rate. */
        for (int i = 0; i < 10; i++) {
                advance(&a, 1, 8192, 30000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.whole_kibs, 0);
        assert_int_equal(t.users_busy_usec, S(10));
        /* Quiet for 44 s: md's 30 s average still carries the busy time. */
        for (int i = 0; i < 44; i++) {
                advance(&a, 1, 0, 90000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.whole_kibs, 0);
        advance(&a, 1, 0, 120000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_int_equal(t.whole_kibs, 120000);
        assert_false(t.whole_capped);
        /* At md's ceiling, the rate is only what the ceiling allowed. */
        for (int i = 0; i < 5; i++) {
                advance(&a, 1, 0, 195000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.whole_kibs, 195000);
        assert_true(t.whole_capped);
        /* 8 KiB/s in 2 requests a second is housekeeping; 40 requests a second of 4 KiB are users, if few KiB. */
        advance(&a, 1, 8, 100000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_true(t.quiet_since_usec != 0);
        advance(&a, 1, 160, 100000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_int_equal(t.quiet_since_usec, 0);
        assert_int_equal(t.sampled_usec, S(now - 100));
}

/* Below its floor md applies no limit, as under max: after md's averaging span that is max's rate, users or not. */
static void test_tally_unbounded_rate(void **state) {
        md_array a = array();
        op_tally t;
        uint64_t now = 100;

        (void)state;
        a.tunables[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_LOCAL, .value = 50000 };
        report_tally_start(&t, &a, S(now));
        for (int i = 0; i < 29; i++) {
                advance(&a, 1, 8192, 20000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(t.whole_kibs, 0);
        advance(&a, 1, 8192, 21000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_int_equal(t.whole_kibs, 21000);
        assert_false(t.whole_capped);
        /* Above the floor md may yield again: the wait starts anew. */
        a.tunables[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_LOCAL, .value = 5000 };
        advance(&a, 1, 8192, 19000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_int_equal(t.unbounded_since_usec, 0);
        assert_int_equal(t.whole_kibs, 21000);
}

/* The governor's rate for busy users counts once md's average has followed its steering. */
static void test_tally_steered_rate(void **state) {
        tally_boost steering = { .profile = "fast", .steering = true, .target = "50%" }, free = { .profile = "fast" };
        md_array a = array();
        op_tally t;
        uint64_t now = 0;

        (void)state;
        report_tally_start(&t, &a, S(now));
        for (int i = 0; i < 45; i++) {
                advance(&a, 1, 8192, 50000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        }
        assert_int_equal(report_tally_steered_kibs(&t), 0);
        /* Known after md's averaging span of it. */
        for (int i = 0; i < 29; i++) {
                advance(&a, 1, 8192, 6000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        }
        assert_int_equal(report_tally_steered_kibs(&t), 0);
        advance(&a, 1, 8192, 6000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        assert_int_equal(report_tally_steered_kibs(&t), 6000);
        /* A second in which md's burst kept the users out is still steering. */
        advance(&a, 1, 0, 6000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        assert_int_equal(t.steered_usec, S(31));
        /* Not steering (users quiet, or the governor lifted): not counted, and the wait starts again. */
        advance(&a, 1, 8192, 90000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &free, false);
        advance(&a, 1, 8192, 8000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        assert_int_equal(report_tally_steered_kibs(&t), 6000);
        assert_string_equal(t.steered_target, "50%");
}

/*
 * Where the live position is known, the steered rate is what it moved over
 * the time steered: users busy for 30 s at a time never let md's 30-s
 * average follow the steering, and what the rebuild did while they were
 * quiet does not count.
 */
static void test_tally_steered_measured(void **state) {
        tally_boost steering = { .profile = "fast", .steering = true, .target = "50%", .position_known = true },
                    free = { .profile = "fast" };
        md_array a = array();
        op_tally t;
        uint64_t now = 0;

        (void)state;
        report_tally_start(&t, &a, S(now));
        for (int cycle = 0; cycle < 2; cycle++) {
                for (int i = 0; i < 30; i++) {
                        advance(&a, 1, 8192, 50000); /* md's average still carries the quiet half's rate */
                        steering.position_kib += 4000;
                        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
                }
                for (int i = 0; i < 30; i++) {
                        advance(&a, 1, 0, 50000);
                        steering.position_kib += 50000;
                        report_tally_sample(&t, DEFAULTS, &a, S(++now), &free, false);
                }
        }
        /* Each busy half's first sample only marks where it began. */
        assert_int_equal(t.steered_usec, S(58));
        assert_int_equal(report_tally_steered_kibs(&t), 4000);
        /* Position unknown (mdstat unreadable): md's average, once it has followed. */
        steering.position_known = false;
        for (int i = 0; i < 30; i++) {
                advance(&a, 1, 8192, 3000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        }
        assert_int_equal(t.steered_usec, S(58));
}

/*
 * The bursty user (busy 30 s, quiet 30 s) under the governor: steered at
 * 400 KiB/s while they are busy and 3 s into their quiet half, then held
 * nothing back (5500 KiB/s). The quiet rate is what the live position moved
 * in the samples with the users quiet and the governor holding nothing back:
 * not the steered ones, nor the busy sample in which the governor had not
 * yet seen them come back; known after md's averaging span of such samples.
 */
static void test_tally_lifted_rate(void **state) {
        tally_boost steering = { .profile = "fast", .steering = true, .target = "50%", .position_known = true },
                    lifted = { .profile = "fast", .lifted = true, .position_known = true };
        md_array a = array();
        op_tally t;
        uint64_t now = 0, pos = 0;

        (void)state;
        report_tally_start(&t, &a, S(now));
        for (int cycle = 0; cycle < 2; cycle++) {
                for (int i = 0; i < 33; i++) {
                        advance(&a, 1, i < 30 ? 8192 : 0, 3000);
                        steering.position_kib = pos += 400;
                        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
                }
                for (int i = 0; i < 27; i++) {
                        advance(&a, 1, 0, 3000);
                        lifted.position_kib = pos += 5500;
                        report_tally_sample(&t, DEFAULTS, &a, S(++now), &lifted, false);
                }
                /* Back, and not yet steered: busy, not counted. */
                advance(&a, 1, 8192, 3000);
                lifted.position_kib = pos += 5000;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &lifted, false);
                if (cycle == 0)
                        assert_int_equal(report_tally_lifted_kibs(&t), 0);
        }
        /* Each quiet spell's first sample only marks where it began. */
        assert_int_equal(t.lifted_usec, S(52));
        assert_int_equal(report_tally_lifted_kibs(&t), 5500);
        /* The prediction weighs it for the quiet share, where the whole rate read under the fit is less. */
        {
                prediction_input in;
                prediction p;

                t.whole_kibs = 3500;
                predict_input(&t, &(report_book){ 0 }, UUID1, "recover", "50%", &in);
                assert_int_equal(in.quiet_kibs, 5500);
                assert_true(in.busy_known);
                in.remaining_kib = 1000000;
                predict(&in, &p);
                assert_int_equal(p.max_kibs, 3500);
                assert_int_equal(p.governor_kibs, (report_tally_steered_recent_kibs(&t) * in.busy_permille +
                                                   5500 * (1000 - in.busy_permille)) /
                                                          1000);
        }
}

/*
 * Held to a low rate, md moves its position in jumps (a window of stripes
 * at once, then a sleep until its average is back under the limit): the
 * steered rate is the jumps over the whole time, whatever the samples or
 * the governor's steps between them.
 */
static void test_tally_steered_jumps(void **state) {
        tally_boost steering = { .profile = "fast", .steering = true, .target = "80%", .position_known = true };
        md_array a = array();
        op_tally t;
        uint64_t now = 0;

        (void)state;
        report_tally_start(&t, &a, S(now));
        steering.position_kib = 100000;
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        for (int i = 1; i <= 70; i++) {
                advance(&a, 1, 8192, 2500);
                if (i % 7 == 0)
                        steering.position_kib += 3000;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        }
        assert_int_equal(t.steered_usec, S(70));
        assert_int_equal(report_tally_steered_kibs(&t), 30000 / 70);
        /* A position that went back (a new operation's) is no progress. */
        steering.position_kib = 0;
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &steering, false);
        assert_int_equal(t.steered_usec, S(70));
}

/* A new target (a bound after a share) starts the steered rate afresh: the governor keeps another rate. */
static void test_tally_steered_target(void **state) {
        tally_boost share = { .profile = "fast", .steering = true, .target = "50%" },
                    bound = { .profile = "fast", .steering = true, .target = "50ms" };
        md_array a = array();
        op_tally t;
        uint64_t now = 0;

        (void)state;
        report_tally_start(&t, &a, S(now));
        for (int i = 0; i < 75; i++) {
                advance(&a, 1, 8192, 9000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &share, false);
        }
        assert_int_equal(report_tally_steered_kibs(&t), 9000);
        for (int i = 0; i < 44; i++) {
                advance(&a, 1, 8192, 2000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        /* Not yet settled under the bound: nothing known for it, and the share's rate is gone. */
        assert_int_equal(report_tally_steered_kibs(&t), 0);
        assert_string_equal(t.steered_target, "50ms");
        for (int i = 0; i < 31; i++) {
                advance(&a, 1, 8192, 2000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        assert_int_equal(report_tally_steered_kibs(&t), 2000);
}

/*
 * A latency bound: the governor starts at the boost's 3000 KiB/s and has
 * come down to 700 within 100 s. The report keeps the mean since it began;
 * the prediction takes the rate of the last half-minute, which is near what
 * the rebuild goes on at, where the mean (2137) stays more than twice it.
 */
static void test_tally_steered_recent(void **state) {
        tally_boost bound = { .profile = "fast", .steering = true, .target = "50ms", .position_known = true };
        md_array a = array();
        op_tally t;
        uint64_t now = 0, recent;
        prediction_input in;

        (void)state;
        report_tally_start(&t, &a, S(now));
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        for (int i = 0; i < 20; i++) {
                advance(&a, 1, 8192, 3000);
                bound.position_kib += 3000;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        /* Not known before md's averaging span of steering, as the mean. */
        assert_int_equal(report_tally_steered_kibs(&t), 0);
        assert_int_equal(report_tally_steered_recent_kibs(&t), 0);
        for (int i = 0; i < 80; i++) {
                advance(&a, 1, 8192, 3000);
                bound.position_kib += 3000;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        assert_int_equal(report_tally_steered_recent_kibs(&t), 3000);
        for (int i = 0; i < 60; i++) {
                advance(&a, 1, 8192, 700);
                bound.position_kib += 700;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        assert_int_equal(report_tally_steered_kibs(&t), (100 * 3000 + 60 * 700) / 160);
        recent = report_tally_steered_recent_kibs(&t);
        assert_in_range(recent, 700, 700 + 2300 / 5);
        predict_input(&t, &(report_book){ 0 }, UUID1, "recover", "50ms", &in);
        assert_int_equal(in.steered_kibs, recent);
        /* Back at 3000 for a minute, the prediction follows. */
        for (int i = 0; i < 60; i++) {
                advance(&a, 1, 8192, 3000);
                bound.position_kib += 3000;
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        }
        assert_in_range(report_tally_steered_recent_kibs(&t), 3000 - 2300 / 5, 3000);
        /* A new target forgets it with the mean. */
        bound.target = "100ms";
        advance(&a, 1, 8192, 700);
        bound.position_kib += 700;
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &bound, false);
        assert_int_equal(report_tally_steered_recent_kibs(&t), 0);
}

/* What the rebuild ran at before the boost: the last sample without one, kept while the boost lasts. */
static void test_tally_before_boost(void **state) {
        tally_boost fast = { .profile = "fast" };
        md_array a = array();
        op_tally t;

        (void)state;
        report_tally_start(&t, &a, S(0));
        advance(&a, 1, 0, 2000);
        report_tally_sample(&t, DEFAULTS, &a, S(1), NULL, false);
        assert_int_equal(t.before_boost_kibs, 0);
        advance(&a, 1, 0, 2100);
        report_tally_sample(&t, DEFAULTS, &a, S(2), NULL, false);
        advance(&a, 1, 0, 9000);
        report_tally_sample(&t, DEFAULTS, &a, S(3), &fast, false);
        assert_int_equal(t.before_boost_kibs, 2100);
        advance(&a, 1, 0, 24000);
        report_tally_sample(&t, DEFAULTS, &a, S(4), &fast, false);
        assert_int_equal(t.before_boost_kibs, 2100);
        /* Restored: none until the next boost, which starts from the rate then. */
        advance(&a, 1, 0, 5000);
        report_tally_sample(&t, DEFAULTS, &a, S(5), NULL, false);
        assert_int_equal(t.before_boost_kibs, 0);
        report_tally_sample(&t, DEFAULTS, &a, S(6), &fast, false);
        assert_int_equal(t.before_boost_kibs, 5000);
}

/* What the boost costs the users: their rate while busy under it, against the stretch without one before it. */
static void test_tally_users_under_boost(void **state) {
        tally_boost fast = { .profile = "fast" };
        md_array a = array();
        uint64_t now = 0;
        op_tally t;

        (void)state;
        report_tally_start(&t, &a, S(0));
        /* 20 s of users at 40 MiB/s, then 10 s quiet, without a boost. */
        for (int i = 0; i < 30; i++) {
                advance(&a, 1, i < 20 ? 40960 : 0, 2000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        }
        assert_int_equal(report_users_busy_kibs(&t.users_unboosted), 40960);
        assert_int_equal(report_users_busy_permille(&t.users_unboosted), 666);
        assert_int_equal(report_users_busy_kibs(&t.users_before), 0);
        /* The boost came at the end of a second the users read 40 MiB/s in: that second was before it. */
        advance(&a, 1, 40960, 2000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), &fast, false);
        assert_int_equal(t.users_before.sampled_usec, S(31));
        assert_int_equal(t.users_boosted.sampled_usec, 0);
        /* Boosted: 5 s busy is not enough to say; 30 s at 10 MiB/s is. */
        for (int i = 0; i < 5; i++) {
                advance(&a, 1, 10240, 30000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &fast, false);
        }
        assert_int_equal(report_users_busy_kibs(&t.users_boosted), 0);
        assert_int_equal(report_users_busy_kibs(&t.users_before), 40960);
        for (int i = 0; i < 25; i++) {
                advance(&a, 1, 10240, 30000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), &fast, false);
        }
        assert_int_equal(report_users_busy_kibs(&t.users_boosted), 10240);
        assert_int_equal(report_users_busy_permille(&t.users_boosted), 1000);
        assert_int_equal(report_users_busy_kibs(&t.users_before), 40960);
        assert_int_equal(report_users_busy_permille(&t.users_before), 677);
        /* Restored: nothing before or under a boost; the second that ended the boost is dropped with it. */
        advance(&a, 1, 20480, 2000);
        report_tally_sample(&t, DEFAULTS, &a, S(++now), NULL, false);
        assert_int_equal(t.users_before.sampled_usec, 0);
        assert_int_equal(t.users_boosted.sampled_usec, 0);
        assert_int_equal(t.users_unboosted.sampled_usec, 0);
        /* The next boost compares against the stretch since then only. */
        for (int i = 0; i < 11; i++) {
                advance(&a, 1, 20480, 2000);
                report_tally_sample(&t, DEFAULTS, &a, S(++now), i < 10 ? NULL : &fast, false);
        }
        assert_int_equal(report_users_busy_kibs(&t.users_before), 20480);
        assert_int_equal(t.users_before.sampled_usec, S(11));
        /* The whole operation's figures are not split. */
        assert_int_equal(t.users_busy_usec, S(20 + 1 + 30 + 1 + 11));
}

static void test_predict(void **state) {
        prediction p;

        (void)state;
        /* 100 GiB left at 10 MiB/s now; 100 MiB/s with the disks to itself; busy a quarter of the time at 20 MiB/s. */
        predict(&(prediction_input){ .remaining_kib = 100 * 1048576,
                                     .now_kibs = 10240,
                                     .whole_kibs = 102400,
                                     .steered_kibs = 20480,
                                     .busy_permille = 250,
                                     .busy_known = true },
                &p);
        assert_int_equal(p.now_s, 10240);
        assert_int_equal(p.max_s, 1024);
        assert_int_equal(p.max_kibs, 102400);
        assert_int_equal(p.governor_kibs, (20480 * 250 + 102400 * 750) / 1000);
        assert_int_equal(p.governor_s, (100 * 1048576 + p.governor_kibs - 1) / p.governor_kibs);
        assert_false(p.max_at_most);
        /* A quiet rate of its own stands for the quiet share instead of the whole rate; max keeps the whole. */
        predict(&(prediction_input){ .remaining_kib = 100 * 1048576,
                                     .whole_kibs = 102400,
                                     .quiet_kibs = 81920,
                                     .steered_kibs = 20480,
                                     .busy_permille = 250,
                                     .busy_known = true },
                &p);
        assert_int_equal(p.governor_kibs, (20480 * 250 + 81920 * 750) / 1000);
        assert_int_equal(p.max_kibs, 102400);
        /* Users never busy: the governor gives the rebuild the whole disks, as max does. */
        predict(&(prediction_input){ .remaining_kib = 1000, .whole_kibs = 100, .busy_known = true }, &p);
        assert_int_equal(p.governor_s, 10);
        assert_int_equal(p.max_s, 10);
        assert_int_equal(p.now_s, 0); /* md showed no rate: unknown */
        /* Busy users, and the governor never steered them: its time is unknown. */
        predict(
                &(prediction_input){
                        .remaining_kib = 1000, .whole_kibs = 100, .busy_permille = 500, .busy_known = true },
                &p);
        assert_int_equal(p.governor_s, 0);
        assert_int_equal(p.max_s, 10);
        /* Not watched long enough to know how busy they are; no whole rate: only the rate now. */
        predict(&(prediction_input){ .remaining_kib = 1001, .now_kibs = 100, .steered_kibs = 50 }, &p);
        assert_int_equal(p.now_s, 11);
        assert_int_equal(p.governor_s, 0);
        assert_int_equal(p.max_s, 0);
        /* A whole rate read at the ceiling: max may do better. */
        predict(&(prediction_input){ .remaining_kib = 1000, .whole_kibs = 100, .whole_capped = true }, &p);
        assert_true(p.max_at_most);
}

/* Where the operation does not know yet, the newest report of the same kind on the same array does. */
static void test_inputs_from_reports(void **state) {
        op_report reports[3] = {
                { .uuid = UUID1,
                  .action = "recover",
                  .whole_kibs = 90000,
                  .steered_kibs = 7000,
                  .steered_target = "50%",
                  .started_usec = S(0),
                  .ended_usec = S(600),
                  .users_busy_usec = S(300) },
                { .uuid = UUID1, .action = "check", .whole_kibs = 150000, .started_usec = S(0), .ended_usec = S(600) },
                { .uuid = UUID2,
                  .action = "recover",
                  .whole_kibs = 50000,
                  .steered_kibs = 3000,
                  .steered_target = "50%",
                  .started_usec = S(0),
                  .ended_usec = S(600) },
        };
        report_book b = { .reports = reports, .n = 3, .cap = 3 };
        md_array a = array();
        prediction_input in;
        op_tally t;

        (void)state;
        report_tally_start(&t, &a, S(0));
        predict_input(&t, &b, UUID1, "recover", "50%", &in);
        assert_int_equal(in.whole_kibs, 90000);
        assert_int_equal(in.steered_kibs, 7000);
        assert_true(in.busy_known);
        assert_int_equal(in.busy_permille, 500);
        predict_input(&t, &b, UUID1, "check", "50%", &in);
        assert_int_equal(in.whole_kibs, 150000);
        assert_int_equal(in.steered_kibs, 0);
        assert_int_equal(in.busy_permille, 0);
        predict_input(&t, &b, UUID1, "resync", "50%", &in);
        assert_int_equal(in.whole_kibs, 0);
        assert_false(in.busy_known);
        /* The operation's own, once known, comes first. */
        t.whole_kibs = 120000;
        t.sampled_usec = S(120);
        t.users_busy_usec = S(30);
        predict_input(&t, &b, UUID1, "recover", "50%", &in);
        assert_int_equal(in.whole_kibs, 120000);
        assert_int_equal(in.busy_permille, 250);
        assert_int_equal(in.steered_kibs, 7000);
        /* A governor kept to another target: its rate says nothing of this one. */
        predict_input(&t, &b, UUID1, "recover", "50ms", &in);
        assert_int_equal(in.steered_kibs, 0);
        assert_int_equal(in.whole_kibs, 120000);
        /* The operation's own steering counts only under the same target. */
        snprintf(t.steered_target, sizeof(t.steered_target), "50ms");
        t.steered_kib = 3000 * 30;
        t.steered_usec = S(30);
        t.steered_recent_kib = 3000 * 30;
        t.steered_recent_usec = S(30);
        predict_input(&t, &b, UUID1, "recover", "50ms", &in);
        assert_int_equal(in.steered_kibs, 3000);
        predict_input(&t, &b, UUID1, "recover", "50%", &in);
        assert_int_equal(in.steered_kibs, 7000);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                /* What the tally keeps */
                cmocka_unit_test(test_tally_whole_rate),
                cmocka_unit_test(test_tally_unbounded_rate),
                cmocka_unit_test(test_tally_waiting_users),
                cmocka_unit_test(test_tally_steered_rate),
                cmocka_unit_test(test_tally_steered_measured),
                cmocka_unit_test(test_tally_steered_jumps),
                cmocka_unit_test(test_tally_lifted_rate),
                cmocka_unit_test(test_tally_steered_target),
                cmocka_unit_test(test_tally_steered_recent),
                cmocka_unit_test(test_tally_before_boost),
                cmocka_unit_test(test_tally_users_under_boost),
                /* What the predictions make of it */
                cmocka_unit_test(test_predict),
                cmocka_unit_test(test_inputs_from_reports),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
