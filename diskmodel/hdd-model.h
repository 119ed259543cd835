/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A 7200 rpm hard disk as a function from a request to the time it takes.
 * Pure: no clock, no I/O; nbdkit-hdd.c sleeps for what it returns.
 *
 * The figures are those published for a 500 GB SATA disk (FreeBSD
 * `diskinfo -tv`): a full-stroke seek of 21.5 ms, half-stroke 16.0, quarter
 * 13.2, short seeks of 3-6 ms; 82 MB/s on the outer zone, 72 in the middle,
 * 44 on the inner. One actuator serves one request at a time:
 *
 *   - the head is where the last request ended; a request that starts there
 *     costs only its transfer (a stream);
 *   - one that starts a little further on the same track waits while the
 *     platter turns past the gap (a rebuild skipping part of a stripe);
 *   - any other seeks, t(d) = 4 + 17.5 * sqrt(d) ms over the fraction d of
 *     the stroke (21.5 full, 16.4 half, 12.75 quarter, 4 for the shortest),
 *     then waits for its sector to come round: a uniformly drawn part of a
 *     revolution, 4.17 ms on average at 7200 rpm;
 *   - then transfers at its zone's rate, which falls with the offset through
 *     82, 72 and 44 MB/s at the start, the middle and the end;
 *   - a request for bytes the platter turned past on its way to a later
 *     one costs nothing more: two requests sent together may come in the
 *     other order, and a disk with both in its queue serves them in order,
 *     so the turn past the gap was this request's transfer.
 *
 * Offsets stand for cylinders in proportion, and a write costs what a read
 * at the same place costs (no write cache).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HDD_RPM 7200
#define HDD_SEEK_SHORT_MS 4.0   /* the shortest seek, settling included */
#define HDD_SEEK_STROKE_MS 17.5 /* added over a full stroke, with the square root of the distance */
#define HDD_RATE_OUTER_MBS 82.0 /* MB/s: 10^6 bytes a second */
#define HDD_RATE_MIDDLE_MBS 72.0
#define HDD_RATE_INNER_MBS 44.0

typedef struct hdd_disk {
        uint64_t size; /* bytes the disk holds */
        uint64_t head; /* where the last request ended */
        /* The bytes the platter last turned past without transferring them. */
        uint64_t passed_from, passed_to;
        uint64_t rng; /* xorshift64 state: where the platter is when a seek ends */
} hdd_disk;

/* A disk of @size bytes (> 0), its head at 0; @seed picks the rotational draws. */
void hdd_init(hdd_disk *d, uint64_t size, uint64_t seed);

/* The transfer rate at @offset, bytes a second. */
double hdd_rate(const hdd_disk *d, uint64_t offset);

/* The seek from @from to @to in ms: 0 when they are the same place. */
double hdd_seek_ms(const hdd_disk *d, uint64_t from, uint64_t to);

/* One revolution in ms. */
double hdd_revolution_ms(void);

/*
 * What the disk expects to spend in ms before a request at @offset transfers,
 * the head where it is: nothing at the head or for bytes it turned past, the
 * turn past a gap on the track, else a seek and half a revolution.
 */
double hdd_position_ms(const hdd_disk *d, uint64_t offset, uint32_t count);

/* A request in the disk's queue. */
typedef struct hdd_queued {
        uint64_t offset;
        uint32_t count;
        double waited_ms; /* since it arrived */
} hdd_queued;

/*
 * Which of @n (> 0) queued requests, oldest first, a disk that queues
 * commands (SATA's NCQ) serves next: the one it reaches soonest
 * (hdd_position_ms), each request's time counted down by what reaching the
 * far end of the disk costs for every @age_ms it has waited (the older of
 * two alike). A stream next to the head thus keeps a request elsewhere
 * waiting for at most about @age_ms, and a deep random queue is served
 * nearest first without starving any; @age_ms 0 serves them as they came.
 */
size_t hdd_next(const hdd_disk *d, const hdd_queued *q, size_t n, double age_ms);

/*
 * The time in ms a request of @count bytes at @offset takes, the head where
 * the disk's last request left it; moves the head to the request's end, or
 * leaves it where it is for bytes it turned past (0 ms).
 */
double hdd_request_ms(hdd_disk *d, uint64_t offset, uint32_t count);

/*
 * Random reads of @count bytes over the whole of a disk of @size bytes,
 * kept @depth deep (each one that ends replaced at once, as fio does),
 * served in arrival order or, with @ncq, as hdd_next() picks with @age_ms:
 * how many end a second, by the model, over @n of them from @seed.
 */
double hdd_random_rate(uint64_t size, uint32_t count, size_t depth, bool ncq, double age_ms, unsigned n, uint64_t seed);
