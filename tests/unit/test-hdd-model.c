/* SPDX-License-Identifier: MIT */
/* The modelled hard disk against the published figures it is fitted to. */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hdd-model.h"

#define SIZE (500ull * 1000 * 1000 * 1000) /* the 500 GB disk the figures are from */

static void within(double got, double want, double share) {
        if (fabs(got - want) > want * share)
                fail_msg("%.3f is not within %.0f %% of %.3f", got, share * 100, want);
}

/* diskinfo -tv: full stroke 21.5 ms, half 16.0, quarter 13.2, short 3-6. */
static void test_seek_curve(void **state) {
        hdd_disk d;

        (void)state;
        hdd_init(&d, SIZE, 1);
        within(hdd_seek_ms(&d, 0, SIZE), 21.5, 0.01);
        within(hdd_seek_ms(&d, SIZE, 0), 21.5, 0.01);
        within(hdd_seek_ms(&d, SIZE / 4, SIZE / 4 * 3), 16.0, 0.05);
        within(hdd_seek_ms(&d, SIZE / 2, SIZE / 4), 13.2, 0.05);
        assert_true(hdd_seek_ms(&d, 4096, 8192) >= 3.0 && hdd_seek_ms(&d, 4096, 8192) <= 6.0);
        assert_true(hdd_seek_ms(&d, 12345, 12345) == 0.0);
        /* Further is never quicker. */
        for (uint64_t x = 1; x < 100; x++)
                assert_true(hdd_seek_ms(&d, 0, SIZE / 100 * x) < hdd_seek_ms(&d, 0, SIZE / 100 * (x + 1)));
}

/* 82 MB/s on the outside, 72 in the middle, 44 on the inside. */
static void test_zones(void **state) {
        hdd_disk d;

        (void)state;
        hdd_init(&d, SIZE, 1);
        within(hdd_rate(&d, 0), 82e6, 0.001);
        within(hdd_rate(&d, SIZE / 2), 72e6, 0.001);
        within(hdd_rate(&d, SIZE), 44e6, 0.001);
        within(hdd_rate(&d, SIZE * 2), 44e6, 0.001);
        for (uint64_t x = 0; x < 100; x++)
                assert_true(hdd_rate(&d, SIZE / 100 * x) > hdd_rate(&d, SIZE / 100 * (x + 1)));
}

/* A stream pays only its transfer, at its zone's rate. */
static void test_stream(void **state) {
        hdd_disk d;
        double ms = 0;

        (void)state;
        hdd_init(&d, SIZE, 1);
        for (int i = 0; i < 1000; i++)
                ms += hdd_request_ms(&d, (uint64_t)i * 1048576, 1048576);
        assert_int_equal(d.head, 1000ull * 1048576);
        within(1000.0 * 1048576 / (ms / 1000), 82e6, 0.01);
}

/* A gap on the same track: the platter turns past it, no seek, less than a turn. */
static void test_gap_on_track(void **state) {
        hdd_disk d;
        double ms;

        (void)state;
        hdd_init(&d, SIZE, 1);
        hdd_request_ms(&d, 0, 65536);
        ms = hdd_request_ms(&d, 65536 * 3, 65536);
        within(ms, 65536.0 * 3 / 82e6 * 1000, 0.01);
        assert_true(ms < hdd_revolution_ms());
        /* Backwards is a seek and a wait for the sector. */
        ms = hdd_request_ms(&d, 0, 4096);
        assert_true(ms >= HDD_SEEK_SHORT_MS);
}

/*
 * A stream whose requests come in pairs the wrong way round (the second of
 * two sent together arrives first) takes the time of the stream in order:
 * the turn past the first is its transfer.
 */
