/* SPDX-License-Identifier: MIT */
/*
 * The pacer against a model of md's rate control: ten marks 3 s apart, the
 * rebuild at the disks' speed while its progress since the oldest mark,
 * over the whole seconds since then plus one, is at most the floor, asleep
 * for 500 ms at a time while it is above the ceiling (md_do_sync).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pacer.h"

#define SEC 1000000ull
#define TICK 10000ull /* the model's step, µs */
#define MARKS 10
#define MARK_STEP (3 * SEC)

typedef struct md_model {
        uint64_t usec;
        double kib;          /* position */
        uint64_t disks_kibs; /* what the disks give the rebuild when it runs */
        uint64_t mark_usec[MARKS];
        double mark_kib[MARKS];
        unsigned last;        /* the newest mark */
        uint64_t oldest_usec; /* md's resync_mark */
        double oldest_kib;
        uint64_t asleep_until;
        uint64_t limit; /* floor = ceiling, KiB/s */
        bool ran;       /* the last tick moved the rebuild */
        unsigned turns; /* ticks that moved it after one that did not: the disks turned to it */
} md_model;

static void md_start(md_model *m, uint64_t disks_kibs, uint64_t limit) {
        *m = (md_model){ .disks_kibs = disks_kibs, .limit = limit };
}

static void md_run(md_model *m, uint64_t usec) {
        for (uint64_t end = m->usec + usec; m->usec < end; m->usec += TICK) {
                uint64_t currspeed;

                if (m->usec < m->asleep_until) {
                        m->ran = false;
                        continue;
                }
                if (m->usec >= m->mark_usec[m->last] + MARK_STEP) {
                        unsigned next = (m->last + 1) % MARKS;

                        m->oldest_usec = m->mark_usec[next];
                        m->oldest_kib = m->mark_kib[next];
                        m->mark_usec[next] = m->usec;
                        m->mark_kib[next] = m->kib;
                        m->last = next;
                }
                currspeed = (uint64_t)(m->kib - m->oldest_kib) / ((m->usec - m->oldest_usec) / SEC + 1) + 1;
                if (currspeed > m->limit) {
                        m->asleep_until = m->usec + SEC / 2;
                        m->ran = false;
                        continue;
                }
                m->kib += (double)m->disks_kibs * TICK / SEC;
                m->turns += !m->ran;
                m->ran = true;
        }
}

/*
 * @seconds of polls, one a second: with @p the pacer's limit is written,
 * without it the limit stays. The rebuild's progress in each 3 s goes to
 * @steps.
 */
static void poll_for(md_model *m, pacer *p, unsigned seconds, uint64_t low, uint64_t high, double *steps) {
        double start = m->kib;

        for (unsigned s = 0; s < seconds; s++) {
                uint64_t w;

                if (p) {
                        pacer_sample_at(p, m->usec, (uint64_t)m->kib);
                        if (pacer_limit(p, low, high, &w) == 0)
                                m->limit = w;
                }
                md_run(m, SEC);
                if (steps && (s + 1) % 3 == 0) {
                        steps[s / 3] = m->kib - start;
                        start = m->kib;
                }
        }
}

/* The largest and smallest progress in @n steps of 3 s. */
static void spread(const double *steps, unsigned n, double *ret_min, double *ret_max) {
        *ret_min = *ret_max = steps[0];
        for (unsigned i = 1; i < n; i++) {
                if (steps[i] < *ret_min)
                        *ret_min = steps[i];
                if (steps[i] > *ret_max)
                        *ret_max = steps[i];
        }
}

/* What the rebuild did over 5 minutes. */
typedef struct run_figures {
        double lo, hi;  /* the least and the most it moved in any 3 s, in multiples of the rate */
        double mean;    /* its mean rate, in multiples of the rate */
        unsigned turns; /* how often md went from sleeping to running */
} run_figures;

/*
 * After a step down from the disks' speed to @rate, what the rebuild did
 * over 5 minutes, 10 minutes on: paced (@paced, in slices of @slice_usec or
 * evenly) or with floor and ceiling left at the rate.
 */
static void after_step_down(uint64_t disks, uint64_t rate, bool paced, uint64_t slice_usec, run_figures *ret) {
        uint64_t band_low, band_high;
        double steps[100], before;
        unsigned turns;
        md_model m;
        pacer p = {};

        pacer_band(rate, 1000, 200000, &band_low, &band_high);
        md_start(&m, disks, 200000);
        for (unsigned s = 0; s < 60; s++) {
                pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
                md_run(&m, SEC);
        }
        m.limit = rate;
        if (paced) {
                pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
                pacer_start(&p, rate, slice_usec);
        }
        poll_for(&m, paced ? &p : NULL, 600, band_low, band_high, NULL);
        before = m.kib;
        turns = m.turns;
        poll_for(&m, paced ? &p : NULL, 300, band_low, band_high, steps);
        spread(steps, 100, &ret->lo, &ret->hi);
        ret->lo /= 3.0 * (double)rate;
        ret->hi /= 3.0 * (double)rate;
        ret->mean = (m.kib - before) / 300 / (double)rate;
        ret->turns = m.turns - turns;
}

