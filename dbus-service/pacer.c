/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pacer.h"

static const pacer_sample *sample(const pacer *p, unsigned age) {
        return &p->ring[(p->next + PACER_SAMPLES - 1 - age) % PACER_SAMPLES];
}

void pacer_sample_at(pacer *p, uint64_t usec, uint64_t kib) {
        if (p->n > 0 && (kib < sample(p, 0)->kib || usec < sample(p, 0)->usec)) {
                p->n = 0;
                p->rate = 0;
        }
        p->ring[p->next] = (pacer_sample){ .usec = usec, .kib = kib };
        p->next = (p->next + 1) % PACER_SAMPLES;
        if (p->n < PACER_SAMPLES)
                p->n++;
}

void pacer_start(pacer *p, uint64_t rate, uint64_t slice_usec) {
        p->rate = p->n > 0 ? rate : 0;
        p->slice_usec = slice_usec;
        if (p->rate) {
                p->line_usec = sample(p, 0)->usec;
                p->line_kib = sample(p, 0)->kib;
        }
}

void pacer_stop(pacer *p) {
        p->rate = 0;
}

void pacer_band(uint64_t rate, uint64_t low, uint64_t high, uint64_t *ret_low, uint64_t *ret_high) {
        uint64_t l = rate / 4, h = rate * 4;

        if (l < low)
                l = low;
        if (h > high)
                h = high;
        if (h < l)
                h = l;
        *ret_low = l;
        *ret_high = h;
}

uint64_t pacer_next_turn(const pacer *p, uint64_t usec) {
        if (p->rate == 0 || p->slice_usec == 0)
                return 0;
        if (usec <= p->line_usec)
                return p->line_usec;
        return p->line_usec + (usec - p->line_usec + p->slice_usec - 1) / p->slice_usec * p->slice_usec;
}

/* Where the line is at @usec, KiB (below 0 for a time before the line reached 0). */
static int64_t line_at(const pacer *p, uint64_t usec) {
        return (int64_t)p->line_kib + ((int64_t)usec - (int64_t)p->line_usec) * (int64_t)p->rate / 1000000;
}

/*
 * Where md is to have got by @usec: on the line, or rising in slices that
 * start at the line's point, where the line is at the end of @usec's slice.
 */
static int64_t target_at(const pacer *p, uint64_t usec) {
        if (p->slice_usec == 0 || usec < p->line_usec)
                return line_at(p, usec);
        return line_at(p, pacer_next_turn(p, usec + 1));
}

int pacer_limit(pacer *p, uint64_t low, uint64_t high, uint64_t *ret) {
        const pacer_sample *now;
        uint64_t at, ahead, w = 0, cap = 0;
        int64_t slack, ahead_max, lead, over;
        bool turn, found = false;

        if (p->rate == 0 || p->n == 0)
                return -ENODATA;
        now = sample(p, 0);
        if (now->usec - sample(p, p->n - 1)->usec < PACER_HISTORY_MIN_USEC)
                return -ENODATA;
        /*
         * Keep the line within the slack of the rebuild, ahead or behind;
         * in slices the rebuild runs a slice's worth ahead of it after each
         * turn, and md may run past a turn's end (below): up to two
         * slices' worth more ahead.
         */
        slack = (int64_t)(p->rate * PACER_SLACK_USEC / 1000000);
        ahead_max = slack + (int64_t)(p->rate * 2 * p->slice_usec / 1000000);
        lead = line_at(p, now->usec) - (int64_t)now->kib;
        if (lead > slack || lead < -ahead_max) {
                int64_t kib = (int64_t)now->kib + (lead > 0 ? slack : -ahead_max);

                p->line_usec = now->usec;
                p->line_kib = kib > 0 ? (uint64_t)kib : 0;
        }
        /*
         * md runs while its progress since its oldest mark, over the time
         * since then, is at most W: it stops where the rebuild reaches
         * P(m) + W (t - m). Which of the samples 30 to 34 s back its mark
         * is, is not known; the least W over them stops it at the line at
         * the next poll, or before, whichever it is. (Without that much
         * history, the oldest sample.)
         *
         * In slices, the positions 30 to 34 s back can lie on both sides of
         * an earlier turn and differ by a slice's worth: the least W would
         * stop md short of the slice's end and leave the rest to turns of
         * their own. So while a turn is due (more than a quarter of a
         * slice's worth short of the slice's end) W is the greatest over
         * them, and md runs to the slice's end or somewhat past it, which
         * the line takes back from the next slices; otherwise the least, and
         * md sleeps.
         */
        ahead = p->n > 1 ? now->usec - sample(p, 1)->usec : PACER_AHEAD_USEC;
        at = now->usec + (ahead == 0 ? PACER_AHEAD_USEC : ahead > PACER_AHEAD_MAX_USEC ? PACER_AHEAD_MAX_USEC : ahead);
        turn = p->slice_usec && target_at(p, at) - (int64_t)now->kib > (int64_t)(p->rate * p->slice_usec / 1000000 / 4);
        /*
         * Where those positions lie far apart (md's window still holds a
         * spell at the disks' speed, and the rate is a small part of that),
         * the greatest W would carry md many turns past the slice's end if
         * its mark is the newest of them: W stays at most what stops md a
         * turn past the end, whichever of them is its mark.
         */
        over = (int64_t)(p->rate * p->slice_usec / 1000000);
        for (unsigned age = 0; age < p->n; age++) {
                const pacer_sample *ref = sample(p, age);
                uint64_t back = now->usec - ref->usec, v, c;
                int64_t to;

                if (back < PACER_MARK_MIN_USEC && age + 1 < p->n)
                        continue;
                if (back > PACER_WINDOW_USEC && found)
                        break;
                to = target_at(p, at) - (int64_t)ref->kib;
                v = to > 0 ? (uint64_t)to * 1000000 / (at - ref->usec) : 0;
                c = to + over > 0 ? (uint64_t)(to + over) * 1000000 / (at - ref->usec) : 0;
                if (!found || (turn ? v > w : v < w))
                        w = v;
                if (!found || c < cap)
                        cap = c;
                found = true;
        }
        if (turn && w > cap)
                w = cap;
        *ret = w < low ? low : w > high ? high : w;
        return 0;
}
