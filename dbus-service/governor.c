/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "governor.h"
#include "journal.h"

static const char *const state_words[_GOVERNOR_STATE_MAX] = {
        [GOVERNOR_OFF] = "",      [GOVERNOR_FITTING] = "pending", [GOVERNOR_FREE] = "free",
        [GOVERNOR_HELD] = "held", [GOVERNOR_DONE] = "done",
};

const char *governor_state_to_string(governor_state s) {
        if (s < 0 || s >= _GOVERNOR_STATE_MAX)
                return NULL;
        return state_words[s];
}

governor_state governor_state_from_string(const char *s) {
        if (!s)
                return _GOVERNOR_STATE_INVALID;
        for (int i = 0; i < _GOVERNOR_STATE_MAX; i++)
                if (strcmp(s, state_words[i]) == 0)
                        return (governor_state)i;
        return _GOVERNOR_STATE_INVALID;
}

governor_state governor_on_boost(const profile_settings *s, governor_state old, bool fast, bool writes_floor,
                                 bool floor_option, bool *ret_restart) {
        *ret_restart = writes_floor;
        if (!writes_floor)
                return old;
        return fast && !floor_option && s->fit_percent > 0 ? GOVERNOR_FITTING : GOVERNOR_OFF;
}

int governor_fit_floor(const md_tval *speed, unsigned percent, const md_tval *original, const md_tval *written,
                       uint64_t *ret) {
        uint64_t floor;

        if (speed->kind != MD_V_NUMBER || speed->value == 0)
                return -ENODATA;
        if (!md_tval_has_number(written))
                return -ERANGE;
        floor = speed->value / 100 * percent + speed->value % 100 * percent / 100;
        /*
         * Above its floor md yields to every other request on the array, so a
         * floor at or above what the rebuild reaches changes nothing, and one
         * at or below the original gives the rebuild nothing the boost was for.
         */
        if (floor >= written->value || (md_tval_has_number(original) && floor <= original->value) ||
            md_tunable_check(MD_T_SYNC_SPEED_MIN, floor) < 0)
                return -ERANGE;
        *ret = floor;
        return 0;
}

/*
 * md's sync_speed is the rebuild's progress over its last ten marks, three
 * seconds apart (md_do_sync's resync_mark), and the number md compares with
 * the floor. Read once the boost has held for that span (fit_after_ms, 30 s
 * by default), it is the speed the rebuild reaches under the boost's floor
 * with the array's load of the moment; the floor is then lowered to a share
 * of it.
 */
static void step_fit(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                     uint64_t now, governor_decision *d) {
        const md_tunable t = MD_T_SYNC_SPEED_MIN;
        uint64_t floor;
        int r;

        if (clock->fit_start_usec == 0) {
                clock->fit_start_usec = now;
                return;
        }
        if (now - clock->fit_start_usec < s->fit_after_ms * 1000u)
                return;
        r = governor_fit_floor(&a->sync_speed, s->fit_percent, &e->originals[t], &e->written[t], &floor);
        if (r == -ENODATA)
                return; /* no rate yet: try again on the next poll */
        d->speed = a->sync_speed.value;
        d->next = GOVERNOR_DONE;
        if (r < 0) {
                d->action = GOVERNOR_KEEP;
                return;
        }
        if (!journal_tval_equal(&a->tunables[t], &e->written[t])) {
                d->action = GOVERNOR_KEEP;
                d->changed_by_admin = true;
                return;
        }
        d->action = GOVERNOR_FIT;
        d->value = (md_tval){ .kind = MD_V_LOCAL, .value = floor };
        d->replaced = e->written[t];
        d->next = s->hold_ceiling ? GOVERNOR_FREE : GOVERNOR_DONE;
}

/*
 * The ceiling the boost keeps while the array's users are quiet: the one it
 * replaced when it held, else the one in the journal, else the kernel's.
 */
