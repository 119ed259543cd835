/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The governor of a `fast` boost, as a state machine. Pure: no I/O, no
 * logging. Its state is saved in the boost's journal entry ("fit"); what it
 * measures between polls (governor_clock) is not, a restart measures anew.
 *
 * What drives it: monitor.c calls governor_step() on every poll with the
 * array as just read, while the boost's operation runs; service.c makes the
 * writes the step decided (service_govern), journal first, and moves the
 * entry to the decision's next state, or to DONE when a write fails. A
 * Boost sets the state with governor_on_boost().
 *
 * The admin states what the array's users keep: a share of the throughput
 * they get while the rebuild is held back (users_share, 50 % by default),
 * or a bound on their requests' latency (users_latency_ms, the 99th
 * percentile). For a share the governor learns that throughput by holding
 * the rebuild back briefly, then steers the rebuild's rate so that the users
 * keep their share; for a bound it steers without learning, from the
 * latency the md device's counters show. Either way it gives the rebuild
 * the whole disks while the users are quiet.
 *
 *   OFF       nothing is followed: the floor is not one `fast` chose itself
 *   FITTING   the boost's floor holds; once md's sync_speed has averaged
 *             over it (fit_after_ms, and up to 15 s more below the floor
 *             until the caller knows the unbounded rate: whole_kibs), FIT
 *             lowers it to fit_percent of that
 *             speed -> FREE (steering on) or DONE; a floor that would not
 *             come down, or one an administrator changed, ends it
 *             (KEEP -> DONE)
 *   FREE      the ceiling is the boost's own; users busy: LEARN -> LEARNING,
 *             or STEER -> STEERING at the last rate when the baseline was
 *             learnt less than relearn_ms ago
 *   LEARNING  floor and ceiling are the original floor, so md holds the
 *             rebuild back; after learn_ms the users' throughput over its
 *             last two thirds is their baseline: STEER -> STEERING at a
 *             first rate; users quiet for quiet_ms: LIFT -> FREE
 *   STEERING  floor and ceiling are one rate, which md keeps on average
 *             over its last 30 s (after a step down, in bursts: pacer.h);
 *             where the caller knows the operation's live position, every
 *             poll writes both to the value that holds the rebuild to that
 *             rate steadily (PACE, within a band the journal records, no
 *             journal save); every step_ms the users' throughput,
 *             averaged over the steps at this rate (GOVERNOR_JUDGE_STEPS at
 *             most), is compared with their share of the baseline and the
 *             rate moves down or up (STEER), after a second step at a rate
 *             unless the first found them far from their share (and up only
 *             while the users' last minute, the steps not judged included,
 *             left them as much room as the steps at this rate);
 *             every relearn_ms the baseline is learnt again (LEARN); users
 *             quiet for quiet_ms: LIFT -> FREE. With a latency bound the
 *             users' latency is compared with the bound instead, nothing is
 *             learnt (FREE steers at once), and where md has sync_io_depth
 *             (6.16+) the floor stays at the original and the levers are
 *             sync_io_depth first, then the ceiling
 *   DONE      nothing is followed any more
 *
 * From FREE, LEARNING or STEERING an administrator's change of either limit
 * ends the following without a write (STOP -> DONE).
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "pacer.h"
#include "profiles.h"

/* The largest latency bound a boost or the configuration may state, ms. */
#define GOVERNOR_LATENCY_MAX_MS 60000

struct journal_entry;

typedef enum governor_state {
        GOVERNOR_OFF,
        GOVERNOR_FITTING,
        GOVERNOR_FREE,
        GOVERNOR_LEARNING,
        GOVERNOR_STEERING,
        GOVERNOR_DONE,
        _GOVERNOR_STATE_MAX,
        _GOVERNOR_STATE_INVALID = -EINVAL,
} governor_state;

/*
 * The journal's words: "" (OFF), "pending", "free", "learning", "steering",
 * "done". "held", the word of an earlier version for a ceiling held at the
 * floor, reads as STEERING, whose baseline a restart learns again.
 */
const char *governor_state_to_string(governor_state s);
governor_state governor_state_from_string(const char *s);

