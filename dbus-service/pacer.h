/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Holding a rebuild to a steady rate. Pure: no clock, no I/O.
 *
 * md keeps a rebuild between its floor and its ceiling by an average: its
 * progress since the oldest of ten marks taken 3 s apart, 30 to 33 s back
 * (md_do_sync), over the whole seconds since then plus one. Below the floor
 * it runs at the disks' speed, above the ceiling it sleeps. Floor and ceiling at one rate R hold R only over that
 * window: after a step down md stops until its average has come down to R,
 * then makes the difference up at the disks' speed, and once its window
 * holds such a burst it bursts again each time the burst leaves the window,
 * a window's worth about every 30 s. While it bursts the users get next to
 * nothing of the disks, whatever R is.
 *
 * The pacer draws a line from where the rebuild was when R was set, rising
 * at R, and every poll gives the rate W at which md's average reaches that
 * line at the next poll (as far ahead as the last two polls were apart, a
 * second by default). Which of the positions 30 to 34 s back md
 * averages from is not known (a mark is taken at md's first look after
 * 3 s, which can be half a second late while it sleeps): W is the least of
 * theirs, so that md stops at the line or before it. With floor and ceiling
 * at W md runs until the rebuild is on the line and sleeps until the line
 * has moved on, at R on average: against a model of md's marks, at most
 * about twice R over any 3 s where md alone bursts at the disks' speed
 * (tests/unit/test-service-pacer.c). The line stays within a few
 * seconds of the rebuild (PACER_SLACK_USEC) both ways, so a stretch where
 * the disks could not keep up is not made up in a burst afterwards, and one
 * where md ran ahead does not stop it for long. W stays within a band the
 * caller gives, which the journal records (governor.c).
 *
 * A line that rises evenly has md wake from its half-second naps and run a
 * little, every second or so. On disks that seek, each of those turns moves
 * every member's heads from where the users read to the rebuild's place and
 * back, and the users lose those seeks whatever R is: below some rate a
 * lower one gives them nothing more. So the line may rise in steps instead,
 * one slice's worth (R times the slice) at the start of each slice: md runs
 * that much at once and sleeps for the rest of the slice, one turn per
 * slice, and a lower R makes the turn shorter, not more frequent.
 *
 * Positions are the live ones /proc/mdstat prints, in KiB: sysfs'
 * sync_completed moves only at md's checkpoints.
 */

#include <stdint.h>

#define PACER_SAMPLES 48                           /* more than PACER_WINDOW_USEC of 1 s polls */
#define PACER_MARK_MIN_USEC (30ull * 1000000ull)   /* md's oldest mark is at least this far back */
#define PACER_WINDOW_USEC (34ull * 1000000ull)     /* and at most this far, a late mark included */
#define PACER_AHEAD_USEC (1ull * 1000000ull)       /* where W aims before two samples tell the poll's interval */
#define PACER_AHEAD_MAX_USEC (5ull * 1000000ull)   /* and at most this far ahead */
#define PACER_SLACK_USEC (3ull * 1000000ull)       /* how far the line may lead or trail, at R */
#define PACER_HISTORY_MIN_USEC (5ull * 1000000ull) /* less history than this: no W yet */

typedef struct pacer_sample {
        uint64_t usec; /* CLOCK_MONOTONIC µs */
        uint64_t kib;  /* the operation's position */
} pacer_sample;

typedef struct pacer {
        pacer_sample ring[PACER_SAMPLES];
        unsigned n;                   /* valid samples */
        unsigned next;                /* where the next sample goes */
        uint64_t rate;                /* KiB/s the line rises at; 0: not pacing */
        uint64_t slice_usec;          /* the line rises in steps this far apart; 0: evenly */
        uint64_t line_usec, line_kib; /* a point on the line */
} pacer;

/*
 * Records the position @kib at @usec. A position behind the last one (a new
 * operation, or md went back to a checkpoint) or a clock that went back
 * starts the history anew and stops pacing.
 */
void pacer_sample_at(pacer *p, uint64_t usec, uint64_t kib);

/*
 * Starts a line at @rate KiB/s from the last sample, rising evenly (@slice_usec
 * 0) or by a slice's worth at the start of each @slice_usec; without a sample,
 * pacing waits for the next.
 */
void pacer_start(pacer *p, uint64_t rate, uint64_t slice_usec);

/* Stops pacing; the history stays. */
void pacer_stop(pacer *p);

/*
 * The rate to give md as floor and ceiling now, within [@low, @high]: 0 with
 * it in @ret; -ENODATA when not pacing or with less than
 * PACER_HISTORY_MIN_USEC of history (the caller leaves R). Moves the line
 * to within PACER_SLACK_USEC of the last sample, or two slices more where
 * the rebuild leads.
 */
int pacer_limit(pacer *p, uint64_t low, uint64_t high, uint64_t *ret);

/*
 * Where the first turn at or after @usec begins: the start of a slice. 0
 * when not pacing, or pacing evenly. A line moved to the rebuild starts its
 * slices anew from there.
 */
uint64_t pacer_next_turn(const pacer *p, uint64_t usec);

/* The band paced values of rate @rate keep to: a quarter to four times it, within [@low, @high]. */
void pacer_band(uint64_t rate, uint64_t low, uint64_t high, uint64_t *ret_low, uint64_t *ret_high);
