/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The record of an operation that ended: what md did (action, how it
 * ended, onto which members, how long, how much and how fast), what the
 * service did about it (which boost, by whom, for how long, how it was put
 * back), what it cost the users, and how long the array ran without
 * redundancy. Kept for the last REPORT_KEEP operations of each array, across
 * restarts (report-io.c), returned by Manager.GetReports.
 *
 * A tally is filled from poll to poll while the operation runs; at its end
 * report_make() turns it into a report. Everything here is pure.
 */

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "profiles.h"

#define REPORT_KEEP 5

/* The users over a stretch of an operation, from the md device's counters. */
typedef struct tally_users {
        uint64_t busy_kib;  /* what they read and wrote in the samples they were busy in */
        uint64_t busy_usec; /* the time of those samples */
        uint64_t sampled_usec;
} tally_users;

typedef struct op_tally {
        uint64_t last_usec; /* CLOCK_MONOTONIC time of the last sample, 0 before one */
        uint64_t last_io;   /* the md device's io_sectors then */
        bool have_io;
        char onto[64];         /* the members being rebuilt, "vdd" or "vdd vde" */
        uint64_t peak_kibs;    /* md's highest sync_speed seen */
        uint64_t boosted_usec; /* time a boost was in place */
        char boost[16];        /* its profile */
        char policy[16];       /* the policy's class that made it, "" for an administrator's */
        uint64_t exposed_usec; /* time the array had no redundancy left */
        uint64_t users_kib;    /* what the users read and wrote on the md device */
        uint64_t users_busy_usec;
        uint64_t users_alone_kibs;     /* what the governor learnt they get alone, 0 unknown */
        uint64_t last_requests;        /* the md device's io_requests at the last sample */
        uint64_t last_in_flight;       /* ... and its io_in_flight */
        uint64_t sampled_usec;         /* the time the samples cover */
        uint64_t quiet_since_usec;     /* CLOCK_MONOTONIC time the users went quiet, 0 while busy or unknown */
        uint64_t unbounded_since_usec; /* ... md went below its floor, where it applies no limit; 0 above it */
        /* md's sync_speed once nothing held the rebuild back for md's averaging span: below its
         * floor (as under max), or with the users quiet */
        uint64_t whole_kibs;
        bool whole_capped;            /* ... read at md's ceiling with quiet users, so the disks may give more */
        uint64_t steering_since_usec; /* CLOCK_MONOTONIC time the governor began steering busy users, 0 */
        uint64_t steered_kib;         /* what the rebuild moved in the steered time, KiB */
        uint64_t steered_usec;        /* the steered time measured: from the live position, or once md's
                                       * sync_speed had followed */
        bool steered_pos_known;       /* the last sample steered, at a known live position: */
        uint64_t steered_pos_kib;     /* ... this one, KiB */
        char steered_target[16];      /* the users' target it steered to: "50%" (a share) or "50ms" (a bound) */
        double steered_recent_kib;    /* steered_kib, each sample's share fading by about e per md's averaging
                                       * span of steering */
        double steered_recent_usec;   /* ... and steered_usec alike: over them, the rate of the last half-minute */
        uint64_t lifted_kib;          /* what the rebuild moved while the governor held nothing back and the users
                                       * were quiet, KiB */
        uint64_t lifted_usec;         /* ... in this time, from the live position */
        bool lifted_pos_known;        /* the last sample was such a one, at a known live position: */
        uint64_t lifted_pos_kib;      /* ... this one, KiB */
        uint64_t unboosted_kibs;      /* md's sync_speed at the last sample without a boost, 0 unknown */
        uint64_t before_boost_kibs;   /* ... at the one before the boost in place now came, 0 unknown or none */
        /* What the boost costs the users: */
        bool boosted;                /* the last sample had a boost */
        tally_users users_unboosted; /* since the operation began or the last boost ended */
        tally_users users_before;    /* ... up to the boost in place now; zeros without one */
        tally_users users_boosted;   /* under the boost in place now; zeros without one */
} op_tally;