/*
 * How many steps at one rate the users' throughput is judged over. One step
 * of a few seconds on disks that seek scatters by a third either way, as the
 * users' requests and the rebuild's happen to interleave.
 */
#define GOVERNOR_JUDGE_STEPS 3

/*
 * How far back the users' account runs: the span over which they are to
 * keep their share, as an administrator watching them would average it.
 */
#define GOVERNOR_ACCOUNT_USEC (60ull * 1000000ull)

/* Steps in that span: they last a second at least (step_ms's least), and one may straddle its start. */
#define GOVERNOR_ACCOUNT_STEPS 61

/* One busy step of the users' account. */
typedef struct governor_account_step {
        uint64_t end_usec; /* when the step ended */
        uint64_t usec;     /* how long it lasted */
        uint64_t kib;      /* what the users moved in it */
} governor_account_step;

/* What the governor measures between polls; all zero after a restart. */
typedef struct governor_clock {
        uint64_t fit_start_usec; /* CLOCK_MONOTONIC time the fit's wait began, 0 before */
        uint64_t io_sectors;     /* the array's io_sectors at io_usec */
        uint64_t io_usec;        /* CLOCK_MONOTONIC time io_sectors was read, 0 before */
        uint64_t users_usec;     /* when the array last had users, 0 before */
        uint64_t span_sectors;   /* io_sectors when the current learning or step began */
        uint64_t span_usec;      /* when it began, 0 before */
        bool span_pos_known;     /* position_kib was known when it began */
        uint64_t span_pos_kib;   /* and was this */
        uint64_t hold_usec;      /* when the rebuild was last held back to learn the baseline */
        bool settled;            /* the hold has settled: the users' span counts from then */
        bool hold_waited;        /* it waited past its first third for users who completed nothing */
        uint64_t learnt_usec;    /* when the baseline was learnt, 0 before */
        uint64_t baseline_kibs;  /* the users' throughput with the rebuild held back, KiB/s */
        uint64_t excess_kibs;    /* the users' throughput over the last step when above baseline_kibs, else 0 */
        uint64_t users_kibs;     /* the users' throughput as last judged (learnt, or over the last steps), KiB/s */
        uint64_t rebuild_kibs;   /* the rebuild's rate over the last step, KiB/s; 0 when unknown */
        bool rebuild_stalled;    /* its position known, the rebuild did not move at all over the last step */
        uint64_t rate_kibs;      /* the rate last steered to, KiB/s; 0 before */
        uint64_t held_kibs;      /* the floor from before the boost, the least rate, when a share last steered */
        uint64_t io_requests;    /* the array's io_requests at io_usec */
        uint64_t io_in_flight;   /* the array's io_in_flight at io_usec */
        uint64_t waited_usec;    /* when the users last had requests in flight at two reads in a row, 0 before */
        bool users_stalled;      /* ... and at the last two reads, completing none in between */
        uint64_t span_requests;  /* io_requests when the current step began */
        uint64_t span_wait_ms;   /* io_wait_ms then */
        uint64_t io_wait_ms;     /* the array's io_wait_ms at io_usec */
        uint64_t slowest_us;     /* the highest mean of the requests completed between two reads in the span, µs */
        uint64_t latency_us;     /* the users' 99th percentile as estimated over the last span judged, µs; 0 before */
        bool latency_slowest;    /* latency_us is slowest_us, which was above twice the span's mean */
        uint64_t depth;          /* the sync_io_depth last steered to; 0 before */
        bool pacing;             /* a latency bound's rung is floor and ceiling at rate_kibs (see governor_rung) */
        uint64_t yield_kibs;     /* md's rate when the rung last went from yielding to pacing, KiB/s */
        unsigned under_steps;    /* steps in a row under the bound at this rung (GOVERNOR_BOUND_UNDER_STEPS) */
        /* The users' throughput over each step since the rate was last set, newest last, KiB/s */
        uint64_t step_kibs[GOVERNOR_JUDGE_STEPS];
        unsigned steps; /* how many of step_kibs hold one */
        /* Set by the caller: the rebuild's rate with nothing holding it back, KiB/s, when known
         * (from this operation or an earlier one of its kind on the array), so busy users need not
         * wait for the fit to measure it; 0 when not known. */
        uint64_t whole_kibs;
        /* Set by the caller every poll while steering: the most stripes the memory budget allows the
         * array's stripe cache (what max sets), 0 when it has none. */
        uint64_t cache_high;
        uint64_t cache_short; /* the stripe cache under which the users were last short, since the baseline; 0 */
        bool cache_changed;   /* the last step resized the stripe cache: the next is md's transition, unjudged */
        /* The users' busy steps while steering since the baseline was learnt, judged or not, oldest first */
        governor_account_step account[GOVERNOR_ACCOUNT_STEPS];
        unsigned accounted; /* how many of account hold one */
        bool minute_held;   /* the account holds back the rise the users' share would allow */
        /* Set by the caller every poll: the operation's live position (/proc/mdstat), KiB, when known. */
        bool position_known;
        uint64_t position_kib;
        pacer pacer; /* the positions seen, and the line it paces to while steering at floor = ceiling */
} governor_clock;

