/* SPDX-License-Identifier: MIT */
/* The governor of a `fast` boost: its fit, its learning and steering, its states. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* What service_govern does with a decision whose writes succeed. */
static void apply(md_array *a, journal_entry *e, const governor_decision *d) {
        if (d->action == GOVERNOR_PACE) {
                /* The kernel only: the journal's band already holds the value. */
                assert_true(d->value.value >= e->pace_low && d->value.value <= e->pace_high);
                a->tunables[MD_T_SYNC_SPEED_MIN] = a->tunables[MD_T_SYNC_SPEED_MAX] = d->value;
                return;
        }
        if (d->pace_high || governor_writes_floor(d->action)) {
                e->pace_low = d->pace_low;
                e->pace_high = d->pace_high;
        }
        if (governor_writes_floor(d->action)) {
                const md_tunable t = MD_T_SYNC_SPEED_MIN;

                e->earlier[t] = d->action == GOVERNOR_FIT ? d->replaced : d->replaced_floor;
                e->written[t] = a->tunables[t] = d->action == GOVERNOR_FIT ? d->value : d->floor;
        }
        if (governor_writes_depth(d)) {
                const md_tunable t = MD_T_SYNC_IO_DEPTH;

                if (e->originals[t].kind == MD_V_ABSENT)
                        e->originals[t] = a->tunables[t];
                e->earlier[t] = d->replaced_depth;
                e->written[t] = a->tunables[t] = d->depth;
        }
        if (governor_writes_cache(d)) {
                const md_tunable t = MD_T_STRIPE_CACHE_SIZE;

                e->earlier[t] = d->replaced_cache;
                e->written[t] = a->tunables[t] = d->cache;
        }
        if (governor_writes_ceiling(d->action)) {
                const md_tunable t = MD_T_SYNC_SPEED_MAX;

                e->earlier[t] = d->replaced;
                e->written[t] = a->tunables[t] = d->value;
        }
        if (e->lift_ceiling.kind == MD_V_ABSENT && d->lift.kind != MD_V_ABSENT)
                e->lift_ceiling = d->lift;
        e->fit = d->next;
}

/* Busy: 1 MiB/s or 8 requests a second, over however long the counters were read apart. */
static void test_users_busy(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;

        (void)state;
        assert_true(governor_users_busy(&s, 1024, 1, SEC));
        assert_false(governor_users_busy(&s, 1023, 7, SEC));
        assert_true(governor_users_busy(&s, 32, 8, SEC)); /* a random 4 KiB reader */
        assert_true(governor_users_busy(&s, 5 * 1024, 0, 5 * SEC));
        assert_false(governor_users_busy(&s, 5 * 1024 - 1, 39, 5 * SEC));
        assert_false(governor_users_busy(&s, 1 << 20, 1000, 0)); /* no time between the reads: no rate */
        /* The configuration's own limits: 100 KiB/s or 1 request a second. */
        s.busy_kibs = 100;
        s.busy_iops = 1;
        assert_true(governor_users_busy(&s, 100, 0, SEC));
        assert_true(governor_users_busy(&s, 12, 3, SEC));
        assert_false(governor_users_busy(&s, 99, 4, 5 * SEC));
}

/* Waiting: requests in flight at this read and the one before; md's count unknown is no waiting. */
static void test_users_waiting(void **state) {
        md_array a = { .io_in_flight = num(32) };

        (void)state;
        assert_true(governor_users_waiting(&a, 1));
        assert_false(governor_users_waiting(&a, 0));
        a.io_in_flight = num(0);
        assert_false(governor_users_waiting(&a, 32));
        a.io_in_flight = (md_tval){ .kind = MD_V_ABSENT };
        assert_false(governor_users_waiting(&a, 32));
}

static void test_states_words(void **state) {
        (void)state;
        for (int s = 0; s < _GOVERNOR_STATE_MAX; s++)
                assert_int_equal(governor_state_from_string(governor_state_to_string(s)), s);
        assert_string_equal(governor_state_to_string(GOVERNOR_FITTING), "pending");
        assert_string_equal(governor_state_to_string(GOVERNOR_STEERING), "steering");
        assert_string_equal(governor_state_to_string(GOVERNOR_OFF), "");
        /* An earlier version's ceiling held at the floor: steering, whose baseline is learnt again. */
        assert_int_equal(governor_state_from_string("held"), GOVERNOR_STEERING);
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
        assert_int_equal(governor_on_boost(&s, GOVERNOR_STEERING, false, true, false, &restart), GOVERNOR_OFF);
        /* A boost that leaves the floor alone leaves the governor as it was. */
        assert_int_equal(governor_on_boost(&s, GOVERNOR_STEERING, true, false, false, &restart), GOVERNOR_STEERING);
        assert_false(restart);
        s.fit_percent = 0;
        assert_int_equal(governor_on_boost(&s, GOVERNOR_OFF, true, true, false, &restart), GOVERNOR_OFF);
}

/* FITTING waits md's averaging span, then lowers the floor to 80 % of sync_speed. */
static void test_fit_after_span(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .whole_kibs = 60000 };
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