/*
 * Left at the new rate, md stops, then bursts at the disks' speed for whole
 * seconds, again and again (what the pacer is for); paced evenly, no 3 s
 * takes much more than twice the rate, but md turns to the rebuild about
 * once a second; paced in slices of 5 s, it turns to it at most twice a
 * slice and less than half as often, and no 3 s takes more than two slices'
 * worth. Every way the mean is the rate.
 */
static void test_step_down(void **state) {
        static const uint64_t disks[] = { 16000, 40000, 100000 };
        const uint64_t rate = 8000, slice = 5 * SEC;
        uint64_t band_low, band_high;
        unsigned even_turns;
        run_figures f;

        (void)state;
        pacer_band(rate, 1000, 200000, &band_low, &band_high);
        assert_int_equal(band_low, 2000);
        assert_int_equal(band_high, 32000);
        for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
                after_step_down(disks[i], rate, false, 0, &f);
                assert_true(f.hi >= 2.0 && f.hi > 0.8 * (double)disks[i] / (double)rate);
                assert_true(f.lo < 0.1);
                assert_true(f.mean > 0.97 && f.mean < 1.03);

                after_step_down(disks[i], rate, true, 0, &f);
                assert_true(f.hi < 2.2);
                assert_true(f.mean > 0.97 && f.mean < 1.03);
                assert_true(f.turns > 200);
                even_turns = f.turns;

                after_step_down(disks[i], rate, true, slice, &f);
                assert_true(f.mean > 0.97 && f.mean < 1.03);
                assert_true(f.turns <= 300 / 5 * 2 && 2 * f.turns < even_turns);
                assert_true(f.hi < 2.0 * (double)slice / SEC / 3);
        }
}

/*
 * Disks slower than the rate, paced evenly or in slices of @slice_usec: the
 * line does not run away, and when they get faster no 3 s takes more than
 * twice the slack's worth and a slice's.
 */
static void cannot_keep_up(uint64_t slice_usec) {
        const uint64_t rate = 8000;
        double steps[20], lo, hi;
        md_model m;
        pacer p = {};
        uint64_t w;

        md_start(&m, 4000, rate);
        for (unsigned s = 0; s < 40; s++) {
                pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
                md_run(&m, SEC);
        }
        pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
        pacer_start(&p, rate, slice_usec);
        poll_for(&m, &p, 120, 2000, 32000, NULL);
        /* The line leads the rebuild by no more than the slack. */
        pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
        assert_int_equal(pacer_limit(&p, 2000, 32000, &w), 0);
        assert_true((double)p.line_kib + (double)(m.usec - p.line_usec) * rate / SEC <=
                    m.kib + (double)rate * PACER_SLACK_USEC / SEC + 1);
        /* The users leave: the disks could give 40 MB/s, the rebuild stays near the rate. */
        m.disks_kibs = 40000;
        poll_for(&m, &p, 60, 2000, 32000, steps);
        spread(steps, 20, &lo, &hi);
        assert_true(hi < (double)rate * (2.0 * 3 * SEC + (double)slice_usec) / SEC);
}

static void test_disks_cannot_keep_up(void **state) {
        (void)state;
        cannot_keep_up(0);
        cannot_keep_up(5 * SEC);
}

/*
 * Users back after a minute with the disks at @disks KiB/s, paced in turns
 * of 5 s to @rate with values up to @high: the rebuild's progress in each
 * 3 s of the next 60 s in @ret_steps.
 */
static void back_from_quiet(uint64_t disks, uint64_t rate, uint64_t high, double ret_steps[20]) {
        md_model m;
        pacer p = {};

        md_start(&m, disks, 200000);
        for (unsigned s = 0; s < 60; s++) {
                pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
                md_run(&m, SEC);
        }
        pacer_sample_at(&p, m.usec, (uint64_t)m.kib);
        pacer_start(&p, rate, 5 * SEC);
        poll_for(&m, &p, 60, 1, high, ret_steps);
}

/*
 * md's average holds the quiet minute for 30 s: held to four times the rate
 * (the governor's band) md stands still until that average has come down
 * to it, where four times the rate is well below it. Then, and from the
 * start with any value allowed, md runs a turn at a time: the positions md
 * may be averaging from lie on the quiet minute's ramp, far apart, and the
 * greatest W over them, with md's mark the newest, would carry it ten turns
 * past the turn's end at once. No 3 s takes more than three turns' worth
 * (a turn, at most a turn past its end, and the next turn's start).
 */