static void test_late_neighbour(void **state) {
        hdd_disk in_order, swapped;
        double a = 0, b = 0, ms;

        (void)state;
        hdd_init(&in_order, SIZE, 1);
        hdd_init(&swapped, SIZE, 1);
        for (uint64_t i = 0; i < 200; i += 2) {
                a += hdd_request_ms(&in_order, i * 262144, 262144);
                a += hdd_request_ms(&in_order, (i + 1) * 262144, 262144);
                b += hdd_request_ms(&swapped, (i + 1) * 262144, 262144);
                ms = hdd_request_ms(&swapped, i * 262144, 262144);
                assert_true(ms == 0.0);
        }
        within(b, a, 0.001);
        assert_int_equal(swapped.head, in_order.head);
        /* Bytes turned past serve once: asked again, they are a seek away. */
        assert_true(hdd_request_ms(&swapped, 198ull * 262144, 262144) >= HDD_SEEK_SHORT_MS);
        /* A seek forgets what the platter turned past before it. */
        hdd_request_ms(&swapped, 1000ull * 262144, 262144);
        hdd_request_ms(&swapped, 1002ull * 262144, 262144);
        hdd_request_ms(&swapped, SIZE / 2, 4096);
        assert_true(hdd_request_ms(&swapped, 1001ull * 262144, 262144) >= HDD_SEEK_SHORT_MS);
}

/*
 * Random 4 KiB reads over the whole disk, one at a time: the distance
 * between two uniform offsets has density 2(1 - x), so the mean of
 * sqrt(x) is 8/15 and the mean seek 4 + 17.5 * 8/15 = 13.3 ms; half a
 * turn (4.17 ms) and a transfer follow.
 */
static void test_random_reads(void **state) {
        hdd_disk d;
        uint64_t x = 88172645463325252ull;
        double ms = 0, want;
        const int n = 200000;

        (void)state;
        hdd_init(&d, SIZE, 7);
        for (int i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ms += hdd_request_ms(&d, (x % (SIZE / 4096)) * 4096, 4096);
        }
        want = HDD_SEEK_SHORT_MS + HDD_SEEK_STROKE_MS * 8.0 / 15.0 + hdd_revolution_ms() / 2 + 4096 / 66e6 * 1000;
        within(ms / n, want, 0.01);
        within(hdd_revolution_ms(), 8.333, 0.001);
}

/* What the queue chooses by: nothing at the head, a gap's turn, else a seek and half a turn. */
static void test_position(void **state) {
        hdd_disk d;

        (void)state;
        hdd_init(&d, SIZE, 1);
        hdd_request_ms(&d, 0, 65536);
        assert_true(hdd_position_ms(&d, 65536, 65536) == 0.0);
        within(hdd_position_ms(&d, 65536 * 3, 65536), 65536.0 * 2 / 82e6 * 1000, 0.01);
        within(hdd_position_ms(&d, SIZE / 2, 4096), hdd_seek_ms(&d, 65536, SIZE / 2) + hdd_revolution_ms() / 2, 0.001);
        within(hdd_position_ms(&d, 0, 4096), hdd_seek_ms(&d, 65536, 0) + hdd_revolution_ms() / 2, 0.001);
        /* Asking changes nothing: the same answer, the head where it was. */
        within(hdd_position_ms(&d, 0, 4096), hdd_seek_ms(&d, 65536, 0) + hdd_revolution_ms() / 2, 0.001);
        assert_int_equal(d.head, 65536);
        /* Bytes the platter turned past cost nothing. */
        hdd_request_ms(&d, 65536 * 3, 65536);
        assert_true(hdd_position_ms(&d, 65536, 65536) == 0.0);
}

/*
 * The queue serves the request the head reaches soonest, the older of two
 * alike; waiting counts against reaching: after the age, the far end of the
 * disk goes before the head's own next bytes.
 */
