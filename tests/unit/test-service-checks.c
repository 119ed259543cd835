/* SPDX-License-Identifier: MIT */
/* Checks that wait: their records on file, and what is done for each state an array is in. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "checks.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"
#define UUID2 "11111111-2222-3333-4444-555555555555"

static void test_book(void **state) {
        check_book b = {}, back;
        check_record r = { .uuid = UUID1,
                           .action = MD_SYNC_CHECK,
                           .why = CHECK_WHY_WINDOW,
                           .position = 1024,
                           .total = 520192,
                           .mismatches = 7,
                           .paused_usec = 1764633600000000 };
        check_record s = { .uuid = UUID2, .action = MD_SYNC_REPAIR, .why = CHECK_WHY_NONE, .position = 5 };
        static const char *const bad[] = {
                "nonsense\n",
                UUID1 " check window 1024 520192 7\n",
                UUID1 " resync window 1024 520192 7 0\n",
                UUID1 " check sleepy 1024 520192 7 0\n",
                UUID1 " check window -1 520192 7 0\n",
                UUID1 " check window 1024 520192 7 0 extra\n",
                "md0 check window 1024 520192 7 0\n",
        };
        char text[1024];
        unsigned line = 0;

        (void)state;
        assert_int_equal(check_book_put(&b, &r), 0);
        assert_int_equal(check_book_put(&b, &s), 0);
        r.position = 2048;
        assert_int_equal(check_book_put(&b, &r), 0); /* replaces */
        assert_int_equal(b.n, 2);
        assert_int_equal(check_book_format(&b, text, sizeof(text)), 0);
        assert_string_equal(text,
                            UUID1 " check window 2048 520192 7 1764633600000000\n" UUID2 " repair running 5 0 0 0\n");
        assert_int_equal(check_book_parse(text, &back, &line), 0);
        assert_int_equal(back.n, 2);
        for (unsigned i = 0; i < 2; i++) {
                assert_string_equal(back.records[i].uuid, b.records[i].uuid);
                assert_int_equal(back.records[i].action, b.records[i].action);
                assert_int_equal(back.records[i].why, b.records[i].why);
                assert_int_equal(back.records[i].position, b.records[i].position);
                assert_int_equal(back.records[i].total, b.records[i].total);
                assert_int_equal(back.records[i].mismatches, b.records[i].mismatches);
                assert_int_equal(back.records[i].paused_usec, b.records[i].paused_usec);
        }
        assert_int_equal(check_book_format(&b, text, 20), -ENOBUFS);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                back.n = 9;
                assert_int_equal(check_book_parse(bad[i], &back, &line), -EINVAL);
                assert_int_equal(line, 1);
                assert_int_equal(back.n, 9); /* refused: unchanged */
        }
        assert_int_equal(check_book_parse("# comment\n\n" UUID1 " check degraded 0 8 0 0\nbad\n", &back, &line),
                         -EINVAL);
        assert_int_equal(line, 4);
        /* Earlier runs' mismatches count for a run that went on from their position, not for one started afresh. */
        assert_int_equal(check_earlier_mismatches(&r, 2048), 7);
        assert_int_equal(check_earlier_mismatches(&r, 9000), 7);
        assert_int_equal(check_earlier_mismatches(&r, 2047), 0);
        assert_int_equal(check_earlier_mismatches(NULL, 9000), 0);
        check_book_remove(&b, UUID1);
        assert_int_equal(b.n, 1);
        assert_null(check_book_find(&b, UUID1));
        assert_non_null(check_book_find(&b, UUID2));
}

static check_step decide(md_sync_action action, int64_t degraded, bool windowed, bool open, const check_record *r,
                         check_why *why) {
        check_view v = { .action = action,
                         .degraded = degraded,
                         .windowed = windowed,
                         .window_open = open,
                         .repair_pauses = true,
                         .have_record = r != NULL,
                         .record = r };

        return check_decide(&v, why);
}