typedef struct op_report {
        char uuid[37];
        char array[MD_NAME_MAX + 1];
        char action[16];  /* "recover", "resync", "check", "repair", "reshape" */
        char outcome[16]; /* "finished", "member-failed", "interrupted", "frozen" */
        char onto[64];
        uint64_t started_usec, ended_usec; /* µs since the epoch */
        double progress;                   /* percent reached */
        uint64_t kib;                      /* what md moved while the service watched */
        uint64_t peak_kibs;
        char boost[16];
        char policy[16];
        uint64_t boosted_usec;
        uint64_t exposed_usec;
        uint64_t users_kib;
        uint64_t users_busy_usec;
        uint64_t users_alone_kibs;
        uint64_t whole_kibs;     /* the rebuild's rate with nothing holding it back, 0 unknown */
        bool whole_capped;       /* ... read at md's ceiling */
        uint64_t steered_kibs;   /* the rate the governor kept for busy users, 0 unknown */
        char steered_target[16]; /* ... for this target, "50%" or "50ms"; "" unknown */
        /* How the boost ended: "automatically" (with the operation), "by-request" (Restore,
         * or a policy stepping back, before the end), "in-place" (still boosted), "" (never). */
        char restored[16];
} op_report;

/* A sample for the boost in place now: its profile and policy class ("" each without one). */
typedef struct tally_boost {
        const char *profile;
        const char *policy;
        uint64_t users_alone_kibs;
        bool steering;      /* the governor steers the rebuild for busy users */
        const char *target; /* ... to this target ("50%", "50ms"), while steering */
        bool lifted;        /* the governor holds nothing back: the boost's ceiling, for quiet users */
        /* While steering or lifted: the operation's live position (/proc/mdstat), KiB, when known */
        bool position_known;
        uint64_t position_kib;
} tally_boost;

/* Starts a tally for the operation @a runs, at @now_usec (CLOCK_MONOTONIC). */
void report_tally_start(op_tally *t, const md_array *a, uint64_t now_usec);

/*
 * Adds the time since the last sample: @boost NULL without one, @exposed
 * when no redundancy is left; @s says when the users count as busy.
 */
void report_tally_sample(op_tally *t, const profile_settings *s, const md_array *a, uint64_t now_usec,
                         const tally_boost *boost, bool exposed);

/* The rate the governor kept for busy users so far, KiB/s; 0 unknown. */
uint64_t report_tally_steered_kibs(const op_tally *t);
/* ... over about the last half-minute of its steering, KiB/s; 0 while report_tally_steered_kibs is. */
uint64_t report_tally_steered_recent_kibs(const op_tally *t);
/* The rate the rebuild ran at while the governor held nothing back from quiet users, KiB/s; 0 unknown. */
uint64_t report_tally_lifted_kibs(const op_tally *t);

/* The users' throughput while they were busy, KiB/s; 0 when they were busy for less than 10 s. */
uint64_t report_users_busy_kibs(const tally_users *u);
/* How much of the time sampled they were busy, permille; 0 when nothing was sampled. */
unsigned report_users_busy_permille(const tally_users *u);

/* Derived values: 0 when unknown. */
uint64_t report_duration_s(const op_report *r);
uint64_t report_average_kibs(const op_report *r);
uint64_t report_users_kibs(const op_report *r); /* while busy */
/* The users' throughput while busy as a share of what they get alone, percent; -1 unknown. */
int report_users_kept_percent(const op_report *r);

/* One line: "recover finished onto vdd in 3 h 12 min at 41.0 MiB/s; boosted with fast for ...". */
void report_summary(const op_report *r, char *buf, size_t size);

/* The reports kept, oldest first. */
typedef struct report_book {
        op_report *reports;
        unsigned n, cap;
} report_book;

/* Adds @r, dropping the array's oldest beyond REPORT_KEEP. */
int report_book_add(report_book *b, const op_report *r);
void report_book_free(report_book *b);

/* As JSON: {"reports": [{...}, ...]}; NULL on ENOMEM. */
json_object *report_book_to_json(const report_book *b);
/* Reads what report_book_to_json wrote; entries that do not parse are skipped and counted in @ret_skipped. */
int report_book_from_json(json_object *o, report_book *ret, unsigned *ret_skipped);