typedef enum governor_action {
        GOVERNOR_WAIT,  /* nothing changes this poll */
        GOVERNOR_FIT,   /* write @value to sync_speed_min */
        GOVERNOR_KEEP,  /* the fit ends, the floor stays: @why */
        GOVERNOR_LEARN, /* write @value to sync_speed_min and sync_speed_max: the rebuild held back */
        GOVERNOR_STEER, /* write @value to sync_speed_min and sync_speed_max: the rebuild's rate */
        GOVERNOR_LIFT,  /* write @value (the boost's ceiling) to sync_speed_max */
        GOVERNOR_STOP,  /* an administrator changed a limit: following ends, nothing is written */
        GOVERNOR_PACE,  /* write @value to sync_speed_min and sync_speed_max, within the entry's pace band */
        _GOVERNOR_ACTION_MAX,
} governor_action;

typedef struct governor_decision {
        governor_action action;
        governor_state next;    /* the state once the writes (if any) are made */
        md_tval value;          /* FIT: the floor; LEARN, STEER, LIFT: the ceiling to write */
        md_tval floor;          /* LEARN, STEER: the floor to write (the ceiling, but for a bound with a depth) */
        md_tval depth;          /* STEER: the sync_io_depth to write; MD_V_ABSENT: left alone */
        md_tval replaced_depth; /* STEER: the sync_io_depth it replaces */
        md_tval cache;          /* STEER: the stripe_cache_size to write; MD_V_ABSENT: left alone */
        md_tval replaced_cache; /* STEER: the stripe_cache_size it replaces */
        md_tval replaced;       /* FIT: the floor it replaces; else the ceiling (journal "earlier") */
        md_tval replaced_floor; /* LEARN, STEER: the floor it replaces */
        md_tval lift;           /* LEARN, STEER: the ceiling a LIFT puts back, for the journal */
        uint64_t speed;         /* FIT, KEEP: md's sync_speed it was read from, KiB/s */
        bool changed_by_admin;  /* KEEP: sync_speed_min is no longer what the boost wrote */
        uint64_t users_kibs;    /* STEER: the users' throughput as judged (over the last steps) */
        uint64_t baseline_kibs; /* STEER: their throughput with the rebuild held back */
        uint64_t target_kibs;   /* STEER, and with minute_holds: what they are to keep */
        bool minute_holds;      /* the users' last minute has just begun to hold back a rise */
        uint64_t minute_kibs;   /* with minute_holds: the users' KiB/s over that minute */
        uint64_t latency_us;    /* STEER with a bound: the users' estimated 99th percentile, µs; 0: not measured */
        bool latency_slowest;   /* ... from the slowest read's mean rather than twice the step's */
        unsigned bound_ms;      /* STEER with a bound: the bound */
        /* Every action that writes a limit: the band paced values keep to from now on (journal "paced"),
         * 0, 0 when the rebuild is not paced. */
        uint64_t pace_low, pace_high;
} governor_decision;

/* Whether @a writes sync_speed_min, sync_speed_max; whether @d writes sync_io_depth, stripe_cache_size. */
bool governor_writes_floor(governor_action a);
bool governor_writes_ceiling(governor_action a);
bool governor_writes_depth(const governor_decision *d);
bool governor_writes_cache(const governor_decision *d);