/* A fit whose clock starts at @start_s, with nothing known of the rebuild's rate. */
static void fit_from(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                     uint64_t start_s) {
        governor_decision d;

        *clock = (governor_clock){};
        governor_step(s, a, e, clock, start_s * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
}

/*
 * Below the floor the fit waits, up to 15 s past its span, for the service to
 * learn the rebuild's unbounded rate; above the floor there is none to learn.
 */
static void test_fit_waits_for_rate(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock;
        governor_decision d;
        journal_entry e;
        md_array a;

        (void)state;
        boosted(&a, &e);
        fit_from(&s, &a, &e, &clock, 100);
        for (uint64_t t = 130; t <= 140; t += 10) {
                governor_step(&s, &a, &e, &clock, t * SEC, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
                assert_int_equal(d.next, GOVERNOR_FITTING);
        }
        clock.whole_kibs = 60000;
        governor_step(&s, &a, &e, &clock, 141 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        assert_int_equal(d.value.value, 16000);
        /* Never learnt: the fit goes ahead once the wait is over. */
        fit_from(&s, &a, &e, &clock, 100);
        governor_step(&s, &a, &e, &clock, 145 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        assert_int_equal(d.value.value, 16000);
        /* A fit shorter than md's averaging span does not wait for it. */
        s.fit_after_ms = 2000;
        fit_from(&s, &a, &e, &clock, 100);
        governor_step(&s, &a, &e, &clock, 102 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        s.fit_after_ms = 30000;
        /* At or above the floor md's average is not the unbounded rate: no wait. */
        a.sync_speed = num(50000);
        fit_from(&s, &a, &e, &clock, 100);
        governor_step(&s, &a, &e, &clock, 130 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        assert_int_equal(d.value.value, 40000);
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

/*
 * The rate moves down by 30 % when the users miss their target by more than
 * 10 %, up by 20 % and half the held rate (500 KiB/s on md's defaults) above it.
 */
static void test_next_rate(void **state) {
        (void)state;
        /* The target: a share of the baseline, also of a random reader's few dozen KiB/s. */
        assert_int_equal(governor_target(10240, 50), 5120);
        assert_int_equal(governor_target(50, 25), 12);
        assert_int_equal(governor_target(199, 50), 99);
        /* Short of the target at all: down. Up only from a fifth above it. */
        assert_int_equal(governor_next_rate(10000, 4000, 5000, 1000, 200000), 7000);
        assert_int_equal(governor_next_rate(10000, 4999, 5000, 1000, 200000), 7000);
        assert_int_equal(governor_next_rate(10000, 5000, 5000, 1000, 200000), 10000); /* kept: the rate stays */
        assert_int_equal(governor_next_rate(10000, 6000, 5000, 1000, 200000), 10000);
        assert_int_equal(governor_next_rate(10000, 6001, 5000, 1000, 200000), 12500);
        /* An array held at 100 KiB/s (the benchmark's at scale 10): up by a fifth and 50. */
        assert_int_equal(governor_next_rate(300, 6100, 5000, 100, 3700), 410);
        /* Never below the held rate, never above the boost's ceiling. */
        assert_int_equal(governor_next_rate(1200, 0, 5000, 1000, 200000), 1000);
        assert_int_equal(governor_next_rate(190000, 9000, 5000, 1000, 200000), 200000);
        /* No users and no target: the rate stays (within the bounds). */
        assert_int_equal(governor_next_rate(500, 0, 0, 1000, 200000), 1000);
        /* Large numbers do not overflow. */
        assert_int_equal(governor_next_rate(2000000000, 1, UINT64_MAX / 1000, 1000, 2000000000), 1400000000);
}

/* One poll at @t seconds, the users having moved @kibs KiB/s since the last one. */
static void poll_at(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                    uint64_t t, uint64_t kibs, governor_decision *d) {
        if (*last)
                a->io_sectors.value += kibs * 2 * (t - *last);
        *last = t;
        governor_step(s, a, e, clock, t * SEC, d);
}

/* What a fit decides under @s within 6 s of a light random reader: 3 requests of 4 KiB a second. */
static void light_reader_during_fit(const profile_settings *s, governor_decision *d) {
        governor_clock clock = { .whole_kibs = 60000 };
        journal_entry e;
        md_array a;

        boosted(&a, &e);
        a.io_requests = num(0);
        for (uint64_t t = 100; t <= 106; t++) {
                a.io_sectors.value += 3 * 8;
                a.io_requests.value += 3;
                governor_step(s, &a, &e, &clock, t * SEC, d);
                if (d->action != GOVERNOR_WAIT)
                        break;
        }
}

/* Users who count as busy only under the configuration's lower limits end a fit only with them. */
static void test_busy_limits_configured(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_decision d;

        (void)state;
        light_reader_during_fit(&s, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_FITTING);
        s.busy_kibs = 100;
        s.busy_iops = 2;
        light_reader_during_fit(&s, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        assert_int_equal(d.next, GOVERNOR_LEARNING);
}

/*
 * Once the rebuild's unhindered rate is known, users busy while the floor
 * is being fitted end the fit at once: held back to learn, or on the
 * latency ladder's first rung; quiet ones let it run.
 */
static void test_busy_users_end_fit(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .whole_kibs = 60000 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0;
        md_array a;

        (void)state;
        boosted(&a, &e);
        /* The first read of the counters says nothing; then quiet users (100 KiB/s): the fit goes on. */
        poll_at(&s, &a, &e, &clock, &last, 100, 0, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        poll_at(&s, &a, &e, &clock, &last, 101, 100, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_FITTING);
        /* Busy (10 MiB/s) 5 s into the fit: held back to the original floor now, not 25 s later. */
        poll_at(&s, &a, &e, &clock, &last, 105, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        assert_int_equal(d.next, GOVERNOR_LEARNING);
        assert_int_equal(d.value.value, 1000);
        assert_int_equal(d.replaced_floor.value, 50000);
        apply(&a, &e, &d);
        /*
         * Learning goes on as after a fit, and steers from fast's floor, below
         * the rebuild's unhindered 60000 KiB/s: half of 50000 for a share of 50 %.
         */
        poll_at(&s, &a, &e, &clock, &last, 110, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        poll_at(&s, &a, &e, &clock, &last, 116, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 25000);
        assert_int_equal(d.baseline_kibs, 10240);

        /* Disks that give the rebuild 6000 KiB/s unhindered: half of that, not of a floor they never reach. */
        boosted(&a, &e);
        clock = (governor_clock){ .whole_kibs = 6000 };
        last = 0;
        poll_at(&s, &a, &e, &clock, &last, 100, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 105, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        apply(&a, &e, &d);
        poll_at(&s, &a, &e, &clock, &last, 110, 10240, &d);
        poll_at(&s, &a, &e, &clock, &last, 116, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 3000);

        /* A latency bound on 6.16+: the first rung is md's own yielding at its depth, the floor held. */
        boosted(&a, &e);
        a.tunables[MD_T_SYNC_IO_DEPTH] = num(32);
        e.users_latency_ms = 50;
        clock = (governor_clock){ .whole_kibs = 60000 };
        last = 0;
        poll_at(&s, &a, &e, &clock, &last, 100, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 101, 10240, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.next, GOVERNOR_STEERING);
        assert_int_equal(d.floor.value, 1000);
        assert_int_equal(d.value.value, 200000);
        assert_int_equal(d.depth.value, 32);

        /*
         * Not known yet (the array's first rebuild under mdboost): the fit
         * runs its span whatever the users do, as it is what measures it;
         * and so it does without the governor (hold_ceiling off).
         */
        for (int known = 0; known < 2; known++) {
                boosted(&a, &e);
                s.hold_ceiling = known ? 0 : 1;
                clock = (governor_clock){ .whole_kibs = known ? 60000 : 0 };
                last = 0;
                poll_at(&s, &a, &e, &clock, &last, 100, 0, &d);
                poll_at(&s, &a, &e, &clock, &last, 101, 10240, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
                poll_at(&s, &a, &e, &clock, &last, 131, 10240, &d);
                if (!known) {
                        /* The service learns the rate from the span's last samples. */
                        assert_int_equal(d.action, GOVERNOR_WAIT);
                        clock.whole_kibs = 60000;
                        poll_at(&s, &a, &e, &clock, &last, 132, 10240, &d);
                }
                assert_int_equal(d.action, GOVERNOR_FIT);
        }
}

/* The boost of boosted() once its floor is fitted at 100 s (to 16000, 80 % of md's 20000). */
static void fitted(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock) {
        governor_decision d;

        boosted(a, e);
        governor_step(s, a, e, clock, 100 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_FIT);
        apply(a, e, &d);
}

/*
 * A fitted boost whose users get busy at 103 s: held back to the original
 * floor, both limits, for learn_ms (10 s), then steered (@d). Over the
 * first 4 s of the hold they move @early KiB/s, then 10 MiB/s: their
 * baseline is the 10 MiB/s whatever @early, since the first third of the
 * hold does not count (the rebuild's requests in flight still complete and
 * the users' own queue fills).
 */
static void learnt(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                   uint64_t early, governor_decision *d) {
        fitted(s, a, e, clock);
        assert_int_equal(e->fit, GOVERNOR_FREE);
        /* The first read of io_sectors: a rate takes two. Quiet users (100 KiB/s) change nothing. */
        poll_at(s, a, e, clock, last, 101, 0, d);
        assert_int_equal(d->action, GOVERNOR_WAIT);
        poll_at(s, a, e, clock, last, 102, 100, d);
        assert_int_equal(d->action, GOVERNOR_WAIT);
        /* Busy (10 MiB/s): the rebuild is held back to the original floor, both limits. */
        poll_at(s, a, e, clock, last, 103, 10240, d);
        assert_int_equal(d->action, GOVERNOR_LEARN);
        assert_int_equal(d->value.kind, MD_V_LOCAL);
        assert_int_equal(d->value.value, 1000);
        assert_int_equal(d->replaced.value, 200000);
        assert_int_equal(d->replaced_floor.value, 16000);
        assert_int_equal(d->lift.value, 200000);
        apply(a, e, d);
        assert_int_equal(e->fit, GOVERNOR_LEARNING);
        for (uint64_t t = 104; t < 113; t++) {
                poll_at(s, a, e, clock, last, t, t <= 107 ? early : 10240, d);
                assert_int_equal(d->action, GOVERNOR_WAIT);
        }
        /* Still learn_ms from the hold's start. */
        poll_at(s, a, e, clock, last, 113, 10240, d);
        assert_int_equal(d->action, GOVERNOR_STEER);
        assert_int_equal(d->baseline_kibs, 10240);
        assert_int_equal(d->target_kibs, 5120);
}

/* Users who move 1 MiB/s over the first 4 s of the hold learn 10 MiB/s, not the 6.4 of the whole hold. */
static void test_learn_after_settling(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0;
        md_array a;

        (void)state;
        learnt(&s, &a, &e, &clock, &last, 1024, &d);
}

/*
 * A 1-deep reader of 1 MiB requests (@mibs a second, @in_flight waiting at
 * the read): its completions move md's request count as well as its
 * sectors, and what waits shows in io_in_flight.
 */
static void poll_reader(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                        uint64_t t, uint64_t mibs, uint64_t in_flight, governor_decision *d) {
        if (*last)
                a->io_requests.value += mibs * (t - *last);
        a->io_in_flight = num(in_flight);
        poll_at(s, a, e, clock, last, t, mibs * 1024, d);
}

/*
 * A fitted boost whose 1-deep reader, quiet until then, gets busy at 103 s
 * with a request waiting: the rebuild is held back to learn it.
 */
static void reader_held(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                        governor_decision *d) {
        *clock = (governor_clock){ .fit_start_usec = 1 };
        *last = 0;
        fitted(s, a, e, clock);
        a->io_requests = num(0);
        poll_reader(s, a, e, clock, last, 101, 0, 0, d);
        poll_reader(s, a, e, clock, last, 102, 0, 0, d);
        assert_int_equal(d->action, GOVERNOR_WAIT);
        poll_reader(s, a, e, clock, last, 103, 10, 1, d);
        assert_int_equal(d->action, GOVERNOR_LEARN);
        apply(a, e, d);
}

/*
 * The reader's request waits behind the rebuild's reads queued before the
 * hold for its first 6 s, then it moves 10 MiB/s: the hold settles once it
 * completes again, and the baseline is the 10 MiB/s over two thirds of
 * learn_ms from then, not the half of it that counting from a third in
 * would give. Users who never complete settle it after another learn_ms.
 */
static void test_learn_waits_for_stalled_users(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock;
        governor_decision d;
        journal_entry e;
        uint64_t last;
        md_array a;

        (void)state;
        reader_held(&s, &a, &e, &clock, &last, &d);
        for (uint64_t t = 104; t <= 109; t++) {
                poll_reader(&s, &a, &e, &clock, &last, t, 0, 1, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        assert_false(clock.settled);
        for (uint64_t t = 110; t <= 116; t++) {
                poll_reader(&s, &a, &e, &clock, &last, t, 10, 1, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
                assert_true(clock.settled);
        }
        poll_reader(&s, &a, &e, &clock, &last, 117, 10, 1, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.baseline_kibs, 10240);

        /* Never completing: settled 13.3 s into the hold (103 s), at the first poll after. */
        reader_held(&s, &a, &e, &clock, &last, &d);
        for (uint64_t t = 104; t <= 116; t++)
                poll_reader(&s, &a, &e, &clock, &last, t, 0, 1, &d);
        assert_false(clock.settled);
        poll_reader(&s, &a, &e, &clock, &last, 117, 0, 1, &d);
        assert_true(clock.settled);
}

/* A fitted boost (floor 16000) whose users get busy: it learns their throughput alone, then steers. */
static void test_learn_steer_lift(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        s.quiet_ms = 30000;
        /* learn_ms (10 s) of users at 10 MiB/s: their baseline. */
        learnt(&s, &a, &e, &clock, &last, 10240, &d);
        /* The first rate: the users' share taken from the floor the rebuild ran under. */
        assert_int_equal(d.value.value, 8000);
        assert_int_equal(d.replaced_floor.value, 1000);
        apply(&a, &e, &d);
        assert_int_equal(e.fit, GOVERNOR_STEERING);
        /* Users short of their 5120 KiB/s: the rate comes down by 30 %. */
        for (t = 114; t < 118; t++) {
                poll_at(&s, &a, &e, &clock, &last, t, 2048, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        poll_at(&s, &a, &e, &clock, &last, 118, 2048, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.users_kibs, 2048);
        assert_int_equal(d.value.value, 5600);
        apply(&a, &e, &d);
        /* Their share kept, up to a fifth above it: nothing written. */
        for (t = 119; t <= 123; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 6000, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /*
         * Far above it (the users' last minute, 2048, 6000 and 12000, too):
         * up by a fifth.
         */
        for (t = 124; t <= 128; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 12000, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 7220);
        apply(&a, &e, &d);
        /* Quiet for quiet_ms: the boost's ceiling comes back, the floor stays the rate. */
        for (t = 129; t < 158; t++) {
                poll_at(&s, &a, &e, &clock, &last, t, 0, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        poll_at(&s, &a, &e, &clock, &last, 158, 0, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.value.value, 200000);
        apply(&a, &e, &d);
        assert_int_equal(e.fit, GOVERNOR_FREE);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MIN].value, 7220);
        /* Back within relearn_ms: steered from the last rate at once, not learnt again. */
        poll_at(&s, &a, &e, &clock, &last, 170, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 171, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 7220);
        assert_int_equal(d.next, GOVERNOR_STEERING);
        apply(&a, &e, &d);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MAX].value, 7220);
        /* After it, learnt again. */
        poll_at(&s, &a, &e, &clock, &last, 172, 0, &d);
        for (t = 173; t < 200; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 0, &d);
        assert_int_equal(e.fit, GOVERNOR_STEERING);
        poll_at(&s, &a, &e, &clock, &last, 201, 0, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        apply(&a, &e, &d);
        poll_at(&s, &a, &e, &clock, &last, 500, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 501, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
}

/*
 * Users whose requests wait behind the rebuild complete nothing for longer
 * than quiet_ms, with 32 of them in flight: they are short of their share,
 * not quiet. The rate comes down and the ceiling stays; once nothing is in
 * flight either, they are quiet and it comes back.
 */
static void test_waiting_users_are_busy(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, lowest = 0;
        md_array a;

        (void)state;
        learnt(&s, &a, &e, &clock, &last, 10240, &d);
        apply(&a, &e, &d);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MAX].value, 8000);
        a.io_in_flight = num(32);
        for (t = 114; t < 114 + 3 * s.quiet_ms / 1000; t++) {
                poll_at(&s, &a, &e, &clock, &last, t, 0, &d);
                assert_int_not_equal(d.action, GOVERNOR_LIFT);
                if (d.action == GOVERNOR_STEER) {
                        lowest = d.value.value;
                        apply(&a, &e, &d);
                }
        }
        assert_int_equal(e.fit, GOVERNOR_STEERING);
        assert_true(lowest > 0 && lowest < 8000);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MAX].value, lowest);
        /* Nothing in flight and nothing moved: quiet, and after quiet_ms the ceiling comes back. */
        a.io_in_flight = num(0);
        uint64_t quiet = t;
        for (; t <= quiet + s.quiet_ms / 1000 + 1 && d.action != GOVERNOR_LIFT; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 0, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.value.value, 200000);
}

/*
 * One poll @t with the users at @kibs and the rebuild @moved KiB further
 * on, as /proc/mdstat shows it.
 */
static void poll_moved(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                       uint64_t t, uint64_t kibs, uint64_t moved, governor_decision *d) {
        clock->position_known = true;
        clock->position_kib += moved;
        poll_at(s, a, e, clock, last, t, kibs, d);
}

/*
 * Fitted, then busy users (10 MiB/s) held back and learnt while the rebuild
 * moves (20000 KiB a poll, 1000 held back): the first STEER, to 8000 KiB/s,
 * applied. Returns the time of the next poll.
 */
static uint64_t steered_moving(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock,
                               uint64_t *last, governor_decision *d) {
        uint64_t t;

        fitted(s, a, e, clock);
        for (t = 101; t < 103; t++)
                poll_moved(s, a, e, clock, last, t, 0, 20000, d);
        poll_moved(s, a, e, clock, last, 103, 10240, 20000, d);
        assert_int_equal(d->action, GOVERNOR_LEARN);
        apply(a, e, d);
        for (t = 104; t <= 113; t++)
                poll_moved(s, a, e, clock, last, t, 10240, 1000, d);
        assert_int_equal(d->action, GOVERNOR_STEER);
        assert_int_equal(d->value.value, 8000);
        apply(a, e, d);
        return 114;
}

/*
 * Steering at one rate with the rebuild's position known: between the
 * steps floor and ceiling move to what holds md to the rate (PACE), within
 * the band the STEER recorded, which the governor still counts as its own.
 * Learning and lifting pace nothing.
 */
static void test_pacing(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, paced;
        md_array a;

        (void)state;
        s.quiet_ms = 30000;
        fitted(&s, &a, &e, &clock);
        assert_int_equal(e.pace_high, 0);
        /* The rebuild at 20 MB/s, then held back while the users (10 MiB/s) are learnt: no pacing. */
        for (t = 101; t < 103; t++)
                poll_moved(&s, &a, &e, &clock, &last, t, 0, 20000, &d);
        poll_moved(&s, &a, &e, &clock, &last, 103, 10240, 20000, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        assert_int_equal(d.pace_high, 0);
        apply(&a, &e, &d);
        for (t = 104; t < 113; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 10240, 1000, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        poll_moved(&s, &a, &e, &clock, &last, 113, 10240, 1000, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 8000);
        /* A quarter to four times the rate: the band paced values keep to. */
        assert_int_equal(d.pace_low, 2000);
        assert_int_equal(d.pace_high, 32000);
        apply(&a, &e, &d);
        /*
         * md makes up its average of 1000 KiB/s at the disks' speed (20 MB/s)
         * unless paced. Paced in turns of a step (5 s), the line's first turn
         * is 5 * 8000 KiB from where the rate was set, and the first poll has
         * the rebuild half way there: floor and ceiling let md's average reach
         * the turn's end by the next poll, (70000 + 5 * 8000 - 20000) KiB
         * since the oldest position, 14 s before it.
         */
        poll_moved(&s, &a, &e, &clock, &last, 114, 5400, 20000, &d);
        assert_int_equal(d.action, GOVERNOR_PACE);
        assert_int_equal(d.next, GOVERNOR_STEERING);
        assert_int_equal(d.value.value, 90000 / 14);
        assert_int_equal(d.floor.value, 90000 / 14);
        apply(&a, &e, &d);
        /*
         * Stalled short of the turn's end: md may still run to it by the next
         * poll (which leaves it a little more time each poll), within the
         * band.
         */
        for (t = 115; t < 118; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 5400, 0, &d);
                assert_int_equal(d.action, GOVERNOR_PACE);
                assert_true(d.value.value >= 2000 && d.value.value <= 32000);
                paced = d.value.value;
                apply(&a, &e, &d);
        }
        /* At the turn's end md sleeps until the next turn: floor and ceiling come down, within the band. */
        poll_moved(&s, &a, &e, &clock, &last, 118, 5400, 20000, &d);
        assert_int_equal(d.action, GOVERNOR_PACE);
        assert_true(d.value.value < paced && d.value.value >= 2000);
        apply(&a, &e, &d);
        /* Asked again at once: md has that value already, nothing to write. */
        poll_moved(&s, &a, &e, &clock, &last, 118, 5400, 0, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* The step still runs (users within their share: the rate stays), paced values are the boost's own. */
        poll_moved(&s, &a, &e, &clock, &last, 118, 5400, 8000, &d);
        assert_int_not_equal(d.action, GOVERNOR_STOP);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        /* An administrator's value outside the band ends it. */
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(50000);
        for (t = 119; t <= 123; t++)
                poll_moved(&s, &a, &e, &clock, &last, t, 5400, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);

        /* Quiet users: the ceiling is lifted; the floor stays as paced last, and its band with it. */
        boosted(&a, &e);
        e.fit = GOVERNOR_STEERING;
        e.written[MD_T_SYNC_SPEED_MIN] = e.written[MD_T_SYNC_SPEED_MAX] = loc(8000);
        e.pace_low = 2000;
        e.pace_high = 32000;
        e.lift_ceiling = loc(200000);
        a.tunables[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MAX] = loc(6500);
        clock = (governor_clock){};
        last = 0;
        for (t = 1; t < 40 && d.action != GOVERNOR_LIFT; t++)
                poll_moved(&s, &a, &e, &clock, &last, t, 0, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.pace_high, 0);
        apply(&a, &e, &d);
        assert_int_equal(e.pace_high, 32000);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        /* Busy again: held back to learn, both limits written, no band any more. */
        for (t = 100; t < 110 && d.action != GOVERNOR_LEARN; t++)
                poll_moved(&s, &a, &e, &clock, &last, t, 10240, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        apply(&a, &e, &d);
        assert_int_equal(e.pace_high, 0);
}

/*
 * Steering in turns of 5 s with the service polling every 1.5 s, as on a
 * slow host: every step holds exactly one turn's start. Steps of 5 s that
 * end at the first poll after them last 6 s and slide over the turns, one
 * of every five holding two. md runs each turn's share at its start; the
 * users keep within their band, so the rate stays.
 */
static void test_steps_hold_whole_turns(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, start, span, base, usec;
        unsigned steps = 0;
        md_array a;

        (void)state;
        start = (steered_moving(&s, &a, &e, &clock, &last, &d) - 1) * SEC;
        assert_int_equal(clock.pacer.line_usec, start);
        span = clock.span_usec;
        base = clock.position_kib;
        for (unsigned k = 1; k <= 40; k++) {
                usec = start + k * 1500000;
                clock.position_kib = base + 8000 * 5 * ((usec - start) / (5 * SEC) + 1);
                a.io_sectors.value += 5600 * 2 * 3 / 2;
                governor_step(&s, &a, &e, &clock, usec, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                assert_int_not_equal(d.action, GOVERNOR_STOP);
                apply(&a, &e, &d);
                if (clock.span_usec != span) {
                        unsigned turns = 0;

                        for (uint64_t turn = start; turn <= clock.span_usec; turn += 5 * SEC)
                                turns += turn > span;
                        assert_int_equal(turns, 1);
                        span = clock.span_usec;
                        steps++;
                }
        }
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        assert_true(steps >= 10);
}

/*
 * Down at the floor from before the boost (1000 KiB/s) with the users still
 * short: the rate stays there, but between turns floor and ceiling go below
 * it, so that md sleeps there rather than running a little every half
 * second at its own floor. The band reaches a quarter of the rate.
 */
static void test_pacing_at_the_held_rate(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, least = UINT64_MAX;
        md_array a;

        (void)state;
        s.quiet_ms = 30000;
        t = steered_moving(&s, &a, &e, &clock, &last, &d);
        /* Users at 2048 of their 5120 KiB/s, step after step: 8000 down by 30 % each until the held rate. */
        for (; t < 200 && e.written[MD_T_SYNC_SPEED_MIN].value > 1000; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 2048, e.written[MD_T_SYNC_SPEED_MIN].value, &d);
                if (d.action == GOVERNOR_STEER) {
                        assert_true(d.value.value < e.written[MD_T_SYNC_SPEED_MIN].value);
                        assert_int_equal(d.pace_low, d.value.value / 4);
                }
                apply(&a, &e, &d);
        }
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_int_equal(e.pace_low, 250);
        assert_int_equal(e.pace_high, 4000);
        /*
         * The rebuild keeping to 1000 KiB/s in turns (5000 KiB at once every
         * 5 s), the users still short: the rate stays, and once a turn is
         * done floor and ceiling come below it.
         */
        for (uint64_t end = t + 60; t < end; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 2048, t % 5 == 0 ? 5000 : 0, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                if (d.action == GOVERNOR_PACE && d.value.value < least)
                        least = d.value.value;
                apply(&a, &e, &d);
        }
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_true(least < 1000 && least >= 250);
}

/*
 * Polls from @t to @end with the users at @kibs and the rebuild moving
 * @moved KiB a second, each decision applied, until one STEERs (left in @d,
 * not applied).
 */
static void until_steer(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                        uint64_t t, uint64_t end, uint64_t kibs, uint64_t moved, governor_decision *d) {
        for (d->action = GOVERNOR_WAIT; t <= end && d->action != GOVERNOR_STEER; t++) {
                poll_moved(s, a, e, clock, last, t, kibs, moved, d);
                if (d->action != GOVERNOR_STEER)
                        apply(a, e, d);
        }
}

/*
 * Users above their share while the rebuild moves at a quarter of its rate
 * (their requests make the disks seek between its reads): the rate stays,
 * and the explanation says how fast the rebuild moves. Once the
 * rebuild keeps to the rate, it goes up as before.
 */
static void test_rate_the_disks_allow(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        char why[512];
        md_array a;

        (void)state;
        /* Users at 8000 KiB/s, more than a fifth above their 5120; the rebuild at 2000 KiB/s. */
        for (t = steered_moving(&s, &a, &e, &clock, &last, &d); t <= 140; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 8000, 2000, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                apply(&a, &e, &d);
        }
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MAX].value, 8000);
        assert_int_equal(clock.rebuild_kibs, 2000);
        governor_explain(&s, e.fit, &clock, 50, 0, 8000, 0, 0, why, sizeof(why));
        assert_non_null(strstr(why, "it moves at only 2000 KiB/s;"));
        assert_int_equal(governor_moves_kibs(&clock, 0, 0, 8000), 2000); /* the page's figure */
        /* The rebuild keeps to its rate: up by a fifth at the next step. */
        until_steer(&s, &a, &e, &clock, &last, 141, 150, 8000, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 10100);
        governor_explain(&s, e.fit, &clock, 50, 0, 8000, 0, 0, why, sizeof(why));
        assert_null(strstr(why, "moves at only"));
        assert_int_equal(governor_moves_kibs(&clock, 0, 0, 8000), 0);
}

/*
 * md stopped by its own average after a quiet spell: the rebuild's position
 * stands still, and the users, far above their share over those steps,
 * raise neither the rate nor the page's "moves at only". Once the rebuild
 * keeps to its rate, the same users raise it.
 */
static void test_stalled_rebuild_raises_nothing(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        for (t = steered_moving(&s, &a, &e, &clock, &last, &d); t <= 134; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 12000, 0, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                apply(&a, &e, &d);
        }
        assert_true(clock.rebuild_stalled);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        assert_int_equal(governor_moves_kibs(&clock, 0, 0, 8000), 0);
        until_steer(&s, &a, &e, &clock, &last, t, 150, 12000, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 10100);
        assert_false(clock.rebuild_stalled);
}

/*
 * One step (5 s) at a time with the users at each of @kibs in turn and the
 * rebuild moving @moved KiB a second (0: keeping to its rate), each
 * decision applied; after each, the rate in @ret_rates and the stripe cache
 * in @ret_caches (either may be NULL).
 */
static uint64_t steps_of(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                         uint64_t t, const uint64_t *kibs, size_t n, uint64_t moved, uint64_t *ret_rates,
                         uint64_t *ret_caches) {
        governor_decision d;

        for (size_t i = 0; i < n; i++) {
                for (uint64_t end = t + 5; t < end; t++) {
                        poll_moved(s, a, e, clock, last, t, kibs[i],
                                   moved ? moved : e->written[MD_T_SYNC_SPEED_MIN].value, &d);
                        assert_int_not_equal(d.action, GOVERNOR_STOP);
                        apply(a, e, &d);
                }
                if (ret_rates)
                        ret_rates[i] = e->written[MD_T_SYNC_SPEED_MIN].value;
                if (ret_caches)
                        ret_caches[i] = a->tunables[MD_T_STRIPE_CACHE_SIZE].value;
        }
        return t;
}

/*
 * Polls from @t with the users at @kibs (0 for the first @stalled polls)
 * and the rebuild at @moved KiB a second, each decision applied, until one
 * writes the stripe cache (or 60 s pass): the stripe cache after it in
 * @ret_cache. Returns the time of the next poll.
 */
static uint64_t until_cache(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                            uint64_t t, uint64_t kibs, unsigned stalled, uint64_t moved, uint64_t *ret_cache) {
        governor_decision d;

        for (uint64_t end = t + 60; t < end; t++) {
                poll_moved(s, a, e, clock, last, t, stalled ? 0 : kibs, moved, &d);
                if (stalled)
                        stalled--;
                assert_int_not_equal(d.action, GOVERNOR_STOP);
                apply(a, e, &d);
                if (d.cache.kind != MD_V_ABSENT) {
                        *ret_cache = d.cache.value;
                        return t + 1;
                }
        }
        *ret_cache = a->tunables[MD_T_STRIPE_CACHE_SIZE].value;
        return t;
}

/*
 * Steering a raid5 whose boost chose its stripe cache (1024, from md's 256)
 * under users whose requests are always in flight, with room for @high
 * stripes: the time of the next poll.
 */
static uint64_t cache_steered(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                              uint64_t high, governor_decision *d) {
        uint64_t t = steered_moving(s, a, e, clock, last, d);

        a->level = MD_LEVEL_RAID5;
        e->cache_low = 1024;
        e->originals[MD_T_STRIPE_CACHE_SIZE] = num(256);
        e->written[MD_T_STRIPE_CACHE_SIZE] = a->tunables[MD_T_STRIPE_CACHE_SIZE] = num(1024);
        clock->cache_high = high;
        a->io_in_flight = num(32);
        return t;
}

/*
 * A raid5 whose boost chose its stripe cache (1024) under users whose
 * requests leave the rebuild a quarter of its rate: while they keep more
 * than their share the cache doubles up to what the memory budget allows
 * (8192), the rate staying; once they fall short it halves, and does not
 * grow back to where they were short. The step after each change is not
 * judged. An administrator's stripe cache ends
 * the governor; a cache a Boost option named is never touched.
 */
static void test_stripe_cache_lever(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, grown, cache, caches[4];
        char why[1024];
        md_array a;

        (void)state;
        t = cache_steered(&s, &a, &e, &clock, &last, 8192, &d);
        /*
         * 8000 KiB/s for their 5120 (requests always in flight), the
         * rebuild at 2000 of its 8000: the cache doubles on the second step
         * at each size, up to the budget; the step after it grew is md
         * filling it, not judged, though the users' requests waited through
         * it (stalled for its first 4 s).
         */
        grown = t;
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 2048);
        assert_true(t - grown >= 2 * 5 / 2);
        grown = t;
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 4, 2000, &cache);
        assert_int_equal(cache, 4096);
        assert_true(t - grown >= 3 * 5 / 2);
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 8192);
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 8192);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        assert_int_equal(e.earlier[MD_T_STRIPE_CACHE_SIZE].value, 4096);
        assert_int_equal(governor_grown_cache(&e), 8192);
        governor_explain(&s, e.fit, &clock, 50, 0, 8000, 0, governor_grown_cache(&e), why, sizeof(why));
        assert_non_null(strstr(why, "Its stripe cache is 8192 stripes"));
        /*
         * Short (4000 KiB/s), judged with the steps before at that size:
         * from the third, the cache halves; the rate the rebuild does not
         * reach stays. So it does when the budget has gone to other arrays
         * meanwhile.
         */
        clock.cache_high = 0;
        grown = t;
        t = until_cache(&s, &a, &e, &clock, &last, t, 4000, 0, 2000, &cache);
        assert_int_equal(cache, 4096);
        assert_true(t - grown >= 3 * 5 / 2);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        /*
         * The step after it halved is md's transition too: the rebuild's
         * I/O queued for the larger cache goes first, and the users
         * complete nothing in it. Not judged, it does not halve the cache
         * again; the users back above their share leave it at 4096.
         */
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 6, 2000, &cache);
        assert_int_equal(cache, 4096);
        /* Above their share again: not back to 8192, where they were short. */
        clock.cache_high = 8192;
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 4096);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        /*
         * The rebuild keeping to its rate: the users' 8000 raise it first (to
         * 10100); short then, cache and rate come down together.
         */
        t = until_cache(&s, &a, &e, &clock, &last, t, 4000, 0, 8000, &cache);
        assert_int_equal(cache, 2048);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 10100 - 3030);
        /* Down to the boost's own and no lower; then the rate alone. */
        t = until_cache(&s, &a, &e, &clock, &last, t, 4000, 0, 7070, &cache);
        assert_int_equal(cache, 1024);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 4949);
        for (d.action = GOVERNOR_WAIT; d.action != GOVERNOR_STEER && d.action != GOVERNOR_STOP; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, 4000, 4949, &d);
                apply(&a, &e, &d);
        }
        assert_int_equal(d.cache.kind, MD_V_ABSENT);
        assert_int_equal(a.tunables[MD_T_STRIPE_CACHE_SIZE].value, 1024);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 4949 - 4949 * 3 / 10);
        assert_int_equal(governor_grown_cache(&e), 0);
        governor_explain(&s, e.fit, &clock, 50, 0, 3465, 0, governor_grown_cache(&e), why, sizeof(why));
        assert_null(strstr(why, "stripe cache"));
        /* An administrator's stripe cache: the governor stops, nothing written. */
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(16384);
        poll_moved(&s, &a, &e, &clock, &last, t, 8000, 2000, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);

        /* A stripe cache a Boost option named (cache_low 0): the rate's rule alone, the cache stays. */
        clock = (governor_clock){ .fit_start_usec = 1 };
        last = 0;
        t = steered_moving(&s, &a, &e, &clock, &last, &d);
        a.level = MD_LEVEL_RAID5;
        e.written[MD_T_STRIPE_CACHE_SIZE] = a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(1024);
        clock.cache_high = 8192;
        steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 8000, 8000, 8000, 8000 }, 4, 2000, NULL, caches);
        assert_int_equal(caches[3], 1024);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
}

/*
 * Users whose requests wait through each of the stripe cache's transitions
 * (nothing completes in the step after it grew, their requests in flight)
 * and who get 7000 KiB/s of their 5120 in the steps judged: a larger cache
 * waits until their last minute, the transition in it, has the room above
 * their share that the steps judged have (above 6144), six steps at 7000
 * after the transition instead of two. Without stalls the account keeps
 * up with the steps judged (test_stripe_cache_lever).
 */
static void test_account_paces_growth(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, grown, cache, minute;
        unsigned held;
        char why[1024], got[64];
        md_array a;

        (void)state;
        t = cache_steered(&s, &a, &e, &clock, &last, 8192, &d);
        t = until_cache(&s, &a, &e, &clock, &last, t, 7000, 0, 2000, &cache);
        assert_int_equal(cache, 2048);
        grown = t;
        /* Until the cache grows again: the account begins to hold once, and that step says so, with the minute. */
        held = 0;
        cache = 0;
        for (unsigned stalled = 5; t < grown + 60 && !cache; t++) {
                poll_moved(&s, &a, &e, &clock, &last, t, stalled ? 0 : 7000, 2000, &d);
                stalled -= stalled > 0;
                apply(&a, &e, &d);
                if (d.cache.kind != MD_V_ABSENT)
                        cache = d.cache.value;
                if (d.minute_holds) {
                        held++;
                        assert_int_equal(d.target_kibs, 5120);
                        assert_int_equal(d.minute_kibs, governor_account_kibs(&clock, t * SEC));
                        assert_true(d.minute_kibs * 100 <= 5120 * 120);
                }
        }
        assert_int_equal(cache, 4096);
        assert_int_equal(held, 1);
        assert_true(t - grown >= 6 * 5);
        assert_true(governor_account_kibs(&clock, (t - 1) * SEC) * 100 > 5120 * 120);
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MIN].value, 8000);
        /* Stalled through the next transition too: the explanation says what holds the cache. */
        t = steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 0, 7000, 7000 }, 3, 2000, NULL, NULL);
        assert_int_equal(a.tunables[MD_T_STRIPE_CACHE_SIZE].value, 4096);
        governor_explain(&s, e.fit, &clock, 50, 0, 8000, 0, governor_grown_cache(&e), why, sizeof(why));
        assert_non_null(strstr(why, "The users get 7000 KiB/s"));
        assert_non_null(strstr(why, "Over the last minute, every step counted"));
        minute = governor_account_kibs(&clock, clock.account[clock.accounted - 1].end_usec);
        assert_true(minute * 100 <= 5120 * 120);
        snprintf(got, sizeof(got), "they got %" PRIu64 " KiB/s", minute);
        assert_non_null(strstr(why, got));
}

