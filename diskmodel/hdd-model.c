/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "hdd-model.h"

void hdd_init(hdd_disk *d, uint64_t size, uint64_t seed) {
        *d = (hdd_disk){ .size = size, .head = 0, .rng = seed ? seed : 0x9e3779b97f4a7c15ull };
}

double hdd_revolution_ms(void) {
        return 60000.0 / HDD_RPM;
}

double hdd_rate(const hdd_disk *d, uint64_t offset) {
        double f = d->size ? (double)offset / (double)d->size : 0.0, mbs;

        if (f > 1.0)
                f = 1.0;
        /*
         * A zoned disk writes more sectors on an outer track than on an inner
         * one at the same angular speed; the published rates at the start,
         * the middle and the end are joined by straight lines.
         */
        if (f <= 0.5)
                mbs = HDD_RATE_OUTER_MBS + (HDD_RATE_MIDDLE_MBS - HDD_RATE_OUTER_MBS) * (f / 0.5);
        else
                mbs = HDD_RATE_MIDDLE_MBS + (HDD_RATE_INNER_MBS - HDD_RATE_MIDDLE_MBS) * ((f - 0.5) / 0.5);
        return mbs * 1e6;
}

double hdd_seek_ms(const hdd_disk *d, uint64_t from, uint64_t to) {
        uint64_t dist = from > to ? from - to : to - from;

        if (dist == 0 || d->size == 0)
                return 0.0;
        return HDD_SEEK_SHORT_MS + HDD_SEEK_STROKE_MS * sqrt((double)dist / (double)d->size);
}

/* A uniform draw in [0, 1). */
static double draw(hdd_disk *d) {
        uint64_t x = d->rng;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        d->rng = x;
        return (double)(x >> 11) / 9007199254740992.0; /* 2^53 */
}

/* Where a request stands against the head, before its transfer. */
typedef enum reach {
        REACH_PASSED, /* bytes the platter turned past on the way to a later request */
        REACH_HEAD,   /* the head's own next bytes */
        REACH_GAP,    /* further on the same track: the platter turns past the gap */
        REACH_SEEK,   /* anywhere else: a seek, then a wait for the sector */
} reach;

/* Which of the four @offset is, and the gap's turn or the seek in @ret_ms (0 for the others). */
static reach reach_of(const hdd_disk *d, uint64_t offset, uint32_t count, double *ret_ms) {
        double rate = hdd_rate(d, offset);

        *ret_ms = 0.0;
        if (count > 0 && offset >= d->passed_from && offset + count <= d->passed_to)
                return REACH_PASSED;
        if (offset == d->head)
                return REACH_HEAD;
        if (offset > d->head && (double)(offset - d->head) < rate * hdd_revolution_ms() / 1000.0) {
                *ret_ms = (double)(offset - d->head) / rate * 1000.0;
                return REACH_GAP;
        }
        *ret_ms = hdd_seek_ms(d, d->head, offset);
        return REACH_SEEK;
}

double hdd_position_ms(const hdd_disk *d, uint64_t offset, uint32_t count) {
        double ms;

        /* The sector's wait is drawn only when it is served: half a turn expected. */
        return reach_of(d, offset, count, &ms) == REACH_SEEK ? ms + hdd_revolution_ms() / 2 : ms;
}

size_t hdd_next(const hdd_disk *d, const hdd_queued *q, size_t n, double age_ms) {
        /* What reaching the far end of the disk costs: a full stroke and half a turn. */
        double far_ms = HDD_SEEK_SHORT_MS + HDD_SEEK_STROKE_MS + hdd_revolution_ms() / 2, best_ms = 0;
        size_t best = 0;

        if (age_ms <= 0)
                return 0;
        for (size_t i = 0; i < n; i++) {
                double ms = hdd_position_ms(d, q[i].offset, q[i].count) - q[i].waited_ms / age_ms * far_ms;
                if (i == 0 || ms < best_ms) {
                        best = i;
                        best_ms = ms;
                }
        }
        return best;
}

double hdd_request_ms(hdd_disk *d, uint64_t offset, uint32_t count) {
        double ms;

        switch (reach_of(d, offset, count, &ms)) {
        case REACH_PASSED:
                /* Its time was the turn past it; what is left of the gap stays. */
                d->passed_from = offset + count;
                return 0.0;
        case REACH_HEAD:
                break;
        case REACH_GAP:
                d->passed_from = d->head;
                d->passed_to = offset;
                break;
        case REACH_SEEK:
                ms += draw(d) * hdd_revolution_ms();
                d->passed_from = d->passed_to = 0;
                break;
        }
        ms += (double)count / hdd_rate(d, offset) * 1000.0;
        d->head = offset + count;
        return ms;
}

double hdd_random_rate(uint64_t size, uint32_t count, size_t depth, bool ncq, double age_ms, unsigned n,
                       uint64_t seed) {
        hdd_disk d, offsets;
        hdd_queued q[64];
        uint64_t blocks = size / count;
        double total = 0;

        if (depth < 1 || depth > 64 || blocks == 0 || n == 0)
                return 0.0;
        hdd_init(&d, size, seed);
        hdd_init(&offsets, size, seed ^ 0x5deece66dull); /* the offsets' own draws */
        for (size_t i = 0; i < depth; i++)
                q[i] = (hdd_queued){ .offset = (uint64_t)(draw(&offsets) * (double)blocks) * count, .count = count };
        for (unsigned served = 0; served < n; served++) {
                size_t next = ncq ? hdd_next(&d, q, depth, age_ms) : 0;
                double ms = hdd_request_ms(&d, q[next].offset, q[next].count);

                total += ms;
                /* The rest wait on, in arrival order; a new one joins at the end. */
                for (size_t i = next; i + 1 < depth; i++)
                        q[i] = q[i + 1];
                for (size_t i = 0; i + 1 < depth; i++)
                        q[i].waited_ms += ms;
                q[depth - 1] =
                        (hdd_queued){ .offset = (uint64_t)(draw(&offsets) * (double)blocks) * count, .count = count };
        }
        return total > 0 ? n / (total / 1000.0) : 0.0;
}