/*
 * Whether users who moved @kib KiB in @requests requests over @usec count
 * as busy (@s's busy_kibs KiB/s or busy_iops requests a second, or more;
 * 1 MiB/s and 8 by default): what the governor makes room for, what a
 * check pauses for, and what the reports count as the users' busy time.
 */
bool governor_users_busy(const profile_settings *s, uint64_t kib, uint64_t requests, uint64_t usec);

/*
 * Whether the users of @a have requests in flight now and had @in_flight_before
 * at the read before: users held up behind the rebuild, who complete little or
 * nothing and would look quiet to governor_users_busy, not users gone.
 */
bool governor_users_waiting(const md_array *a, uint64_t in_flight_before);

/*
 * The latency bound the boost @e keeps to, ms: its own, else the
 * configuration's unless the boost stated a share; 0 when the target is a
 * share.
 */
unsigned governor_bound_ms(const profile_settings *s, const struct journal_entry *e);

/*
 * The users' target in a few characters, "50%" (a share) or "50ms" (a
 * bound): the boost @e's, or with @e NULL the configuration's. Rates the
 * governor kept are only comparable under the same target.
 */
#define GOVERNOR_TARGET_NAME_MAX 16
void governor_target_name(const profile_settings *s, const struct journal_entry *e, char ret[GOVERNOR_TARGET_NAME_MAX]);

/*
 * The users' 99th percentile latency, µs, estimated from the md device's
 * counters over a step: @requests completed taking @wait_ms in all. md
 * counts no percentile, only the sum; the estimate is the mean times
 * GOVERNOR_TAIL_FACTOR. 0 when fewer than GOVERNOR_LATENCY_MIN_REQUESTS
 * completed: too few to judge.
 */
#define GOVERNOR_TAIL_FACTOR 2
#define GOVERNOR_LATENCY_MIN_REQUESTS 8
/* How many steps a span with fewer requests than that runs on before they are judged all the same. */
#define GOVERNOR_LATENCY_SPAN_STEPS 4
/* How many steps in a row under a latency bound before the rung climbs; past it, it comes down at once. */
#define GOVERNOR_BOUND_UNDER_STEPS 2
uint64_t governor_latency_us(uint64_t requests, uint64_t wait_ms);
/* How the estimate was made, in words for the log and the explanation: "twice md's mean" or "the slowest second's mean". */
const char *governor_latency_basis(bool slowest);

/* The longest a learning hold lasts, ms: learn_ms, or twice that while the users wait behind the rebuild. */
uint64_t governor_hold_max_ms(const profile_settings *s);

/*
 * A rung of the ladder a latency bound climbs. Where md has sync_io_depth
 * (6.16+) there are two regimes. Yielding: the floor stays at the original
 * and md makes way for the users itself, keeping at most @depth of its
 * requests in flight while it sees them, under a ceiling of @rate. Pacing
 * (@pacing): floor and ceiling at @rate, which md keeps on average, as for
 * a share. Yielding with md's own depth and the boost's ceiling is what md's
 * defaults give; pacing above the rate md reached that way gives the rebuild
 * more. Before 6.16 (@depth 0) every rung paces.
 */
typedef struct governor_rung {
        uint64_t rate;
        uint64_t depth;
        bool pacing;
} governor_rung;

/*
 * One step towards a latency bound: @latency_us estimated against @bound_ms.
 * Past the bound by more than the band the rebuild gives way one rung:
 * pacing, the rate comes down by 30 %, and once it is no more than
 * @yield_rate (the rate md reached yielding) md yields again with its own
 * depth; yielding, @depth halves down to 1, then the ceiling comes down by
 * 30 %. Under the bound by more than the band it climbs back the same way:
 * the ceiling up by a fifth and half of @low to @high, the depth doubled
 * up to @depth_high, then pacing from a fifth (and half of @low) above
 * @yield_rate up to @high. Rates stay within [@low, @high]. True when the
 * rung changed. The caller decides whether a step under the bound climbs
 * at all (GOVERNOR_BOUND_UNDER_STEPS).
 */