/*
 * A budget of an odd number of stripes (max's 15090): halved twice after
 * the users fell short at 15090 and at 7545, the cache does not grow back
 * to where they were last short, not even to one stripe under it.
 */
static void test_stripe_cache_odd_budget(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, cache;
        md_array a;

        (void)state;
        t = cache_steered(&s, &a, &e, &clock, &last, 15090, &d);
        for (uint64_t want = 2048; want <= 8192; want *= 2) {
                t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
                assert_int_equal(cache, want);
        }
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 15090);
        t = until_cache(&s, &a, &e, &clock, &last, t, 4000, 0, 2000, &cache);
        assert_int_equal(cache, 7545);
        t = until_cache(&s, &a, &e, &clock, &last, t, 4000, 0, 2000, &cache);
        assert_int_equal(cache, 3773);
        t = until_cache(&s, &a, &e, &clock, &last, t, 8000, 0, 2000, &cache);
        assert_int_equal(cache, 3773);
}

/*
 * The defaults with quiet_ms longer than a step (5 s), for the tests that
 * judge a quiet step within steering: at the default it lifts the ceiling.
 */
static profile_settings settings_quiet_step(void) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;

        s.quiet_ms = 10000;
        return s;
}

/* Polls @from to @to with the users at @kibs and the rebuild keeping to its rate, each decision applied. */
static void steps_at(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                     uint64_t from, uint64_t to, uint64_t kibs, governor_decision *d) {
        for (uint64_t t = from; t <= to; t++) {
                poll_moved(s, a, e, clock, last, t, kibs, e->written[MD_T_SYNC_SPEED_MIN].value, d);
                apply(a, e, d);
        }
}

