/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The governor of a `fast` boost, as a state machine. Pure: no I/O, no
 * logging. Its state is saved in the boost's journal entry ("fit"); what it
 * measures between polls (governor_clock) is not, a restart measures anew.
 *
 * What drives it: monitor.c calls governor_step() on every poll with the
 * array as just read, while the boost's operation runs; service.c makes the
 * write the step decided (service_govern), journal first, and moves the
 * entry to the decision's next state, or to DONE when the write fails. A
 * Boost sets the state with governor_on_boost().
 *
 *   OFF      nothing is followed: the floor is not one `fast` chose itself
 *   FITTING  the boost's floor holds; once md's sync_speed has averaged over
 *            it (fit_after_ms), FIT lowers it to fit_percent of that speed
 *            -> FREE (hold_ceiling on) or DONE; a floor that would not come
 *            down, or one an administrator changed, ends it (KEEP -> DONE)
 *   FREE     the ceiling is the boost's own; users busy: HOLD -> HELD
 *   HELD     the ceiling is the fitted floor; users quiet for quiet_ms:
 *            LIFT -> FREE
 *   DONE     nothing is followed any more
 *
 * From FREE or HELD an administrator's change of either limit ends the
 * following without a write (STOP -> DONE).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "profiles.h"

struct journal_entry;

typedef enum governor_state {
        GOVERNOR_OFF,
        GOVERNOR_FITTING,
        GOVERNOR_FREE,
        GOVERNOR_HELD,
        GOVERNOR_DONE,
        _GOVERNOR_STATE_MAX,
        _GOVERNOR_STATE_INVALID = -EINVAL,
} governor_state;

/* The journal's words: "" (OFF), "pending", "free", "held", "done". */
const char *governor_state_to_string(governor_state s);
governor_state governor_state_from_string(const char *s);

/* What the governor measures between polls; all zero after a restart. */
typedef struct governor_clock {
        uint64_t fit_start_usec; /* CLOCK_MONOTONIC time the fit's wait began, 0 before */
        uint64_t io_sectors;     /* the array's io_sectors at io_usec */
        uint64_t io_usec;        /* CLOCK_MONOTONIC time io_sectors was read, 0 before */
        uint64_t users_usec;     /* when the array last had users, 0 before */
} governor_clock;

typedef enum governor_action {
        GOVERNOR_WAIT, /* nothing changes this poll */
        GOVERNOR_FIT,  /* write @value to sync_speed_min */
        GOVERNOR_KEEP, /* the fit ends, the floor stays: @why */
        GOVERNOR_HOLD, /* write @value (the floor) to sync_speed_max */
        GOVERNOR_LIFT, /* write @value (the boost's ceiling) to sync_speed_max */
        GOVERNOR_STOP, /* an administrator changed a limit: following ends, nothing is written */
} governor_action;

typedef struct governor_decision {
        governor_action action;
        governor_state next;   /* the state once the write (if any) is made */
        md_tval value;         /* FIT, HOLD, LIFT: the value to write */
        md_tval replaced;      /* FIT, HOLD, LIFT: the boost's value it replaces (journal "earlier") */
        uint64_t speed;        /* FIT, KEEP: md's sync_speed it was read from, KiB/s */
        bool changed_by_admin; /* KEEP: sync_speed_min is no longer what the boost wrote */
} governor_decision;

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