bool governor_next_level(uint64_t latency_us, unsigned bound_ms, uint64_t low, uint64_t high, uint64_t depth_high,
                         uint64_t yield_rate, governor_rung *rung);

/*
 * The state a Boost leaves: FITTING when it writes a `fast` floor of its own
 * choosing (no sync_speed_min option) and fitting is on, OFF when it writes
 * the floor any other way; @old when it leaves the floor alone. @restart
 * gets whether the clock starts again.
 */
governor_state governor_on_boost(const profile_settings *s, governor_state old, bool fast, bool writes_floor,
                                 bool floor_option, bool *ret_restart);

/*
 * One poll of a boost whose operation runs: @e is its journal entry, @a the
 * array as just read, @now CLOCK_MONOTONIC microseconds. Updates @clock and
 * says what to do. A frozen array waits.
 */
void governor_step(const profile_settings *s, const md_array *a, const struct journal_entry *e, governor_clock *clock,
                   uint64_t now, governor_decision *ret);

/*
 * The floor a `fast` boost settles on once the rebuild has run under it:
 * @percent of @speed, md's sync_speed (KiB/s) read after the boost held for
 * md's averaging span. 0 with the floor in @ret when that lowers @written
 * and stays above @original; -ERANGE when it would not (the written floor
 * is kept); -ENODATA when @speed is no rate.
 */
int governor_fit_floor(const md_tval *speed, unsigned percent, const md_tval *original, const md_tval *written,
                       uint64_t *ret);

/* What the users are to keep while steering: @share percent of their @baseline, KiB/s. */
uint64_t governor_target(uint64_t baseline, unsigned share);

/*
 * The rebuild's next rate while steering, KiB/s: @rate lowered when the
 * users' throughput @users is short of @target, raised when it is more
 * than a fifth above it, else @rate; always within [@low, @high].
 */
uint64_t governor_next_rate(uint64_t rate, uint64_t users, uint64_t target, uint64_t low, uint64_t high);

/*
 * The users' throughput over the busy steps of their account (@clock's,
 * steering to a share) that ended in the GOVERNOR_ACCOUNT_USEC before @now,
 * KiB/s; 0 when there are none.
 */
uint64_t governor_account_kibs(const governor_clock *clock, uint64_t now);

/* The stripe cache the governor of the boost @e grew, stripes, from its journal; 0 while it is the boost's own. */
uint64_t governor_grown_cache(const struct journal_entry *e);

/*
 * While steering at @rate: what the rebuild moved over the last step,
 * KiB/s, when the users' requests held it below three quarters of the rate
 * (a higher rate would change little: rate_binds in governor.c), else 0.
 * With a bound @bound_ms, 0 too while md yields at a rung of @depth.
 */
uint64_t governor_moves_kibs(const governor_clock *clock, unsigned bound_ms, uint64_t depth, uint64_t rate);

/*
 * While steering to a share of @share percent: what the users got over the
 * last minute to their last step, KiB/s, every step counted, when that
 * minute is what keeps the rebuild from more (the steps at the rate leave
 * them more than a fifth above their share, the minute does not); else 0.
 */
uint64_t governor_minute_kibs(const governor_clock *clock, unsigned share);

/*
 * While steering to a @share at @rate: whether the rate is the floor from
 * before the boost and the users still get less than their share (the
 * governor goes no lower).
 */
bool governor_floor_held(const governor_clock *clock, unsigned share, uint64_t rate);

/*
 * One sentence in @buf that says what the governor of a boost in state @st
 * does now and why, from what it measured (@clock, NULL after a restart),
 * the users' @share or latency @bound_ms (0: a share), the rebuild's @rate
 * (the floor the boost has, or the ceiling while steering, KiB/s), the
 * sync_io_depth it set (@depth, 0: none) and the stripe cache it grew
 * (@cache, 0: none). "" for OFF.
 */
void governor_explain(const profile_settings *s, governor_state st, const governor_clock *clock, unsigned share,
                      unsigned bound_ms, uint64_t rate, uint64_t depth, uint64_t cache, char *buf, size_t size);