/*
 * Users who move more than their baseline (10240) raise it only when two
 * steps in a row say so, to the lesser of the two; one step above it, or
 * one broken by a step within it or by quiet users, leaves it.
 */
static void test_baseline_grows_on_two_steps(void **state) {
        profile_settings s = settings_quiet_step();
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        t = steered_moving(&s, &a, &e, &clock, &last, &d);
        assert_int_equal(clock.baseline_kibs, 10240);
        /* One step at 16000, one within it: the baseline stays. */
        steps_at(&s, &a, &e, &clock, &last, t, t + 4, 16000, &d);
        assert_int_equal(clock.users_kibs, 16000);
        assert_int_equal(clock.baseline_kibs, 10240);
        steps_at(&s, &a, &e, &clock, &last, t + 5, t + 9, 6000, &d);
        /* Over twice their share, the first raised the rate at once: the second is the first at the new rate. */
        assert_int_equal(clock.users_kibs, 6000);
        assert_int_equal(clock.baseline_kibs, 10240);
        /* Above it, then quiet (100 KiB/s), then above it again: still the same. */
        steps_at(&s, &a, &e, &clock, &last, t + 10, t + 14, 14000, &d);
        steps_at(&s, &a, &e, &clock, &last, t + 15, t + 19, 100, &d);
        steps_at(&s, &a, &e, &clock, &last, t + 20, t + 24, 13000, &d);
        assert_int_equal(clock.users_kibs, 13000);
        assert_int_equal(clock.baseline_kibs, 10240);
        /* The next step above it too: the lesser of the two. */
        steps_at(&s, &a, &e, &clock, &last, t + 25, t + 29, 14000, &d);
        assert_int_equal(clock.users_kibs, 14000);
        assert_int_equal(clock.baseline_kibs, 13000);
        /* And on while they stay above it. */
        steps_at(&s, &a, &e, &clock, &last, t + 30, t + 34, 15000, &d);
        assert_int_equal(clock.baseline_kibs, 14000);
}