static void test_back_from_quiet(void **state) {
        static const uint64_t cases[][2] = { { 4000, 400 }, { 5000, 100 }, { 100000, 2000 }, { 100000, 20000 } };
        double steps[20], still, least, most;

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                const double disks = (double)cases[i][0], rate = (double)cases[i][1], turn = 5 * rate;

                back_from_quiet(cases[i][0], cases[i][1], 4 * cases[i][1], steps);
                still = steps[0] + steps[1] + steps[2] + steps[3] + steps[4];
                if (4 * rate < disks / 2)
                        assert_true(still < rate);
                spread(steps, 20, &least, &most);
                assert_true(most <= 3 * turn);
                back_from_quiet(cases[i][0], cases[i][1], 200000, steps);
                assert_true(steps[0] >= turn);
                spread(steps, 20, &least, &most);
                assert_true(most <= 3 * turn);
        }
}

static void test_history(void **state) {
        pacer p = {};
        uint64_t w = 7;

        (void)state;
        /* Not pacing, or no history: nothing to write. */
        assert_int_equal(pacer_limit(&p, 1, 100, &w), -ENODATA);
        pacer_start(&p, 1000, 0);
        assert_int_equal(p.rate, 0); /* no sample to draw the line from */
        pacer_sample_at(&p, 100 * SEC, 5000);
        pacer_start(&p, 1000, 0);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), -ENODATA);
        pacer_sample_at(&p, 104 * SEC, 9000);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), -ENODATA);
        assert_int_equal(w, 7);
        /* 5 s of history at the rate: the rate. */
        pacer_sample_at(&p, 105 * SEC, 10000);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), 0);
        assert_int_equal(w, 1000);
        /* Within the band. */
        assert_int_equal(pacer_limit(&p, 1500, 100000, &w), 0);
        assert_int_equal(w, 1500);
        /* A position behind the last: a new operation; the history and the pacing start again. */
        pacer_sample_at(&p, 106 * SEC, 20);
        assert_int_equal(p.n, 1);
        assert_int_equal(p.rate, 0);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), -ENODATA);
        /* The ring keeps the last PACER_SAMPLES; the reference is 30 s back. */
        for (unsigned s = 0; s < 2 * PACER_SAMPLES; s++)
                pacer_sample_at(&p, (200 + s) * SEC, 1000ull * s);
        assert_int_equal(p.n, PACER_SAMPLES);
        pacer_start(&p, 1000, 0);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), 0);
        assert_int_equal(w, 1000);
        pacer_stop(&p);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), -ENODATA);
        /*
         * Polls 3 s apart: W aims at the line 3 s ahead. Stalled at 5000 since
         * 100 s, the line from 106 s at 1000 KiB/s: (8000 - 5000) / 9.
         */
        p = (pacer){};
        for (unsigned s = 0; s < 3; s++)
                pacer_sample_at(&p, (100 + 3 * s) * SEC, 5000);
        pacer_start(&p, 1000, 0);
        assert_int_equal(pacer_limit(&p, 1, 100000, &w), 0);
        assert_int_equal(w, 3000 / 9);
        /* A band narrower than a quarter to four times: the caller's limits win. */
        {
                uint64_t l, h;

                pacer_band(1000, 2000, 3000, &l, &h);
                assert_int_equal(l, 2000);
                assert_int_equal(h, 3000);
                pacer_band(1000, 5000, 3000, &l, &h);
                assert_int_equal(l, 5000);
                assert_int_equal(h, 5000);
        }
}

/* Turns start where the line does and a slice apart; pacing evenly or not at all, none. */
static void test_next_turn(void **state) {
        pacer p = {};

        (void)state;
        assert_int_equal(pacer_next_turn(&p, 100 * SEC), 0);
        pacer_sample_at(&p, 100 * SEC, 5000);
        pacer_start(&p, 1000, 0);
        assert_int_equal(pacer_next_turn(&p, 100 * SEC), 0);
        pacer_start(&p, 1000, 5 * SEC);
        assert_int_equal(pacer_next_turn(&p, 90 * SEC), 100 * SEC);
        assert_int_equal(pacer_next_turn(&p, 100 * SEC), 100 * SEC);
        assert_int_equal(pacer_next_turn(&p, 100 * SEC + 1), 105 * SEC);
        assert_int_equal(pacer_next_turn(&p, 112 * SEC + SEC / 2), 115 * SEC);
        assert_int_equal(pacer_next_turn(&p, 115 * SEC), 115 * SEC);
        pacer_stop(&p);
        assert_int_equal(pacer_next_turn(&p, 115 * SEC), 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_step_down),       cmocka_unit_test(test_disks_cannot_keep_up),
                cmocka_unit_test(test_back_from_quiet), cmocka_unit_test(test_history),
                cmocka_unit_test(test_next_turn),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