static void test_decide(void **state) {
        check_record paused = { .uuid = UUID1, .action = MD_SYNC_CHECK, .why = CHECK_WHY_WINDOW, .position = 100 };
        check_record running = paused;
        check_view v;
        check_why why;

        (void)state;
        running.why = CHECK_WHY_NONE;
        /* No window and whole: md's own check is left alone. */
        assert_int_equal(decide(MD_SYNC_CHECK, 0, false, true, NULL, &why), CHECK_STEP_NOTHING);
        assert_int_equal(decide(MD_SYNC_CHECK, 0, true, true, NULL, &why), CHECK_STEP_NOTHING);
        /* Outside its windows, or degraded (windows or not): paused, saying why. */
        assert_int_equal(decide(MD_SYNC_CHECK, 0, true, false, NULL, &why), CHECK_STEP_PAUSE);
        assert_int_equal(why, CHECK_WHY_WINDOW);
        assert_int_equal(decide(MD_SYNC_REPAIR, 1, false, true, NULL, &why), CHECK_STEP_PAUSE);
        assert_int_equal(why, CHECK_WHY_DEGRADED);
        assert_int_equal(decide(MD_SYNC_CHECK, 1, true, false, &running, &why), CHECK_STEP_PAUSE);
        assert_int_equal(why, CHECK_WHY_DEGRADED);
        /* Unknown redundancy decides nothing. */
        assert_int_equal(decide(MD_SYNC_CHECK, -1, false, true, NULL, &why), CHECK_STEP_NOTHING);
        /* Rebuilds are never paused; a paused check waits for them. */
        assert_int_equal(decide(MD_SYNC_RECOVER, 1, true, false, NULL, &why), CHECK_STEP_NOTHING);
        assert_int_equal(decide(MD_SYNC_RESYNC, 0, true, false, &paused, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_REBUILD);
        paused.why = CHECK_WHY_REBUILD;
        assert_int_equal(decide(MD_SYNC_RESHAPE, 0, true, false, &paused, &why), CHECK_STEP_NOTHING);
        /* After it: the window again, or resumed. */
        assert_int_equal(decide(MD_SYNC_IDLE, 0, true, false, &paused, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_WINDOW);
        paused.why = CHECK_WHY_WINDOW;
        assert_int_equal(decide(MD_SYNC_IDLE, 0, true, false, &paused, &why), CHECK_STEP_NOTHING);
        assert_int_equal(decide(MD_SYNC_IDLE, 0, true, true, &paused, &why), CHECK_STEP_RESUME);
        assert_int_equal(decide(MD_SYNC_IDLE, 0, false, true, &paused, &why), CHECK_STEP_RESUME);
        assert_int_equal(decide(MD_SYNC_IDLE, 1, false, true, &paused, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_DEGRADED);
        /* Started again by someone inside the window: followed as running. */
        assert_int_equal(decide(MD_SYNC_CHECK, 0, true, true, &paused, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_NONE);
        assert_int_equal(decide(MD_SYNC_CHECK, 0, true, true, &running, &why), CHECK_STEP_NOTHING);
        /* A followed check that stopped: md for a failure (waits), or it ended or someone stopped it (forgotten). */
        assert_int_equal(decide(MD_SYNC_IDLE, 1, true, true, &running, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_DEGRADED);
        assert_int_equal(decide(MD_SYNC_IDLE, 0, true, true, &running, &why), CHECK_STEP_FORGET);
        /* md stopped a check itself when a member failed: kept, to go on once whole; not a repair where it cannot pause. */
        v = (check_view){ .action = MD_SYNC_RECOVER, .was = MD_SYNC_CHECK, .degraded = 1, .repair_pauses = true };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_KEEP);
        assert_int_equal(why, CHECK_WHY_DEGRADED);
        v.action = MD_SYNC_IDLE;
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_KEEP);
        v.degraded = 0; /* it ended, or was stopped: not md's doing for a failure */
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTHING);
        v = (check_view){ .action = MD_SYNC_IDLE, .was = MD_SYNC_REPAIR, .degraded = 1, .repair_pauses = false };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTHING);
        v = (check_view){ .action = MD_SYNC_REPAIR, .windowed = true, .repair_pauses = false };
        /* check_busy = pause: busy users pause it; it resumes only after a quiet minute, and windows come first. */
        v = (check_view){ .action = MD_SYNC_CHECK, .pause_when_busy = true, .users_busy = true, .repair_pauses = true };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_PAUSE);
        assert_int_equal(why, CHECK_WHY_BUSY);
        v.pause_when_busy = false;
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTHING);
        paused.why = CHECK_WHY_BUSY;
        v = (check_view){ .action = MD_SYNC_IDLE, .pause_when_busy = true, .have_record = true, .record = &paused };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTHING); /* not busy now, not quiet for long yet */
        v.users_quiet = true;
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_RESUME);
        v.windowed = true;
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTE);
        assert_int_equal(why, CHECK_WHY_WINDOW);
        paused.why = CHECK_WHY_WINDOW;
        v = (check_view){ .action = MD_SYNC_IDLE,
                          .pause_when_busy = true,
                          .users_busy = true,
                          .windowed = true,
                          .window_open = true,
                          .have_record = true,
                          .record = &paused };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTE); /* the window opens on busy users: it waits */
        assert_int_equal(why, CHECK_WHY_BUSY);
        /* Someone froze md: nothing. */
        assert_int_equal(decide(MD_SYNC_FROZEN, 0, true, false, &paused, &why), CHECK_STEP_NOTHING);
        assert_int_equal(decide(MD_SYNC_IDLE, 0, true, true, NULL, &why), CHECK_STEP_NOTHING);
        /* Where md turns a paused repair into a resync, repairs run, and a record of one goes. */
        v = (check_view){ .action = MD_SYNC_REPAIR, .windowed = true, .repair_pauses = false };
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_NOTHING);
        v.have_record = true;
        v.record = &running;
        assert_int_equal(check_decide(&v, &why), CHECK_STEP_FORGET);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_book),
                cmocka_unit_test(test_decide),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