/*
 * The users' throughput is judged over the steps since the rate was set
 * (three at most): one step moves the rate only when the users were far
 * from their 5120 KiB/s (under 70 % or over twice it); a quiet step starts
 * the count again.
 */
static void test_judged_over_steps(void **state) {
        profile_settings s = settings_quiet_step();
        governor_clock clock = { .fit_start_usec = 1 };
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, rates[9];
        md_array a;

        (void)state;
        t = steered_moving(&s, &a, &e, &clock, &last, &d);
        /* A step a little short waits for a second; two short ones lower 8000 by 30 %. */
        t = steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 4500, 4500 }, 2, 0, rates, NULL);
        assert_int_equal(rates[0], 8000);
        assert_int_equal(clock.users_kibs, 4500);
        assert_int_equal(rates[1], 5600);
        /* Far short in the first step at the new rate: down at once. */
        t = steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 3000 }, 1, 0, rates, NULL);
        assert_int_equal(rates[0], 3920);
        /*
         * A step far above the share raises nothing alone. The means that
         * follow (6000 over two steps, then 5866 and 6000 over the last
         * three) stay within a fifth above it, though all four steps' (6250)
         * would not; the next three's (6800) do not. But the users' last
         * minute holds the short steps too, and has the same room (above
         * 6144) only once it has held five more steps at 7400.
         */
        t = steps_of(&s, &a, &e, &clock, &last, t,
                     (const uint64_t[]){ 7000, 5000, 5600, 7400, 7400, 7400, 7400, 7400, 7400 }, 9, 0, rates, NULL);
        for (size_t i = 0; i < 8; i++)
                assert_int_equal(rates[i], 3920);
        assert_int_equal(clock.users_kibs, 7400);
        assert_true(governor_account_kibs(&clock, (t - 1) * SEC) * 100 > 5120 * 120);
        assert_int_equal(rates[8], 3920 + 784 + 500);
        /* A quiet step between two a little short: neither counts with the other. */
        t = steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 4500, 100, 4500, 4500 }, 4, 0, rates, NULL);
        assert_int_equal(rates[2], 5204);
        assert_int_equal(rates[3], 5204 - 5204 * 3 / 10);
        /* Over twice their share in the first step at the new rate: up at once. */
        steps_of(&s, &a, &e, &clock, &last, t, (const uint64_t[]){ 10241 }, 1, 0, rates, NULL);
        assert_int_equal(rates[0], 3643 + 3643 / 5 + 500);
}

