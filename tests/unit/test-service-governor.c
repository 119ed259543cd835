/* SPDX-License-Identifier: MIT */
/* The governor of a `fast` boost: its fit, its hold, its states. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "governor.h"
#include "journal.h"

#define SEC 1000000ull

static md_tval num(uint64_t v) {
        return (md_tval){ .kind = MD_V_NUMBER, .value = v };
}
static md_tval sys(uint64_t v) {
        return (md_tval){ .kind = MD_V_SYSTEM, .value = v };
}
static md_tval loc(uint64_t v) {
        return (md_tval){ .kind = MD_V_LOCAL, .value = v };
}

static int fit(uint64_t speed, md_tval orig, md_tval wrote, uint64_t *floor) {
        md_tval v = num(speed);

        return governor_fit_floor(&v, 80, &orig, &wrote, floor);
}

/* fast's floor, once the rebuild has run under it: a share of md's sync_speed, lowering only. */
static void test_fit_floor(void **state) {
        const md_tval none = { .kind = MD_V_NONE }, unknown = { .kind = MD_V_UNKNOWN };
        md_tval orig = sys(1000), wrote = loc(50000);
        uint64_t floor = 7;

        (void)state;
        assert_int_equal(fit(7065, orig, wrote, &floor), 0);
        assert_int_equal(floor, 5652);
        /* Large speeds neither overflow nor lose the remainder. */
        assert_int_equal(fit(61999, orig, loc(2000000000), &floor), 0);
        assert_int_equal(floor, 49599);
        assert_int_equal(fit(UINT64_MAX / 10, orig, loc(2000000000), &floor), -ERANGE);
        floor = 7;
        /* No rate: nothing decided, the output untouched. */
        assert_int_equal(governor_fit_floor(&none, 80, &orig, &wrote, &floor), -ENODATA);
        assert_int_equal(governor_fit_floor(&unknown, 80, &orig, &wrote, &floor), -ENODATA);
        assert_int_equal(fit(0, orig, wrote, &floor), -ENODATA);
        /* At or above the written floor: md already yields above it, nothing to gain. */
        assert_int_equal(fit(62500, orig, wrote, &floor), -ERANGE);
        assert_int_equal(fit(300000, orig, wrote, &floor), -ERANGE);
        /* At or below the original: the boost would give the rebuild nothing. */
        assert_int_equal(fit(1250, orig, wrote, &floor), -ERANGE);
        assert_int_equal(fit(5001, loc(4000), wrote, &floor), -ERANGE); /* 4000.8 rounds down to 4000 */
        /* The written floor unreadable: nothing to compare with. */
        assert_int_equal(fit(7065, orig, (md_tval){ .kind = MD_V_UNKNOWN }, &floor), -ERANGE);
        assert_int_equal(floor, 7);
        assert_int_equal(fit(5002, loc(4000), wrote, &floor), 0);
        assert_int_equal(floor, 4001);
}

/* A raid1 recovering under a `fast` boost that wrote floor 50000 over 1000 (system). */
static void boosted(md_array *a, journal_entry *e) {
        *a = (md_array){ .name = "md0",
                         .level = MD_LEVEL_RAID1,
                         .uuid = "7ac7b4d7-c925-6f89-525e-4caecab28aec",
                         .sync_action = MD_SYNC_RECOVER };
        a->tunables[MD_T_SYNC_SPEED_MIN] = loc(50000);
        a->tunables[MD_T_SYNC_SPEED_MAX] = loc(200000);
        a->sync_speed = num(20000);
        a->io_sectors = num(0);
        *e = (journal_entry){ .fit = GOVERNOR_FITTING };
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                e->originals[t] = e->written[t] = e->earlier[t] = (md_tval){ .kind = MD_V_ABSENT };
        e->originals[MD_T_SYNC_SPEED_MIN] = sys(1000);
        e->written[MD_T_SYNC_SPEED_MIN] = loc(50000);
        e->originals[MD_T_SYNC_SPEED_MAX] = sys(200000);
        e->written[MD_T_SYNC_SPEED_MAX] = loc(200000);
}

/* What service_govern does with a decision whose write succeeds. */
static void apply(md_array *a, journal_entry *e, const governor_decision *d) {
        md_tunable t = d->action == GOVERNOR_FIT ? MD_T_SYNC_SPEED_MIN : MD_T_SYNC_SPEED_MAX;

        if (d->action == GOVERNOR_FIT || d->action == GOVERNOR_HOLD || d->action == GOVERNOR_LIFT) {
                e->earlier[t] = d->replaced;
                e->written[t] = d->value;
                a->tunables[t] = d->value;
        }
        e->fit = d->next;
}

static void test_states_words(void **state) {
        (void)state;
        for (int s = 0; s < _GOVERNOR_STATE_MAX; s++)
                assert_int_equal(governor_state_from_string(governor_state_to_string(s)), s);
        assert_string_equal(governor_state_to_string(GOVERNOR_FITTING), "pending");
        assert_string_equal(governor_state_to_string(GOVERNOR_OFF), "");
        assert_int_equal(governor_state_from_string("soon"), -EINVAL);
        assert_int_equal(governor_state_from_string(NULL), -EINVAL);
        assert_null(governor_state_to_string(_GOVERNOR_STATE_MAX));
}

