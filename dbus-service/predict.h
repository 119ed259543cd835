/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * When the running operation ends, at the rate it runs now, with fast's
 * governor at its target and with max, from the rates the service has seen
 * on this array. Pure: no I/O.
 *
 * What is known comes from the operation's tally (report.h):
 *  - md's rate now: sync_speed, md's own average over about 30 s;
 *  - the rebuild's rate with nothing holding it back ("whole"): sync_speed
 *    read once md had been below its floor (where it applies no limit, as
 *    under max) or the users quiet for a whole averaging span; it is what
 *    max gets. Read with quiet users under a ceiling it reached, it is only
 *    a lower bound;
 *  - the rate the governor kept while it steered busy users ("steered"),
 *    and how much of the time the users are busy;
 *  - the rate the rebuild ran at while the governor held nothing back and
 *    the users were quiet ("quiet"), from the live position.
 * The governor's rate is the steered rate while they are busy and the quiet
 * rate (or, until that is known, the whole one) while they are quiet,
 * weighted by their busy share so far. Rates of an earlier operation of the
 * same kind on the array stand in for the whole and the steered rates until
 * this one has its own (predict_input).
 */

#include <stdbool.h>
#include <stdint.h>

#include "report.h"

typedef struct prediction_input {
        uint64_t remaining_kib; /* what is left of the operation */
        uint64_t now_kibs;      /* md's sync_speed now, 0 unknown */
        uint64_t whole_kibs;    /* the rate with nothing holding it back, 0 unknown */
        bool whole_capped;      /* read while md's ceiling held it: max may do better */
        uint64_t steered_kibs;  /* the rate the governor kept for busy users, 0 unknown */
        uint64_t quiet_kibs;    /* the rate it gave the rebuild while they were quiet, 0 unknown */
        unsigned busy_permille; /* how much of the time the users were busy, 0..1000 */
        bool busy_known;        /* whether the service has watched the users long enough to say */
} prediction_input;

typedef struct prediction {
        uint64_t now_s;      /* at the rate now; 0 unknown */
        uint64_t governor_s; /* with the governor at its target; 0 unknown */
        uint64_t max_s;      /* with max; 0 unknown */
        uint64_t governor_kibs, max_kibs;
        bool max_at_most; /* max_s is an upper bound (the whole rate was read under a ceiling) */
} prediction;

void predict(const prediction_input *in, prediction *ret);

/*
 * The inputs from @t (the running operation's tally, sampled up to
 * @now_usec) and, where it does not know yet, the newest report in @b of
 * @uuid's operations of kind @action that does. The governor's rate is
 * taken only where it steered to @target ("50%", "50ms": what a governor
 * started now would keep to), as a share and a bound keep different rates.
 */
void predict_input(const op_tally *t, const report_book *b, const char *uuid, const char *action, const char *target,
                   prediction_input *ret);