/* While steering, the baseline is learnt again every relearn_ms; a share given with the boost counts. */
static void test_relearn_and_share(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        boosted(&a, &e);
        e.fit = GOVERNOR_FREE;
        e.users_share = 80;
        e.written[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MIN] = loc(20000);
        poll_at(&s, &a, &e, &clock, &last, 10, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 11, 4096, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        apply(&a, &e, &d);
        for (t = 12; t <= 21; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 4096, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.target_kibs, 4096 * 80 / 100);
        assert_int_equal(d.value.value, 4000); /* 20 % of 20000 */
        apply(&a, &e, &d);
        for (t = 22; t < 321; t++) {
                poll_at(&s, &a, &e, &clock, &last, t, 3300, &d);
                assert_int_not_equal(d.action, GOVERNOR_LEARN);
                apply(&a, &e, &d);
        }
        poll_at(&s, &a, &e, &clock, &last, 321, 3300, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        assert_int_equal(d.value.value, 1000);
        assert_int_equal(d.replaced_floor.value, 4000);
        apply(&a, &e, &d);
        /* Learnt again, it resumes at the rate it had. */
        for (t = 322; t <= 331; t++)
                poll_at(&s, &a, &e, &clock, &last, t, 3300, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 4000);
}

/* An administrator's limit ends the following, nothing written; so does a ceiling with no room above the held rate. */
static void test_admin_limit_stops(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0;
        md_array a;

        (void)state;
        boosted(&a, &e);
        e.fit = GOVERNOR_FREE;
        poll_at(&s, &a, &e, &clock, &last, 1, 0, &d);
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(90000);
        poll_at(&s, &a, &e, &clock, &last, 2, 20480, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);
        assert_int_equal(d.next, GOVERNOR_DONE);
        /* The floor changed while steering. */
        boosted(&a, &e);
        e.fit = GOVERNOR_STEERING;
        e.written[MD_T_SYNC_SPEED_MIN] = e.written[MD_T_SYNC_SPEED_MAX] = loc(8000);
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(8000);
        a.tunables[MD_T_SYNC_SPEED_MIN] = sys(1000);
        clock = (governor_clock){};
        last = 0;
        poll_at(&s, &a, &e, &clock, &last, 1, 0, &d);
        poll_at(&s, &a, &e, &clock, &last, 2, 20480, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);
        /* A crash between the journal and the write leaves the value it replaced: still the boost's. */
        e.earlier[MD_T_SYNC_SPEED_MIN] = sys(1000);
        poll_at(&s, &a, &e, &clock, &last, 3, 20480, &d);
        assert_int_not_equal(d.action, GOVERNOR_STOP);
}

/* After a restart a steering boost counts its users as busy from the first read and learns them again. */
static void test_steering_after_restart(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0;
        md_array a;

        (void)state;
        s.quiet_ms = 30000;
        boosted(&a, &e);
        e.fit = governor_state_from_string("held");
        e.written[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MIN] = loc(16000);
        e.written[MD_T_SYNC_SPEED_MAX] = a.tunables[MD_T_SYNC_SPEED_MAX] = loc(16000);
        e.earlier[MD_T_SYNC_SPEED_MAX] = loc(200000);
        e.lift_ceiling = loc(200000);
        poll_at(&s, &a, &e, &clock, &last, 500, 0, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        poll_at(&s, &a, &e, &clock, &last, 501, 0, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        apply(&a, &e, &d);
        /* Quiet all along: after quiet_ms the ceiling lifts to the boost's own. */
        poll_at(&s, &a, &e, &clock, &last, 520, 0, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        poll_at(&s, &a, &e, &clock, &last, 531, 0, &d);
        assert_int_equal(d.action, GOVERNOR_LIFT);
        assert_int_equal(d.value.value, 200000);
        /* OFF and DONE follow nothing. */
        e.fit = GOVERNOR_DONE;
        governor_step(&s, &a, &e, &clock, 600 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

/*
 * Counters that cannot be read tell nothing: a governor held back for busy
 * users keeps its rate through them, however long, and goes on from the
 * next read that works; an admin's change still ends it.
 */
static void test_unreadable_counters(void **state) {
        const md_tval unknown = { .kind = MD_V_UNKNOWN };
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        s.quiet_ms = 30000;
        boosted(&a, &e);
        e.fit = GOVERNOR_STEERING;
        e.written[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MIN] = loc(16000);
        e.written[MD_T_SYNC_SPEED_MAX] = a.tunables[MD_T_SYNC_SPEED_MAX] = loc(16000);
        e.earlier[MD_T_SYNC_SPEED_MAX] = loc(200000);
        e.lift_ceiling = loc(200000);
        /* Right after a restart, and for longer than quiet_ms: nothing lifts. */
        a.io_sectors = unknown;
        for (t = 500; t <= 540; t++) {
                governor_step(&s, &a, &e, &clock, t * SEC, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        /* Readable again, the users busy: the governor learns them (a rebuild held back counts them busy). */
        a.io_sectors = num(0);
        last = 0;
        poll_at(&s, &a, &e, &clock, &last, 541, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        poll_at(&s, &a, &e, &clock, &last, 542, 8000, &d);
        assert_int_equal(d.action, GOVERNOR_LEARN);
        apply(&a, &e, &d);
        /* Unreadable for a minute in the middle of the learn: still no lift. */
        a.io_sectors = unknown;
        for (t = 543; t <= 603; t++) {
                governor_step(&s, &a, &e, &clock, t * SEC, &d);
                assert_int_not_equal(d.action, GOVERNOR_LIFT);
        }
        /* The admin's own ceiling while unreadable: the governor stops. */
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(90000);
        governor_step(&s, &a, &e, &clock, 604 * SEC, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

/* md's counters to a latency, and one rung of the ladder at a time. */
static void test_latency_ladder(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        journal_entry e = {};
        governor_rung r;

        (void)state;
        /* 100 requests taking 2 s in all: 20 ms each on average, 40 ms at the 99th percentile. */
        assert_int_equal(governor_latency_us(100, 2000), 40000);
        assert_int_equal(governor_latency_us(GOVERNOR_LATENCY_MIN_REQUESTS - 1, 2000), 0);
        assert_int_equal(governor_latency_us(8, 0), 0);

        /* The bound: the boost's own; else the configuration's unless the boost said a share. */
        assert_int_equal(governor_bound_ms(&s, &e), 0);
        s.users_latency_ms = 50;
        assert_int_equal(governor_bound_ms(&s, &e), 50);
        e.users_share = 80;
        assert_int_equal(governor_bound_ms(&s, &e), 0);
        e.users_share = 0;
        e.users_latency_ms = 20;
        assert_int_equal(governor_bound_ms(&s, &e), 20);

        /* Its name, for rates kept under it: the boost's target, else the configuration's. */
        {
                char name[GOVERNOR_TARGET_NAME_MAX];
                profile_settings share = PROFILE_SETTINGS_DEFAULT;
                journal_entry f = { .users_share = 80 };

                governor_target_name(&s, &e, name);
                assert_string_equal(name, "20ms");
                governor_target_name(&s, NULL, name);
                assert_string_equal(name, "50ms");
                governor_target_name(&s, &f, name);
                assert_string_equal(name, "80%");
                governor_target_name(&share, NULL, name);
                assert_string_equal(name, "50%");
        }

        /* Yielding with md's depth, past the bound: the depth halves first, down to 1 ... */
        r = (governor_rung){ .rate = 200000, .depth = 32 };
        assert_true(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.depth, 16);
        assert_int_equal(r.rate, 200000);
        assert_false(r.pacing);
        r.depth = 1;
        /* ... then the ceiling comes down by 30 %, never below the held rate. */
        assert_true(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 140000);
        assert_int_equal(r.depth, 1);
        r.rate = 1100;
        assert_true(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 1000);
        assert_false(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        /* Within 10 % of the bound: nothing moves. */
        r.rate = 5000;
        assert_false(governor_next_level(43000, 40, 1000, 200000, 32, 5000, &r));
        assert_false(governor_next_level(37000, 40, 1000, 200000, 32, 5000, &r));
        /* Under it: the ceiling goes up first, to the boost's ... */
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 6500);
        assert_int_equal(r.depth, 1);
        r.rate = 190000;
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 200000);
        /* ... then the depth doubles, up to md's ... */
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.depth, 2);
        r.depth = 24;
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.depth, 32);
        assert_false(r.pacing);
        /* ... then it paces, from a fifth above what md reached yielding (5000 KiB/s). */
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_true(r.pacing);
        assert_int_equal(r.rate, 6500);
        assert_int_equal(r.depth, 32);
        assert_true(governor_next_level(20000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 8300);
        /* Pacing, past the bound: the rate comes down, and back to yielding once no faster than md's own. */
        assert_true(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        assert_int_equal(r.rate, 5810);
        assert_true(r.pacing);
        assert_true(governor_next_level(60000, 40, 1000, 200000, 32, 5000, &r));
        assert_false(r.pacing);
        assert_int_equal(r.rate, 200000);
        assert_int_equal(r.depth, 32);
        /* Without sync_io_depth (0) every rung paces and only the rate moves. */
        r = (governor_rung){ .rate = 10000 };
        assert_true(governor_next_level(60000, 40, 1000, 200000, 0, 0, &r));
        assert_int_equal(r.rate, 7000);
        assert_int_equal(r.depth, 0);
        assert_true(r.pacing);
        r.rate = 200000;
        assert_false(governor_next_level(20000, 40, 1000, 200000, 0, 0, &r));
}

/* One poll at @t seconds: the users completed @iops requests a second, each taking @ms, moving 4 KiB each. */
static void poll_io(const profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock, uint64_t *last,
                    uint64_t t, uint64_t iops, uint64_t ms, governor_decision *d) {
        if (*last) {
                a->io_sectors.value += iops * 8 * (t - *last);
                a->io_requests.value += iops * (t - *last);
                a->io_wait_ms.value += iops * ms * (t - *last);
        }
        *last = t;
        governor_step(s, a, e, clock, t * SEC, d);
}

/*
 * A latency bound on a kernel with sync_io_depth: random 4 KiB readers (few
 * KiB/s, many requests) count as busy; the rebuild gets md's depth, then
 * fewer requests in flight, the floor staying at the original.
 */
static void test_bound_with_depth(void **state) {
        profile_settings s = settings_quiet_step();
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        boosted(&a, &e);
        e.fit = GOVERNOR_FREE;
        e.users_latency_ms = 40;
        e.written[MD_T_SYNC_SPEED_MIN] = a.tunables[MD_T_SYNC_SPEED_MIN] = loc(16000);
        a.tunables[MD_T_SYNC_IO_DEPTH] = sys(32);
        a.io_requests = num(0);
        a.io_wait_ms = num(0);
        poll_io(&s, &a, &e, &clock, &last, 10, 0, 0, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* 50 requests a second of 4 KiB: 200 KiB/s, busy all the same. Steered at once, nothing learnt. */
        poll_io(&s, &a, &e, &clock, &last, 11, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.next, GOVERNOR_STEERING);
        assert_int_equal(d.floor.value, 1000);
        assert_int_equal(d.value.value, 200000);
        assert_int_equal(d.depth.kind, MD_V_LOCAL);
        assert_int_equal(d.depth.value, 32);
        assert_int_equal(d.bound_ms, 40);
        apply(&a, &e, &d);
        assert_int_equal(e.originals[MD_T_SYNC_IO_DEPTH].kind, MD_V_SYSTEM);
        /* 30 ms each: about 60 ms at the 99th percentile, past 40: half the depth after a step. */
        for (t = 12; t < 16; t++) {
                poll_io(&s, &a, &e, &clock, &last, t, 50, 30, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        poll_io(&s, &a, &e, &clock, &last, 16, 50, 30, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.latency_us, 60000);
        assert_int_equal(d.depth.value, 16);
        assert_int_equal(d.value.value, 200000);
        apply(&a, &e, &d);
        /* 10 ms each: 20 ms, well under, for one step: the rung stays until a second step says the same ... */
        for (t = 17; t <= 21; t++) {
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
                assert_int_equal(d.action, GOVERNOR_WAIT);
        }
        /* ... then, the ceiling already the boost's, the depth doubles back. */
        for (t = 22; t <= 26; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.depth.value, 32);
        apply(&a, &e, &d);
        /* Still well under at md's own depth: it paces, floor and ceiling a fifth above md's 20000 KiB/s. */
        for (t = 27; t <= 36; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 24500);
        assert_int_equal(d.floor.value, 24500);
        assert_false(governor_writes_depth(&d));
        apply(&a, &e, &d);
        assert_true(clock.pacing);
        assert_int_equal(clock.yield_kibs, 20000);
        /* Under the bound, pacing climbs: a fifth (and 500) every two steps. md keeps to the paced rate. */
        a.sync_speed = num(24500);
        for (t = 37; t <= 46; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 29900);
        apply(&a, &e, &d);
        a.sync_speed = num(29900);
        /* A step under, one within the band: the count starts again. */
        for (t = 47; t <= 51; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        for (t = 52; t <= 56; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 20, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        for (t = 57; t <= 61; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        for (t = 62; t <= 66; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
        assert_int_equal(d.value.value, 36380);
        apply(&a, &e, &d);
        /* Past it: down by 30 % at once while that stays above what md reached yielding ... */
        a.sync_speed = num(36380);
        for (t = 67; t <= 71; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 30, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 25466);
        assert_int_equal(d.floor.value, 25466);
        assert_true(clock.pacing);
        apply(&a, &e, &d);
        /* ... then back to md's yielding at its own depth under the boost's ceiling. */
        a.sync_speed = num(25466);
        for (t = 72; t <= 76; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 30, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 200000);
        assert_int_equal(d.floor.value, 1000);
        assert_int_equal(d.depth.value, 32);
        assert_false(clock.pacing);
        apply(&a, &e, &d);
        /* Too few requests in a step to judge: nothing moves. */
        for (t = 77; t <= 81; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 1, 500, &d);
        assert_int_equal(d.action, GOVERNOR_WAIT);
        /* An administrator's sync_io_depth ends the following. */
        a.tunables[MD_T_SYNC_IO_DEPTH] = loc(4);
        poll_io(&s, &a, &e, &clock, &last, 82, 50, 30, &d);
        assert_int_equal(d.action, GOVERNOR_STOP);
        assert_int_equal(d.next, GOVERNOR_DONE);
}

/*
 * A latency bound of 40 ms in the configuration before 6.16 (no depth), a
 * fitted floor of 16000: users busy at 11 s are steered at once, floor and
 * ceiling at half that floor.
 */
static void bound_steered_without_depth(profile_settings *s, md_array *a, journal_entry *e, governor_clock *clock,
                                        uint64_t *last, governor_decision *d) {
        s->users_latency_ms = 40;
        boosted(a, e);
        e->fit = GOVERNOR_FREE;
        e->written[MD_T_SYNC_SPEED_MIN] = a->tunables[MD_T_SYNC_SPEED_MIN] = loc(16000);
        a->io_requests = num(0);
        a->io_wait_ms = num(0);
        poll_io(s, a, e, clock, last, 10, 0, 0, d);
        poll_io(s, a, e, clock, last, 11, 50, 30, d);
        assert_int_equal(d->action, GOVERNOR_STEER);
        assert_int_equal(d->value.value, 8000);
}

/* A latency bound before 6.16: floor and ceiling at one rate, which comes down while the users wait too long. */
static void test_bound_without_depth(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        md_array a;

        (void)state;
        bound_steered_without_depth(&s, &a, &e, &clock, &last, &d);
        assert_int_equal(d.floor.value, 8000);
        assert_int_equal(d.depth.kind, MD_V_ABSENT);
        assert_false(governor_writes_depth(&d));
        apply(&a, &e, &d);
        for (t = 12; t <= 16; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 50, 30, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 5600);
        assert_int_equal(d.floor.value, 5600);
        apply(&a, &e, &d);
        /* Quiet: the ceiling lifts; back busy, steered from the last rung. */
        for (t = 17; t <= 30; t++)
                poll_io(&s, &a, &e, &clock, &last, t, 0, 0, &d);
        assert_int_equal(e.fit, GOVERNOR_STEERING);
        apply(&a, &e, &d);
        for (t = 31; t <= 40 && e.fit == GOVERNOR_STEERING; t++) {
                poll_io(&s, &a, &e, &clock, &last, t, 0, 0, &d);
                apply(&a, &e, &d);
        }
        assert_int_equal(e.fit, GOVERNOR_FREE);
        assert_int_equal(a.tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        clock.position_known = true; /* from here on, as /proc/mdstat shows it */
        poll_io(&s, &a, &e, &clock, &last, t + 1, 50, 10, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 5600);
        apply(&a, &e, &d);
        /* Well under the bound, but the rebuild moves at 1000 KiB/s, not 5600: the rung stays. */
        for (t += 2; t <= 70; t++) {
                clock.position_kib += 1000;
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                apply(&a, &e, &d);
        }
        assert_int_equal(e.written[MD_T_SYNC_SPEED_MAX].value, 5600);
        /* Keeping to it, it climbs by a fifth. */
        for (; t <= 80 && d.action != GOVERNOR_STEER; t++) {
                clock.position_kib += 5600;
                poll_io(&s, &a, &e, &clock, &last, t, 50, 10, &d);
                if (d.action != GOVERNOR_STEER)
                        apply(&a, &e, &d);
        }
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.value.value, 7220);
}

/*
 * A latency bound before 6.16 and a user who completes a request every 3 s,
 * each taking 600 ms, one always in flight: too few in a step to judge, so
 * the span runs on, and after GOVERNOR_LATENCY_SPAN_STEPS steps the few
 * there are bring the rung down.
 */
static void test_bound_slow_user(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t, span_end;
        md_array a;

        (void)state;
        bound_steered_without_depth(&s, &a, &e, &clock, &last, &d);
        a.io_in_flight = num(1);
        apply(&a, &e, &d);
        span_end = 11 + GOVERNOR_LATENCY_SPAN_STEPS * s.step_ms / 1000;
        for (t = 12; t < span_end; t++) {
                if (t % 3 == 0) {
                        a.io_sectors.value += 2048;
                        a.io_requests.value++;
                        a.io_wait_ms.value += 600;
                }
                poll_io(&s, &a, &e, &clock, &last, t, 0, 0, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
                assert_int_equal(e.fit, GOVERNOR_STEERING);
        }
        assert_true(a.io_requests.value - 50 < GOVERNOR_LATENCY_MIN_REQUESTS);
        poll_io(&s, &a, &e, &clock, &last, span_end, 0, 0, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.latency_us, 1200000);
        assert_int_equal(d.value.value, 5600);
        assert_int_equal(d.floor.value, 5600);
}

/*
 * A latency bound before 6.16 and users whose requests take 5 ms, but for
 * one second in the step when they took 100 ms: a disk's own queue passed
 * them over. Twice the step's mean (about 15 ms) is well under the bound;
 * the slowest second's mean is over it, and the rung comes down. The next
 * step starts afresh: twice its mean again.
 */
static void test_bound_slowest_second(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = {};
        governor_decision d;
        journal_entry e;
        uint64_t last = 0, t;
        char buf[512];
        md_array a;

        (void)state;
        bound_steered_without_depth(&s, &a, &e, &clock, &last, &d);
        apply(&a, &e, &d);
        for (t = 12; t <= 16; t++)
                poll_io(&s, &a, &e, &clock, &last, t, t == 14 ? 5 : 50, t == 14 ? 100 : 5, &d);
        assert_int_equal(d.action, GOVERNOR_STEER);
        assert_int_equal(d.latency_us, 100000);
        assert_true(d.latency_slowest);
        assert_int_equal(d.value.value, 5600);
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 40, 5600, 0, 0, buf, sizeof(buf));
        assert_non_null(strstr(buf, "about 100.0 ms at the 99th percentile (the slowest second's mean)"));
        apply(&a, &e, &d);
        for (t = 17; t <= 21; t++) {
                poll_io(&s, &a, &e, &clock, &last, t, 50, 5, &d);
                assert_int_not_equal(d.action, GOVERNOR_STEER);
        }
        assert_int_equal(clock.latency_us, 10000);
        assert_false(clock.latency_slowest);
}

/* Whether the explanation of steering at @rate says the governor goes no lower. */
static bool says_no_lower(const profile_settings *s, const governor_clock *clock, uint64_t rate) {
        char buf[512];

        governor_explain(s, GOVERNOR_STEERING, clock, 50, 0, rate, 0, 0, buf, sizeof(buf));
        /* The page's floor_held says the same. */
        assert_int_equal(governor_floor_held(clock, 50, rate), strstr(buf, "goes no lower") != NULL);
        return strstr(buf, "goes no lower") != NULL;
}

/* The sentence the Governor property carries names what was measured and set. */
static void test_explain(void **state) {
        profile_settings s = PROFILE_SETTINGS_DEFAULT;
        governor_clock clock = { .learnt_usec = 1, .baseline_kibs = 10240, .users_kibs = 4000 };
        char buf[512];

        (void)state;
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 0, 5600, 0, 0, buf, sizeof(buf));
        assert_string_equal(buf, "The users get 4000 KiB/s; alone they get 10240 KiB/s, and they keep 50 % of it "
                                 "(5120 KiB/s). The rebuild runs at 5600 KiB/s.");
        /* Down at the floor from before the boost and the users still short: why it goes no lower. */
        clock.held_kibs = 1000;
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 0, 1000, 0, 0, buf, sizeof(buf));
        assert_string_equal(buf, "The users get 4000 KiB/s; alone they get 10240 KiB/s, and they keep 50 % of it "
                                 "(5120 KiB/s). The rebuild runs at 1000 KiB/s. That is the floor the array had "
                                 "before the boost, and the governor goes no lower, or the rebuild would run slower "
                                 "than without the boost: the users get less than their share. To give them more, "
                                 "restore, lower sync_speed_min and boost again.");
        /* Short by a KiB/s there: said. Their share kept there, or above the floor: nothing to say. */
        clock.users_kibs = 5119;
        assert_true(says_no_lower(&s, &clock, 1000));
        clock.users_kibs = 5120;
        assert_false(says_no_lower(&s, &clock, 1000));
        clock.users_kibs = 6000;
        assert_false(says_no_lower(&s, &clock, 1000));
        clock.users_kibs = 4000;
        assert_false(says_no_lower(&s, &clock, 1001));
        clock.held_kibs = 0;
        governor_explain(&s, GOVERNOR_LEARNING, NULL, 50, 0, 1000, 0, 0, buf, sizeof(buf));
        assert_non_null(strstr(buf, "held back to 1000 KiB/s for 10 to 20 s"));
        governor_explain(&s, GOVERNOR_STEERING, NULL, 50, 0, 5600, 0, 0, buf, sizeof(buf));
        assert_non_null(strstr(buf, "measured again shortly"));
        governor_explain(&s, GOVERNOR_OFF, NULL, 50, 0, 0, 0, 0, buf, sizeof(buf));
        assert_string_equal(buf, "");
        /* A latency bound: what was measured against it, and the depth set. */
        clock.latency_us = 61200;
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 40, 200000, 16, 0, buf, sizeof(buf));
        assert_string_equal(buf, "The users' requests take about 61.2 ms at the 99th percentile (twice md's mean); "
                                 "the bound is 40 ms. The rebuild runs at up to 200000 KiB/s, with at most 16 of its "
                                 "requests in flight.");
        /* Yielding, md holds itself back below the ceiling: nothing said of how fast the rebuild moves. */
        clock.rebuild_kibs = 3000;
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 40, 200000, 16, 0, buf, sizeof(buf));
        assert_null(strstr(buf, "moves at only"));
        /* Paced at 5600 and moving at 3000: said. */
        clock.pacing = true;
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 40, 5600, 16, 0, buf, sizeof(buf));
        assert_non_null(
                strstr(buf, "it moves at only 3000 KiB/s; the rate goes up again once the rebuild keeps to it."));
        clock.pacing = false;
        clock.rebuild_kibs = 0;
        governor_explain(&s, GOVERNOR_FREE, NULL, 50, 40, 16000, 0, 0, buf, sizeof(buf));
        assert_non_null(strstr(buf, "their requests' 99th percentile stays under 40 ms"));
        /* Paced: said so. */
        clock.latency_us = 0;
        pacer_sample_at(&clock.pacer, 5 * SEC, 1000);
        pacer_start(&clock.pacer, 5600, 0);
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 0, 5600, 0, 0, buf, sizeof(buf));
        assert_string_equal(buf, "The users get 4000 KiB/s; alone they get 10240 KiB/s, and they keep 50 % of it "
                                 "(5120 KiB/s). The rebuild runs at 5600 KiB/s. md is paced to it second by second "
                                 "(floor and ceiling move around it), so it does not catch up on its 30-s average in "
                                 "bursts.");
        /* Paced in turns, as a share's steps are: said so, with the turn's length. */
        pacer_start(&clock.pacer, 5600, 5 * SEC);
        governor_explain(&s, GOVERNOR_STEERING, &clock, 50, 0, 5600, 0, 0, buf, sizeof(buf));
        assert_non_null(strstr(buf, "The rebuild runs at 5600 KiB/s. md is paced to it in turns of 5 s: it runs each "
                                    "turn's share at once, then sleeps (floor and ceiling move around it), so the "
                                    "disks leave the users once a turn."));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_fit_floor),
                cmocka_unit_test(test_users_busy),
                cmocka_unit_test(test_users_waiting),
                cmocka_unit_test(test_busy_limits_configured),
                cmocka_unit_test(test_states_words),
                cmocka_unit_test(test_on_boost),
                cmocka_unit_test(test_fit_after_span),
                cmocka_unit_test(test_fit_waits_for_rate),
                cmocka_unit_test(test_fit_keeps),
                cmocka_unit_test(test_busy_users_end_fit),
                cmocka_unit_test(test_next_rate),
                cmocka_unit_test(test_learn_steer_lift),
                cmocka_unit_test(test_waiting_users_are_busy),
                cmocka_unit_test(test_learn_after_settling),
                cmocka_unit_test(test_learn_waits_for_stalled_users),
                cmocka_unit_test(test_pacing),
                cmocka_unit_test(test_pacing_at_the_held_rate),
                cmocka_unit_test(test_steps_hold_whole_turns),
                cmocka_unit_test(test_rate_the_disks_allow),
                cmocka_unit_test(test_stalled_rebuild_raises_nothing),
                cmocka_unit_test(test_stripe_cache_lever),
                cmocka_unit_test(test_stripe_cache_odd_budget),
                cmocka_unit_test(test_baseline_grows_on_two_steps),
                cmocka_unit_test(test_judged_over_steps),
                cmocka_unit_test(test_account_paces_growth),
                cmocka_unit_test(test_relearn_and_share),
                cmocka_unit_test(test_admin_limit_stops),
                cmocka_unit_test(test_steering_after_restart),
                cmocka_unit_test(test_unreadable_counters),
                cmocka_unit_test(test_latency_ladder),
                cmocka_unit_test(test_bound_with_depth),
                cmocka_unit_test(test_bound_without_depth),
                cmocka_unit_test(test_bound_slow_user),
                cmocka_unit_test(test_bound_slowest_second),
                cmocka_unit_test(test_explain),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