static void test_next(void **state) {
        double far = HDD_SEEK_SHORT_MS + HDD_SEEK_STROKE_MS + hdd_revolution_ms() / 2;
        hdd_disk d;
        hdd_queued q[4] = {
                { .offset = SIZE / 2, .count = 4096, .waited_ms = 30 },
                { .offset = SIZE / 8, .count = 4096, .waited_ms = 20 },
                { .offset = 1048576, .count = 4096, .waited_ms = 10 },
                { .offset = 1048576, .count = 4096, .waited_ms = 10 },
        };

        (void)state;
        hdd_init(&d, SIZE, 1);
        hdd_request_ms(&d, 0, 1048576);
        assert_int_equal(hdd_next(&d, q, 4, 500), 2);
        assert_int_equal(hdd_next(&d, q, 2, 500), 1);
        assert_int_equal(hdd_next(&d, q, 1, 500), 0);
        /* Age 0: in the order they came. */
        assert_int_equal(hdd_next(&d, q, 4, 0), 0);
        /* The far end of the disk against the head's next bytes: the far one once it has waited the age. */
        {
                hdd_queued two[2] = {
                        { .offset = SIZE - 4096, .count = 4096, .waited_ms = 499 },
                        { .offset = 1048576, .count = 4096 },
                };
                assert_true(hdd_position_ms(&d, SIZE - 4096, 4096) <= far);
                assert_int_equal(hdd_next(&d, two, 2, 500), 1);
                two[0].waited_ms = 500;
                assert_int_equal(hdd_next(&d, two, 2, 500), 0);
        }
        /* Two streams, eight requests queued each: the head stays on its own. */
        {
                hdd_queued s[16];
                for (int i = 0; i < 8; i++) {
                        s[2 * i] = (hdd_queued){ .offset = SIZE / 2 + (uint64_t)i * 131072, .count = 131072 };
                        s[2 * i + 1] = (hdd_queued){ .offset = 1048576 + (uint64_t)i * 131072, .count = 131072 };
                }
                assert_int_equal(hdd_next(&d, s, 16, 500), 1);
        }
}

/*
 * Random reads kept deep: in arrival order every one is a random seek, as
 * one at a time; nearest first they end more often, and more with a
 * deeper queue, but never as if the seeks were free.
 */
static void test_random_rate(void **state) {
        double one, fifo16, ncq4, ncq16, ncq32;

        (void)state;
        one = hdd_random_rate(SIZE, 4096, 1, false, 500, 100000, 1);
        fifo16 = hdd_random_rate(SIZE, 4096, 16, false, 500, 100000, 1);
        ncq4 = hdd_random_rate(SIZE, 4096, 4, true, 500, 100000, 1);
        ncq16 = hdd_random_rate(SIZE, 4096, 16, true, 500, 100000, 1);
        ncq32 = hdd_random_rate(SIZE, 4096, 32, true, 500, 100000, 1);
        within(one, 1000 / (HDD_SEEK_SHORT_MS + HDD_SEEK_STROKE_MS * 8.0 / 15.0 + hdd_revolution_ms() / 2), 0.01);
        within(fifo16, one, 0.01);
        within(hdd_random_rate(SIZE, 4096, 16, true, 0, 100000, 1), one, 0.01);
        assert_true(ncq4 > one * 1.1);
        assert_true(ncq16 > ncq4);
        assert_true(ncq32 >= ncq16 * 0.99);
        assert_true(ncq32 < 1000 / (HDD_SEEK_SHORT_MS + hdd_revolution_ms() / 2));
        assert_true(hdd_random_rate(SIZE, 4096, 0, true, 500, 100, 1) == 0.0);
        assert_true(hdd_random_rate(SIZE, 4096, 65, true, 500, 100, 1) == 0.0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_seek_curve),     cmocka_unit_test(test_zones),
                cmocka_unit_test(test_stream),         cmocka_unit_test(test_gap_on_track),
                cmocka_unit_test(test_late_neighbour), cmocka_unit_test(test_random_reads),
                cmocka_unit_test(test_position),       cmocka_unit_test(test_next),
                cmocka_unit_test(test_random_rate),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