static md_tval free_ceiling(const md_array *a, const journal_entry *e) {
        const md_tunable t = MD_T_SYNC_SPEED_MAX;

        if (e->fit == GOVERNOR_HELD)
                return e->earlier[t];
        if (e->written[t].kind != MD_V_ABSENT)
                return e->written[t];
        return a->tunables[t];
}

/* The floor is the fitted one and the ceiling one the boost wrote or left, above the floor. */
static bool hold_allowed(const md_array *a, const journal_entry *e, const md_tval *high) {
        const md_tval *min = &e->written[MD_T_SYNC_SPEED_MIN], *now = &a->tunables[MD_T_SYNC_SPEED_MAX];
        const md_tval *wrote = &e->written[MD_T_SYNC_SPEED_MAX], *before = &e->earlier[MD_T_SYNC_SPEED_MAX];

        if (!journal_tval_equal(&a->tunables[MD_T_SYNC_SPEED_MIN], min))
                return false;
        if (wrote->kind != MD_V_ABSENT && !journal_tval_equal(now, wrote) && !journal_tval_equal(now, before))
                return false;
        return (high->kind == MD_V_SYSTEM || high->kind == MD_V_LOCAL) && high->value > min->value;
}

/*
 * Above its floor md yields to other I/O only while it sees some on the
 * members (is_mddev_idle), and only by waiting for its own requests in
 * flight; it sleeps only when its speed is over sync_speed_max. So while the
 * array's users read or write, the ceiling comes down to the fitted floor
 * and the rebuild keeps exactly that; once they have been quiet for
 * quiet_ms, the ceiling lifts and the rebuild takes the idle disks.
 * Users are what the md device itself counts (sys/block/<md>/stat): the
 * rebuild reads and writes the members, never the md device.
 */
#define USERS_BUSY_KIBS 1024 /* less than this is housekeeping, not users to make room for */

static void step_users(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                       uint64_t now, governor_decision *d) {
        md_tval high, floor;
        bool hold;

        if (a->io_sectors.kind != MD_V_NUMBER) {
                clock->io_usec = 0; /* unknown: the users count as quiet */
        } else {
                bool first = clock->io_usec == 0;

                if (!first && now > clock->io_usec && a->io_sectors.value >= clock->io_sectors &&
                    (a->io_sectors.value - clock->io_sectors) / 2 * 1000000 / (now - clock->io_usec) >= USERS_BUSY_KIBS)
                        clock->users_usec = now;
                clock->io_sectors = a->io_sectors.value;
                clock->io_usec = now;
                if (first) {
                        /* A rate takes two reads. After a restart, a hold counts from now. */
                        if (e->fit == GOVERNOR_HELD)
                                clock->users_usec = now;
                        return;
                }
        }
        hold = clock->users_usec != 0 && now - clock->users_usec < s->quiet_ms * 1000u;
        if (hold == (e->fit == GOVERNOR_HELD))
                return;
        high = free_ceiling(a, e);
        if (!hold_allowed(a, e, &high)) {
                d->action = GOVERNOR_STOP;
                d->next = GOVERNOR_DONE;
                return;
        }
        floor = (md_tval){ .kind = MD_V_LOCAL, .value = e->written[MD_T_SYNC_SPEED_MIN].value };
        d->action = hold ? GOVERNOR_HOLD : GOVERNOR_LIFT;
        d->next = hold ? GOVERNOR_HELD : GOVERNOR_FREE;
        d->value = hold ? floor : high;
        d->replaced = hold ? high : floor;
}

void governor_step(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                   uint64_t now, governor_decision *ret) {
        *ret = (governor_decision){ .action = GOVERNOR_WAIT, .next = e->fit };
        if (a->sync_action == MD_SYNC_FROZEN)
                return;
        switch (e->fit) {
        case GOVERNOR_FITTING:
                step_fit(s, a, e, clock, now, ret);
                break;
        case GOVERNOR_FREE:
        case GOVERNOR_HELD:
                step_users(s, a, e, clock, now, ret);
                break;
        default:
                break;
        }
}