static void test_on_boost(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        bool restart;

        (void)state;
        assert_int_equal(governor_on_boost(&s, GOVERNOR_OFF, true, true, false, &restart), GOVERNOR_FITTING);
        assert_true(restart);
        /* The caller's own floor, or another profile's, is never fitted. */
        assert_int_equal(governor_on_boost(&s, GOVERNOR_FITTING, true, true, true, &restart), GOVERNOR_OFF);
        assert_int_equal(governor_on_boost(&s, GOVERNOR_HELD, false, true, false, &restart), GOVERNOR_OFF);
        /* A boost that leaves the floor alone leaves the governor as it was. */
        assert_int_equal(governor_on_boost(&s, GOVERNOR_HELD, true, false, false, &restart), GOVERNOR_HELD);
        assert_false(restart);
        s.fit_percent = 0;
        assert_int_equal(governor_on_boost(&s, GOVERNOR_OFF, true, true, false, &restart), GOVERNOR_OFF);
}

/* FITTING waits md's averaging span, then lowers the floor to 80 % of sync_speed. */
static void test_fit_after_span(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_FITTING);
        governor_step(&s, &a, &e, &clock, 129 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* Frozen: nothing moves, however long. */
        a.sync_action = MD_SYNC_FROZEN;
        governor_step(&s, &a, &e, &clock, 200 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        a.sync_action = MD_SYNC_RECOVER;
        governor_step(&s, &a, &e, &clock, 130 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        assert_int_equal(d.value.kind, MD_V_LOCAL);
        assert_int_equal(d.value.value, 16000);
        assert_int_equal(d.replaced.value, 50000);
        assert_int_equal(d.speed, 20000);
        assert_int_equal(d.next, GOVERNOR_FREE);
        s.hold_ceiling = 0;
        governor_step(&s, &a, &e, &clock, 130 * SEC, &d);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

/* The floor stays when the fit would not lower it, or when an administrator changed it. */
static void test_fit_keeps(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        a.sync_speed = num(70000);
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_KEEP);
        assert_false(d.changed_by_admin);
        assert_int_equal(d.next, GOVERNOR_DONE);
        a.sync_speed = num(20000);
        a.tunables[MD_T_SYNC_SPEED_MIN] = loc(30000);
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_KEEP);
        assert_true(d.changed_by_admin);
        /* No rate yet: wait, the fit is still to come. */
        a.sync_speed = (md_tval){ .kind = MD_V_NONE };
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_FITTING);
}

/* FREE holds the ceiling at the floor while users read; HELD lifts it after quiet_ms. */
static void test_hold_and_lift(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        apply(&a, &e, &d);
        assert_int_equal(e.fit, GOVERNOR_FREE);
        /* First read of io_sectors: a rate takes two. */
        governor_step(&s, &a, &e, &clock, 101 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* Quiet: 100 KiB in a second. */
        a.io_sectors = num(200);
        governor_step(&s, &a, &e, &clock, 102 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* Busy: 10 MiB in a second. */
        a.io_sectors = num(200 + 20480);
        governor_step(&s, &a, &e, &clock, 103 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_HOLD);
        assert_int_equal(d.value.value, 16000);
        assert_int_equal(d.replaced.value, 200000);
        apply(&a, &e, &d);
        assert_int_equal(e.fit, GOVERNOR_HELD);
        /* Quiet again, but for less than quiet_ms: still held. */
        governor_step(&s, &a, &e, &clock, 120 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        governor_step(&s, &a, &e, &clock, 133 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.value.kind, MD_V_LOCAL);
        assert_int_equal(d.value.value, 200000);
        apply(&a, &e, &d);
        assert_int_equal(e.fit, GOVERNOR_FREE);
        assert_int_equal(e.earlier[MD_T_SYNC_SPEED_MAX].value, 16000);
}

/* An administrator's ceiling ends the following, nothing written. */
static void test_admin_ceiling_stops(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        governor_step(&s, &a, &e, &clock, 100 * SEC, &d);
        apply(&a, &e, &d);
        governor_step(&s, &a, &e, &clock, 101 * SEC, &d);
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(90000);
        a.io_sectors = num(40960);
        governor_step(&s, &a, &e, &clock, 102 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

/* After a restart a HELD boost counts its users as busy from the first read. */
static void test_held_after_restart(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        e.fit = GOVERNOR_HELD;
        e.written[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MIN] = loc(16000);
        e.written[MD_T_SYNC_SPEED_MAX] = a.tunables[MD_T_SYNC_SPEED_MAX] = loc(16000);
        e.earlier[MD_T_SYNC_SPEED_MAX] = loc(200000);
        governor_step(&s, &a, &e, &clock, 500 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        governor_step(&s, &a, &e, &clock, 510 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        governor_step(&s, &a, &e, &clock, 531 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.value.value, 200000);
        /* OFF and DONE follow nothing. */
        e.fit = GOVERNOR_DONE;
        governor_step(&s, &a, &e, &clock, 600 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_fit_floor),
                cmocka_unit_test(test_states_words),
                cmocka_unit_test(test_on_boost),
                cmocka_unit_test(test_fit_after_span),
                cmocka_unit_test(test_fit_keeps),
                cmocka_unit_test(test_hold_and_lift),
                cmocka_unit_test(test_admin_ceiling_stops),
                cmocka_unit_test(test_held_after_restart),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
