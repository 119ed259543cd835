/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "governor.h"
#include "journal.h"

static const char *const state_words[_GOVERNOR_STATE_MAX] = {
        [GOVERNOR_OFF] = "",
        [GOVERNOR_FITTING] = "pending",
        [GOVERNOR_FREE] = "free",
        [GOVERNOR_LEARNING] = "learning",
        [GOVERNOR_STEERING] = "steering",
        [GOVERNOR_DONE] = "done",
};

const char *governor_state_to_string(governor_state s) {
        if (s < 0 || s >= _GOVERNOR_STATE_MAX)
                return NULL;
        return state_words[s];
}

governor_state governor_state_from_string(const char *s) {
        if (!s)
                return _GOVERNOR_STATE_INVALID;
        if (strcmp(s, "held") == 0)
                return GOVERNOR_STEERING; /* an earlier version's ceiling held at the floor: learnt again */
        for (int i = 0; i < _GOVERNOR_STATE_MAX; i++)
                if (strcmp(s, state_words[i]) == 0)
                        return (governor_state)i;
        return _GOVERNOR_STATE_INVALID;
}

bool governor_writes_floor(governor_action a) {
        return a == GOVERNOR_FIT || a == GOVERNOR_LEARN || a == GOVERNOR_STEER || a == GOVERNOR_PACE;
}

bool governor_writes_ceiling(governor_action a) {
        return a == GOVERNOR_LEARN || a == GOVERNOR_STEER || a == GOVERNOR_LIFT || a == GOVERNOR_PACE;
}

bool governor_writes_depth(const governor_decision *d) {
        return d->action == GOVERNOR_STEER && d->depth.kind != MD_V_ABSENT;
}

bool governor_writes_cache(const governor_decision *d) {
        return d->action == GOVERNOR_STEER && d->cache.kind != MD_V_ABSENT;
}

unsigned governor_bound_ms(const profile_settings *s, const journal_entry *e) {
        if (e->users_latency_ms)
                return e->users_latency_ms;
        return e->users_share ? 0 : s->users_latency_ms;
}

void governor_target_name(const profile_settings *s, const journal_entry *e, char ret[GOVERNOR_TARGET_NAME_MAX]) {
        unsigned bound_ms = e ? governor_bound_ms(s, e) : s->users_latency_ms;

        if (bound_ms)
                snprintf(ret, GOVERNOR_TARGET_NAME_MAX, "%ums", bound_ms);
        else
                snprintf(ret, GOVERNOR_TARGET_NAME_MAX, "%u%%", e && e->users_share ? e->users_share : s->users_share);
}

/*
 * md adds up how long each of the users' requests took, from submission to
 * completion, and counts them; it keeps no distribution. Measured on the
 * modelled disks (docs/benchmarks-nas.md), fio's 99th percentile was 1.1 to
 * 2.3 times its mean across the workloads, with the rebuild and without:
 * twice the mean stands for it.
 */
static uint64_t mean_us(uint64_t requests, uint64_t wait_ms) {
        return requests ? wait_ms * 1000 / requests : 0;
}

static uint64_t tail_us(uint64_t requests, uint64_t wait_ms) {
        return mean_us(requests, wait_ms) * GOVERNOR_TAIL_FACTOR;
}

uint64_t governor_latency_us(uint64_t requests, uint64_t wait_ms) {
        if (requests < GOVERNOR_LATENCY_MIN_REQUESTS)
                return 0;
        return tail_us(requests, wait_ms);
}

const char *governor_latency_basis(bool slowest) {
        return slowest ? "the slowest second's mean" : "twice md's mean";
}

uint64_t governor_hold_max_ms(const profile_settings *s) {
        return 2 * s->learn_ms; /* settling waits up to 4/3 learn_ms, the baseline spans 2/3 after it */
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

/* How much longer than fit_after_ms the fit waits for the service to learn the rebuild's unbounded rate. */
#define FIT_RATE_WAIT_USEC (15ull * 1000000ull)

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
        /*
         * The fit is the one stretch in which the rebuild runs unbounded
         * while users may be busy; the service learns that rate from md's
         * average once it has stayed below the floor for md's whole span,
         * counted from its own samples, which need not line up with this
         * clock. Lowering the floor first would end that stretch a poll too
         * early and leave the rate unknown for the rest of the operation.
         * (A fit shorter than md's span is not one to learn it from.)
         */
        if (!clock->whole_kibs && s->fit_after_ms * 1000u >= MD_SYNC_SPEED_SPAN_USEC &&
            a->sync_speed.kind == MD_V_NUMBER && a->sync_speed.value > 0 && md_tval_has_number(&e->written[t]) &&
            a->sync_speed.value < e->written[t].value &&
            now - clock->fit_start_usec < s->fit_after_ms * 1000u + FIT_RATE_WAIT_USEC)
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

static uint64_t clamp(uint64_t v, uint64_t low, uint64_t high) {
        return v < low ? low : v > high ? high : v;
}

/* The share of a latency bound by which the users' latency may differ from it before the rung moves. */
#define BAND_PERCENT 10

/*
 * How far above their target the users' throughput may be before the rate
 * goes up. Below the target the rate comes down at once: the share is a
 * promise, so the rate settles where the users get from 100 to 120 % of it.
 */
#define HEADROOM_PERCENT 20

uint64_t governor_next_rate(uint64_t rate, uint64_t users, uint64_t target, uint64_t low, uint64_t high) {
        uint64_t next = rate;

        /*
         * Down fast, up slowly: a share missed costs the users now, a rate
         * too low only costs the rebuild a little time. md keeps the rate
         * as its own average over the last 30 s or so (its resync marks):
         * a step down stops the rebuild until that average has come down to
         * it, and md then makes it up in bursts at the disks' speed, a
         * window's worth about every 30 s; a step up lets it run at the
         * disks' speed until the average has caught up. Small steps keep
         * those swings, and the loop's overshoot, small.
         */
        if (users < target)
                next = rate - rate * 3 / 10;
        else if (users * 100 > target * (100 + HEADROOM_PERCENT))
                next = rate + rate / 5 + low / 2; /* and a little more from the held rate, 500 KiB/s on md's defaults */
        return clamp(next, low, high);
}

/* Whether @latency_us is under @bound_ms by more than the band. */
static bool latency_under(uint64_t latency_us, unsigned bound_ms) {
        return latency_us * 100 < (uint64_t)bound_ms * 1000 * (100 - BAND_PERCENT);
}

bool governor_next_level(uint64_t latency_us, unsigned bound_ms, uint64_t low, uint64_t high, uint64_t depth_high,
                         uint64_t yield_rate, governor_rung *rung) {
        uint64_t bound_us = (uint64_t)bound_ms * 1000;
        governor_rung r = *rung;

        if (!depth_high)
                r.pacing = true; /* no sync_io_depth: pacing is the only lever */
        /*
         * One rung a step. Down: less pacing, then fewer of the rebuild's
         * requests queued ahead of the users' on the members, then a lower
         * ceiling. Up: the same way back, then pacing beyond what md's own
         * yielding gave.
         */
        if (latency_us * 100 > bound_us * (100 + BAND_PERCENT)) {
                if (r.pacing && depth_high && r.rate - r.rate * 3 / 10 <= yield_rate) {
                        r = (governor_rung){ .rate = high, .depth = depth_high };
                } else if (r.pacing || r.depth <= 1) {
                        r.rate = clamp(r.rate - r.rate * 3 / 10, low, high);
                } else {
                        r.depth /= 2;
                }
        } else if (latency_under(latency_us, bound_ms)) {
                /* A fifth more, and a little from the held rate (500 KiB/s on md's defaults), as for a share. */
                if (r.pacing || r.rate < high) {
                        r.rate = clamp(r.rate + r.rate / 5 + low / 2, low, high);
                } else if (r.depth < depth_high) {
                        r.depth = r.depth * 2 < depth_high ? r.depth * 2 : depth_high;
                } else {
                        r.pacing = true;
                        r.rate = clamp(yield_rate + yield_rate / 5 + low / 2, low, high);
                }
        }
        if (r.rate == rung->rate && r.depth == rung->depth && r.pacing == rung->pacing)
                return false;
        *rung = r;
        return true;
}

/* The users' throughput since the span began, KiB/s; 0 when unknown. */
static uint64_t span_kibs(const md_array *a, const governor_clock *clock, uint64_t now) {
        if (a->io_sectors.kind != MD_V_NUMBER || clock->span_usec == 0 || now <= clock->span_usec ||
            a->io_sectors.value < clock->span_sectors)
                return 0;
        return (a->io_sectors.value - clock->span_sectors) / 2 * 1000000 / (now - clock->span_usec);
}

static void span_start(const md_array *a, governor_clock *clock, uint64_t now) {
        clock->span_usec = now;
        clock->span_pos_known = clock->position_known;
        clock->span_pos_kib = clock->position_kib;
        clock->span_sectors = md_tval_number(&a->io_sectors);
        clock->span_requests = md_tval_number(&a->io_requests);
        clock->span_wait_ms = md_tval_number(&a->io_wait_ms);
        clock->slowest_us = 0;
}

/*
 * The users' estimated 99th percentile since the span began, µs, in
 * clock->latency_us; 0 when unknown or too few requests. With @few, from as
 * few as one: see step_bound.
 *
 * Twice the span's mean, or the mean of its slowest read (a second apart
 * while a boost is in place) if that is higher. Where the disks' own
 * queues choose the order (NCQ), a user's request that the head passes
 * over for the rebuild's nearby ones waits many times the usual, and few
 * requests make the tail: on the modelled disks a 1-deep reader's 99th
 * percentile over a minute was 1.7 to 2.7 times twice its mean, while the
 * 99th percentile of its means over 3 s came to 0.6 to 1.1 times it.
 */
static void span_latency(const md_array *a, governor_clock *clock, bool few) {
        uint64_t requests, wait_ms, us;

        clock->latency_us = 0;
        clock->latency_slowest = false;
        if (a->io_requests.kind != MD_V_NUMBER || a->io_wait_ms.kind != MD_V_NUMBER || clock->span_usec == 0 ||
            a->io_requests.value < clock->span_requests || a->io_wait_ms.value < clock->span_wait_ms)
                return;
        requests = a->io_requests.value - clock->span_requests;
        wait_ms = a->io_wait_ms.value - clock->span_wait_ms;
        us = few ? tail_us(requests, wait_ms) : governor_latency_us(requests, wait_ms);
        if (us && clock->slowest_us > us) {
                us = clock->slowest_us;
                clock->latency_slowest = true;
        }
        clock->latency_us = us;
}

/* The rebuild's rate since the span began, from its live position, KiB/s; 0 when unknown. */
static uint64_t span_rebuild_kibs(const governor_clock *clock, uint64_t now) {
        if (!clock->span_pos_known || !clock->position_known || clock->span_usec == 0 || now <= clock->span_usec ||
            clock->position_kib < clock->span_pos_kib)
                return 0;
        return (clock->position_kib - clock->span_pos_kib) * 1000000 / (now - clock->span_usec);
}

/* Whether the rebuild's position was known over the whole span and did not move. */
static bool span_rebuild_stalled(const governor_clock *clock, uint64_t now) {
        return clock->span_pos_known && clock->position_known && clock->span_usec != 0 && now > clock->span_usec &&
               clock->position_kib == clock->span_pos_kib;
}

/* The rebuild over the span ending at @now: its rate and whether it stood still. */
static void measure_rebuild(governor_clock *clock, uint64_t now) {
        clock->rebuild_kibs = span_rebuild_kibs(clock, now);
        clock->rebuild_stalled = span_rebuild_stalled(clock, now);
}

/*
 * Whether a rate above @rate would give the rebuild more. Floor and ceiling
 * only hold md back, and below its floor md never does: when the users'
 * requests make the members seek between the rebuild's reads, the rebuild
 * moves at what the disks leave it, below its rate, and a higher one
 * changes little but the number the governor reports. So the rate goes up
 * only while the rebuild kept to three quarters of it over the last step
 * (or where its position is not known; a rebuild that did not move kept to
 * none of it).
 */
static bool rate_binds(const governor_clock *clock, uint64_t rate) {
        if (clock->rebuild_stalled)
                return false;
        return clock->rebuild_kibs == 0 || clock->rebuild_kibs * 4 >= rate * 3;
}

/*
 * Whether the kernel's limit @t is still the boost's own (or, after a crash
 * mid-write, the one it replaced, or one the governor paced).
 */
static bool limit_ours(const md_array *a, const journal_entry *e, md_tunable t) {
        if (e->written[t].kind == MD_V_ABSENT || a->tunables[t].kind == MD_V_ABSENT)
                return true;
        return journal_entry_wrote(e, t, &a->tunables[t]);
}

/* The ceiling the rebuild gets while the users are quiet: the boost's own, as it was before the first hold. */
static md_tval lift_ceiling(const md_array *a, const journal_entry *e) {
        const md_tunable t = MD_T_SYNC_SPEED_MAX;

        if (e->lift_ceiling.kind != MD_V_ABSENT)
                return e->lift_ceiling;
        if (e->written[t].kind != MD_V_ABSENT)
                return e->written[t];
        return a->tunables[t];
}

/* What md holds the rebuild back to while the governor learns: the floor from before the boost. */
static uint64_t held_rate(const journal_entry *e) {
        const md_tval *o = &e->originals[MD_T_SYNC_SPEED_MIN];

        return md_tval_has_number(o) && o->value > 0 ? o->value : 1000;
}

/*
 * The first third of a hold does not count towards the baseline. When md is
 * held back, the rebuild's requests already in flight still complete, and
 * users who have just got busy are still filling their own queue: over
 * those first seconds they move less than they do alone (on the modelled
 * disks, a reader 8 deep got next to nothing for 2 to 4 s, then about what
 * it got with the rebuild frozen). A hold begins at @now, @settled when md
 * has held the rebuild back since before (a restart, users who stopped).
 */
static void hold(governor_clock *clock, uint64_t now, bool settled) {
        clock->hold_usec = now;
        clock->settled = settled;
        clock->hold_waited = false;
}

/* Writes @rate to both limits: @next LEARNING (held back) or STEERING. */
static void set_rate(const md_array *a, const journal_entry *e, governor_clock *clock, governor_action action,
                     uint64_t rate, governor_decision *d) {
        clock->steps = 0; /* what the users got before is no measure of the new rate */
        d->action = action;
        d->next = action == GOVERNOR_LEARN ? GOVERNOR_LEARNING : GOVERNOR_STEERING;
        d->value = (md_tval){ .kind = MD_V_LOCAL, .value = rate };
        d->floor = d->value;
        d->depth = (md_tval){ .kind = MD_V_ABSENT };
        d->cache = (md_tval){ .kind = MD_V_ABSENT };
        d->replaced = a->tunables[MD_T_SYNC_SPEED_MAX];
        d->replaced_floor = a->tunables[MD_T_SYNC_SPEED_MIN];
        d->lift = lift_ceiling(a, e);
}

/* What the users are to keep: @share percent of their @baseline, KiB/s. */
uint64_t governor_target(uint64_t baseline, unsigned share) {
        return baseline * share / 100;
}

/*
 * Floor and ceiling at one @rate: from now on the pacer holds the rebuild
 * to it, with values in a band around it that the journal records, in
 * slices of @slice_usec (0: evenly).
 *
 * md compares its 30-s average with floor and ceiling: it sleeps while the
 * average is above the ceiling and runs at the disks' speed while it is
 * below the floor. Between turns the paced value has to sit below the
 * average for md to sleep at all; were it held at the floor from before the
 * boost, a rate near that floor would leave md at its own rhythm, a little
 * every half second, each time moving the heads away from the users. So in
 * turns the band reaches down to a quarter of the rate: the rate itself,
 * md's average over a turn, still never goes below the held floor.
 */
static void pace_from(const md_array *a, const journal_entry *e, governor_clock *clock, uint64_t rate,
                      uint64_t slice_usec, governor_decision *d) {
        pacer_band(rate, slice_usec ? 1 : held_rate(e), lift_ceiling(a, e).value, &d->pace_low, &d->pace_high);
        pacer_start(&clock->pacer, rate, slice_usec);
}

/*
 * The rebuild's turns on the disks while steering to a share (pacer.h): one
 * per step, so that a lower rate shortens the turn and the users keep more
 * of the disks, where more turns would cost them a seek pair each whatever
 * the rate, and each step's throughput holds about one turn. Longer steps
 * get several turns of at most TURN_MAX_USEC: md reaches a turn's share in
 * one burst only while that share is small beside its 30-s average.
 */
#define TURN_MAX_USEC (10ull * 1000000ull)

static uint64_t turn_usec(const profile_settings *s) {
        uint64_t step = s->step_ms * 1000ull;

        return step < TURN_MAX_USEC ? step : TURN_MAX_USEC;
}

/*
 * Whether the step that began at the span's start is over. Paced in turns,
 * what the users get over a step depends on where in it the turns fall:
 * md issues a turn's reads at once and the users' requests wait behind them
 * for seconds, so a step that ends a poll after a turn began holds that
 * wait, and one that ends a poll before holds none. Steps of step_ms, each
 * ending at the first poll after it, slide over the turns (polls are 1 to
 * 2 s apart where the host is slow): traced on 6.1 under 32-deep random
 * reads, steps at one rate gave the users 13 and 56 KiB/s in turn. So a
 * step ends at the first poll after the first turn that begins no more
 * than half a turn before step_ms is up, and every step holds its turns
 * whole, at the same place. Not pacing in turns, after step_ms.
 */
static bool step_over(const profile_settings *s, const governor_clock *clock, uint64_t now) {
        uint64_t step = s->step_ms * 1000ull, end;

        end = pacer_next_turn(&clock->pacer, clock->span_usec + step - turn_usec(s) / 2);
        return now >= (end ? end : clock->span_usec + step);
}

/* STEER to @rate, carrying what the governor measured for the log. */
static void steer(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                  unsigned share, uint64_t rate, governor_decision *d) {
        set_rate(a, e, clock, GOVERNOR_STEER, rate, d);
        pace_from(a, e, clock, rate, turn_usec(s), d);
        clock->held_kibs = held_rate(e);
        d->baseline_kibs = clock->baseline_kibs;
        d->users_kibs = clock->users_kibs;
        d->target_kibs = governor_target(clock->baseline_kibs, share);
}

/*
 * The deepest sync_io_depth the ladder climbs back to: what the array had
 * before the boost (md's default follows the system's, 32). 0 where md has
 * no sync_io_depth (before 6.16).
 */
static uint64_t depth_high(const md_array *a, const journal_entry *e) {
        const md_tunable t = MD_T_SYNC_IO_DEPTH;

        if (!md_tval_has_number(&a->tunables[t]))
                return 0;
        if (md_tval_has_number(&e->originals[t]) && e->originals[t].value > 0)
                return e->originals[t].value;
        return a->tunables[t].value;
}

/*
 * Whether a latency bound's rung with @depth (0: md has none) leaves md to
 * yield by itself under the ceiling; otherwise floor and ceiling are one
 * paced rate, as for a share.
 */
static bool rung_yields(uint64_t depth, bool pacing) {
        return depth && !pacing;
}

/*
 * STEER towards a latency bound to @rate and @depth. Yielding, the floor
 * stays at the held rate: md bounds the rebuild's requests in flight while
 * the users are busy only between floor and ceiling, and the ceiling is
 * @rate. Pacing (and always before 6.16) floor and ceiling are @rate, as for
 * a share; the depth stays as it is.
 */
static void steer_bound(const md_array *a, const journal_entry *e, governor_clock *clock, unsigned bound_ms,
                        uint64_t rate, uint64_t depth, governor_decision *d) {
        set_rate(a, e, clock, GOVERNOR_STEER, rate, d);
        clock->under_steps = 0;
        if (rung_yields(depth, clock->pacing)) {
                d->floor = (md_tval){ .kind = MD_V_LOCAL, .value = held_rate(e) };
                d->depth = (md_tval){ .kind = MD_V_LOCAL, .value = depth };
                d->replaced_depth = a->tunables[MD_T_SYNC_IO_DEPTH];
                pacer_stop(&clock->pacer);
        } else {
                pace_from(a, e, clock, rate, 0, d);
        }
        d->latency_us = clock->latency_us;
        d->latency_slowest = clock->latency_slowest;
        d->bound_ms = bound_ms;
}

static void lift(const md_array *a, const journal_entry *e, governor_clock *clock, governor_decision *d) {
        clock->steps = 0;
        d->action = GOVERNOR_LIFT;
        d->next = GOVERNOR_FREE;
        d->value = lift_ceiling(a, e);
        d->replaced = a->tunables[MD_T_SYNC_SPEED_MAX];
}

/*
 * md counts the users' requests in the md device's own counters
 * (sys/block/<md>/stat), never the rebuild's, which reads and writes the
 * members. By default less than 1 MiB/s is housekeeping, not users to make
 * room for; nor fewer than 8 requests a second (a random reader moves few
 * KiB, and a hard disk serves it some 100 a second alone).
 */
bool governor_users_busy(const profile_settings *s, uint64_t kib, uint64_t requests, uint64_t usec) {
        return usec > 0 && (kib * 1000000 / usec >= s->busy_kibs || requests * 1000000 / usec >= s->busy_iops);
}

/* What the counters moved by since @sectors and @requests: 0 for one that is unknown or went back. */
static void counters_moved(const md_array *a, uint64_t sectors, uint64_t requests, uint64_t *ret_kib,
                           uint64_t *ret_requests) {
        *ret_kib = a->io_sectors.kind == MD_V_NUMBER && a->io_sectors.value >= sectors
                           ? (a->io_sectors.value - sectors) / 2
                           : 0;
        *ret_requests = a->io_requests.kind == MD_V_NUMBER && a->io_requests.value >= requests
                                ? a->io_requests.value - requests
                                : 0;
}

/* Whether the md device's counters moved by a user's share between @clock's last read and @now. */
static bool counters_busy(const profile_settings *s, const md_array *a, const governor_clock *clock, uint64_t now) {
        uint64_t kib, requests;

        counters_moved(a, clock->io_sectors, clock->io_requests, &kib, &requests);
        return governor_users_busy(s, kib, requests, now - clock->io_usec);
}

/*
 * The counters above move when a request completes: a user whose requests
 * wait behind the rebuild (32 random reads queued while md fills a large
 * stripe cache: none completed for 10 s and more in the benchmark) moves
 * nothing and would look quiet, and the ceiling lifted for quiet users
 * would starve them further. md also says how many of the users' requests
 * are in flight (the stat file's ninth field); still some at two reads a
 * second apart is a user held up, not one gone.
 */
bool governor_users_waiting(const md_array *a, uint64_t in_flight_before) {
        return a->io_in_flight.kind == MD_V_NUMBER && a->io_in_flight.value > 0 && in_flight_before > 0;
}

/*
 * Whether the users moved as much as a user does over the span that began
 * at @clock's span start, or waited in it (governor_users_waiting): those are short
 * of their share, not asking for little.
 */
static bool span_busy(const profile_settings *s, const md_array *a, const governor_clock *clock, uint64_t now) {
        uint64_t kib, requests;

        if (clock->span_usec == 0 || now <= clock->span_usec)
                return false;
        if (clock->waited_usec > clock->span_usec)
                return true;
        counters_moved(a, clock->span_sectors, clock->span_requests, &kib, &requests);
        return governor_users_busy(s, kib, requests, now - clock->span_usec);
}

/* The mean of the users' requests completed since the last read, kept for span_latency when the span's highest. */
static void note_read_latency(const md_array *a, governor_clock *clock) {
        uint64_t us;

        if (a->io_requests.kind != MD_V_NUMBER || a->io_wait_ms.kind != MD_V_NUMBER ||
            a->io_requests.value <= clock->io_requests || a->io_wait_ms.value < clock->io_wait_ms)
                return;
        us = mean_us(a->io_requests.value - clock->io_requests, a->io_wait_ms.value - clock->io_wait_ms);
        if (us > clock->slowest_us)
                clock->slowest_us = us;
}

/*
 * Whether the users are busy now; @ret_unjudged says that this poll tells
 * nothing: the first read (a rate takes two) or counters that could not be
 * read. The kernel's stat file always reads whole, but a read can fail, and
 * unreadable counters taken for quiet users would lift the ceiling over
 * users who are there; the next read that works measures from the last one
 * that did.
 */
static bool users_busy(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                       uint64_t now, bool *ret_unjudged) {
        *ret_unjudged = false;
        if (a->io_sectors.kind != MD_V_NUMBER) {
                *ret_unjudged = true;
        } else {
                bool first = clock->io_usec == 0, read = !first && now > clock->io_usec;
                bool waiting = read && governor_users_waiting(a, clock->io_in_flight);

                clock->users_stalled =
                        waiting && a->io_requests.kind == MD_V_NUMBER && a->io_requests.value == clock->io_requests;
                if (waiting)
                        clock->users_usec = clock->waited_usec = now;
                else if (read && counters_busy(s, a, clock, now))
                        clock->users_usec = now;
                if (read)
                        note_read_latency(a, clock);
                clock->io_sectors = a->io_sectors.value;
                clock->io_requests = md_tval_number(&a->io_requests);
                clock->io_in_flight = md_tval_number(&a->io_in_flight);
                clock->io_wait_ms = md_tval_number(&a->io_wait_ms);
                clock->io_usec = now;
                if (first) {
                        /* A rate takes two reads. After a restart, a held rebuild counts as busy from now. */
                        if (e->fit == GOVERNOR_LEARNING || e->fit == GOVERNOR_STEERING)
                                clock->users_usec = now;
                        *ret_unjudged = true;
                }
        }
        return clock->users_usec != 0 && now - clock->users_usec < s->quiet_ms * 1000u;
}

/*
 * A latency bound: no baseline to learn. Busy users get the rung the
 * governor last left (after a restart: the ceiling the boost had and the
 * depth md has); every step_ms their latency over the step moves it.
 */
static void step_bound(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                       uint64_t now, bool busy, unsigned bound_ms, uint64_t high, governor_decision *d) {
        uint64_t dh = depth_high(a, e), yield_rate;
        governor_rung rung;
        bool long_span;

        switch (e->fit) {
        case GOVERNOR_FREE:
        case GOVERNOR_LEARNING: /* a share's state before the bound was set: steer from here */
                if (!busy) {
                        if (e->fit == GOVERNOR_LEARNING)
                                lift(a, e, clock, d);
                        return;
                }
                span_start(a, clock, now);
                /*
                 * A first rung: with a depth, md's own (the users get what
                 * md's defaults give them, and the ladder goes down from
                 * there); without, floor and ceiling at half the floor the
                 * rebuild had, as for a share of 50 %.
                 */
                if (!clock->rate_kibs)
                        clock->rate_kibs = dh ? high : e->written[MD_T_SYNC_SPEED_MIN].value / 2;
                if (!clock->depth)
                        clock->depth = dh;
                steer_bound(a, e, clock, bound_ms, clamp(clock->rate_kibs, held_rate(e), high), dh ? clock->depth : 0,
                            d);
                return;
        case GOVERNOR_STEERING:
                if (!busy) {
                        lift(a, e, clock, d);
                        return;
                }
                if (clock->span_usec == 0) {
                        /*
                         * After a restart: the rung is what the boost last
                         * wrote (the kernel may hold a paced value near it).
                         */
                        clock->rate_kibs = md_tval_has_number(&e->written[MD_T_SYNC_SPEED_MAX])
                                                   ? e->written[MD_T_SYNC_SPEED_MAX].value
                                                   : high;
                        clock->depth = dh && md_tval_has_number(&a->tunables[MD_T_SYNC_IO_DEPTH])
                                               ? a->tunables[MD_T_SYNC_IO_DEPTH].value
                                               : dh;
                        /* Floor and ceiling at one rate above the original floor: pacing. */
                        clock->pacing = !dh || (journal_tval_equal(&e->written[MD_T_SYNC_SPEED_MIN],
                                                                   &e->written[MD_T_SYNC_SPEED_MAX]) &&
                                                md_tval_has_number(&e->written[MD_T_SYNC_SPEED_MIN]) &&
                                                e->written[MD_T_SYNC_SPEED_MIN].value > held_rate(e));
                        clock->yield_kibs = 0; /* not known: pacing comes down by rate alone */
                        if (clock->pacing && e->pace_high)
                                pacer_start(&clock->pacer, clock->rate_kibs, 0);
                        span_start(a, clock, now);
                        return;
                }
                if (now - clock->span_usec < s->step_ms * 1000u)
                        return;
                /*
                 * Users who complete few requests are often the ones the
                 * rebuild holds up most: a 1-deep reader between the
                 * rebuild's seeks on 6.1 completed about 6 requests in a
                 * step. A step too thin to judge runs on into the next, and
                 * after GOVERNOR_LATENCY_SPAN_STEPS steps the requests that
                 * did complete are judged, however few.
                 */
                long_span = now - clock->span_usec >= GOVERNOR_LATENCY_SPAN_STEPS * s->step_ms * 1000u;
                clock->users_kibs = span_kibs(a, clock, now);
                span_latency(a, clock, long_span);
                measure_rebuild(clock, now);
                if (clock->latency_us == 0 && !long_span)
                        return; /* too few requests yet: the span runs on */
                span_start(a, clock, now);
                if (clock->latency_us == 0)
                        return; /* no request completed in all those steps */
                /*
                 * Down at once, up only after GOVERNOR_BOUND_UNDER_STEPS steps
                 * in a row under the bound. What the users' requests take
                 * over one step scatters on disks that seek: paced on 6.1
                 * under the 1-deep reader on the modelled disks, steps at
                 * one rate were estimated at 282 and 938 ms in turn (bound
                 * 500 ms), and a rung that climbed after every step under
                 * the bound swung across it, the reader's 99th percentile
                 * over the minute 1.75 times the bound.
                 */
                if (!latency_under(clock->latency_us, bound_ms))
                        clock->under_steps = 0;
                else if (++clock->under_steps < GOVERNOR_BOUND_UNDER_STEPS)
                        return;
                rung = (governor_rung){ .rate = clamp(clock->rate_kibs ? clock->rate_kibs : high, held_rate(e), high),
                                        .depth = dh ? (clock->depth ? clock->depth : dh) : 0,
                                        .pacing = clock->pacing };
                /*
                 * What md reached by yielding: its own average now while the
                 * rung yields; while it paces, md keeps to the paced rate, so
                 * the one kept when pacing began.
                 */
                yield_rate = clock->pacing                       ? clock->yield_kibs
                             : a->sync_speed.kind == MD_V_NUMBER ? a->sync_speed.value
                                                                 : held_rate(e);
                if (!governor_next_level(clock->latency_us, bound_ms, held_rate(e), high, dh, yield_rate, &rung))
                        return;
                /* Paced (every rung is, without a depth) and the rebuild short of it: as for a share. */
                if (!rung_yields(dh, rung.pacing) && rung.rate > clock->rate_kibs &&
                    !rate_binds(clock, clock->rate_kibs))
                        return;
                if (rung.pacing && !clock->pacing)
                        clock->yield_kibs = yield_rate;
                clock->rate_kibs = rung.rate;
                clock->depth = rung.depth;
                clock->pacing = rung.pacing;
                steer_bound(a, e, clock, bound_ms, rung.rate, rung.depth, d);
                return;
        default:
                return;
        }
}

/*
 * Users who get more while the rebuild runs than they did held back want more
 * than then: their baseline grows. But what they move over one step scatters
 * on disks that seek (an 8-deep reader moved 3700 to 12900 KiB/s at one rate in
 * the benchmark, as its requests and md's happened to interleave), and a
 * baseline raised by one lucky step sets a share they cannot reach until it is
 * learnt again. So it grows only after two steps in a row above it, to the
 * lesser of the two.
 */
static void grow_baseline(governor_clock *clock, uint64_t kibs) {
        if (kibs <= clock->baseline_kibs) {
                clock->excess_kibs = 0;
                return;
        }
        if (clock->excess_kibs != 0)
                clock->baseline_kibs = clock->excess_kibs < kibs ? clock->excess_kibs : kibs;
        clock->excess_kibs = kibs;
}

/*
 * The same scatter makes one step a poor judge of the rate: a step that
 * happened to give the users little would lower it, one that happened to
 * give them much would raise it, and the rate would wander while the users
 * got less than their share on average. So the users' throughput is judged
 * over the steps since the rate was last set, up to GOVERNOR_JUDGE_STEPS of
 * them: @kibs, this step's, joins those before it, and the mean of them is
 * the users' figure.
 */
static uint64_t judge_users(governor_clock *clock, uint64_t kibs) {
        uint64_t sum = 0;

        if (clock->steps >= GOVERNOR_JUDGE_STEPS) {
                memmove(clock->step_kibs, clock->step_kibs + 1,
                        sizeof(clock->step_kibs[0]) * (GOVERNOR_JUDGE_STEPS - 1));
                clock->steps = GOVERNOR_JUDGE_STEPS - 1;
        }
        clock->step_kibs[clock->steps++] = kibs;
        for (unsigned i = 0; i < clock->steps; i++)
                sum += clock->step_kibs[i];
        return sum / clock->steps;
}

/*
 * The steps not judged (the transition after each change of the stripe
 * cache, in which md fills or drains it and the users complete next to
 * nothing) still cost the users: traced on 7.3 under 32-deep random reads,
 * the judged steps gave them 27 to 34 KiB/s of their 42 while the cache
 * grew every three steps or so, and over the minute they got 21. So every
 * busy step also goes into an account of the users' last minute, and the
 * rebuild gets more (a higher rate, a larger cache, each a change with a
 * transition of its own) only while that minute left the users the same
 * room above their share as the steps at this rate must. Quiet steps stay
 * out: users who asked for little are not owed.
 */
static void account_step(governor_clock *clock, uint64_t now, uint64_t usec, uint64_t kib) {
        unsigned drop = 0;

        while (drop < clock->accounted && (clock->accounted - drop >= GOVERNOR_ACCOUNT_STEPS ||
                                           clock->account[drop].end_usec + GOVERNOR_ACCOUNT_USEC <= now))
                drop++;
        memmove(clock->account, clock->account + drop, sizeof(clock->account[0]) * (clock->accounted - drop));
        clock->accounted -= drop;
        clock->account[clock->accounted++] = (governor_account_step){ .end_usec = now, .usec = usec, .kib = kib };
}

/* The users' throughput over their account's last minute at @now, KiB/s; 0 when it holds nothing. */
uint64_t governor_account_kibs(const governor_clock *clock, uint64_t now) {
        uint64_t kib = 0, usec = 0;

        for (unsigned i = 0; i < clock->accounted; i++)
                if (clock->account[i].end_usec + GOVERNOR_ACCOUNT_USEC > now) {
                        kib += clock->account[i].kib;
                        usec += clock->account[i].usec;
                }
        return usec ? kib * 1000000 / usec : 0;
}

/*
 * Whether the users' last minute, to their last step, is what keeps the
 * rebuild from more: the steps at this rate leave them the room above
 * @target and the minute does not. The minute's KiB/s in @ret_minute (may
 * be NULL) when it does.
 */
static bool account_holds(const governor_clock *clock, uint64_t target, uint64_t *ret_minute) {
        uint64_t minute;

        if (clock->accounted == 0 || clock->users_kibs * 100 <= target * (100 + HEADROOM_PERCENT))
                return false;
        minute = governor_account_kibs(clock, clock->account[clock->accounted - 1].end_usec);
        if (minute * 100 > target * (100 + HEADROOM_PERCENT))
                return false;
        if (ret_minute)
                *ret_minute = minute;
        return true;
}

/*
 * How far from their target the users may be in the first step at a rate
 * (or a stripe cache) before it moves at once, percent of the target:
 * further than one step scatters. Within [FAR_SHORT, FAR_ABOVE] it waits
 * for a second step.
 */
#define FAR_SHORT_PERCENT 70
#define FAR_ABOVE_PERCENT 200

/*
 * md's stripe cache as a second lever. When the users' requests make the
 * disks seek between the rebuild's reads (random reads, many in flight),
 * the rebuild moves at what the disks leave it, below its rate, and a higher
 * rate changes nothing (rate_binds). What it moves then depends on how much
 * it reads at each turn of the heads, and that is bounded by the stripes md
 * has for it: 4 KiB of each member per stripe, 1 MiB of each at md's 256.
 * More stripes, longer runs between the users' seeks. So while the users
 * keep more than their share and the rate does not bind, the cache doubles
 * up to what the memory budget allows (clock->cache_high, max's); when
 * they fall short it halves back towards the boost's own before the rate
 * comes down, and does not grow to that size again until the baseline is
 * learnt anew. Only a cache the boost chose itself is steered (cache_low).
 */
static bool cache_steers(const md_array *a, const journal_entry *e) {
        return e->cache_low && md_tval_has_number(&a->tunables[MD_T_STRIPE_CACHE_SIZE]);
}

/* STEER at @rate (unchanged) with the stripe cache at @cache. */
static void steer_cache(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                        unsigned share, uint64_t rate, uint64_t cache, governor_decision *d) {
        steer(s, a, e, clock, share, rate, d);
        clock->cache_changed = cache != a->tunables[MD_T_STRIPE_CACHE_SIZE].value;
        d->cache = (md_tval){ .kind = MD_V_NUMBER, .value = cache };
        d->replaced_cache = a->tunables[MD_T_STRIPE_CACHE_SIZE];
}

uint64_t governor_grown_cache(const journal_entry *e) {
        const md_tval *v = &e->written[MD_T_STRIPE_CACHE_SIZE];

        return e->cache_low && md_tval_has_number(v) && v->value > e->cache_low ? v->value : 0;
}

/*
 * Above its floor md yields to other I/O only while it sees some on the
 * members (is_mddev_idle), and then only by waiting for its own requests in
 * flight, so how much the users get is md's guess, from a few percent to
 * most of the disks depending on how they read. Below its floor it never
 * yields; above sync_speed_max it sleeps. With floor and ceiling at one
 * rate md keeps the rebuild at that rate on average over its last 30 s
 * (in bursts after a step down: governor_next_rate), and the users get
 * the rest: the governor's lever.
 */
static void step_users(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                       uint64_t now, governor_decision *d) {
        unsigned share = e->users_share ? e->users_share : s->users_share, bound_ms = governor_bound_ms(s, e);
        uint64_t high, rate, next, step, target;
        bool busy, unjudged;

        busy = users_busy(s, a, e, clock, now, &unjudged);
        /* An admin's own value ends the governor on any poll, read or not. */
        if (!limit_ours(a, e, MD_T_SYNC_SPEED_MIN) || !limit_ours(a, e, MD_T_SYNC_SPEED_MAX) ||
            !limit_ours(a, e, MD_T_SYNC_IO_DEPTH) || (e->cache_low && !limit_ours(a, e, MD_T_STRIPE_CACHE_SIZE))) {
                d->action = GOVERNOR_STOP;
                d->next = GOVERNOR_DONE;
                return;
        }
        if (unjudged)
                return;
        high = lift_ceiling(a, e).value;
        if (!md_tval_has_number(&e->written[MD_T_SYNC_SPEED_MIN]) || high <= held_rate(e)) {
                /* Nothing between the held rate and the ceiling to steer in. */
                d->action = GOVERNOR_STOP;
                d->next = GOVERNOR_DONE;
                return;
        }
        if (bound_ms) {
                step_bound(s, a, e, clock, now, busy, bound_ms, high, d);
                return;
        }
        switch (e->fit) {
        case GOVERNOR_FREE:
                if (!busy)
                        return;
                span_start(a, clock, now);
                if (clock->learnt_usec != 0 && now - clock->learnt_usec < s->relearn_ms * 1000u && clock->rate_kibs) {
                        /* Users back within relearn_ms: what they get alone is known, steer from the last rate. */
                        steer(s, a, e, clock, share, clamp(clock->rate_kibs, held_rate(e), high), d);
                        return;
                }
                set_rate(a, e, clock, GOVERNOR_LEARN, held_rate(e), d);
                hold(clock, now, false);
                return;
        case GOVERNOR_LEARNING:
                if (!busy) {
                        lift(a, e, clock, d);
                        return;
                }
                if (clock->span_usec == 0) {
                        /* After a restart: held since before it, so learnt from now over the whole learn_ms. */
                        span_start(a, clock, now);
                        hold(clock, now, true);
                        return;
                }
                if (!clock->settled) {
                        if (now - clock->hold_usec < s->learn_ms * 1000u / 3)
                                return;
                        /*
                         * The rebuild's requests queued at the members before
                         * the hold go first on disks that serve in arrival
                         * order: after the boost's own floor, 190 to 390 reads
                         * a member, and a 1-deep reader completed nothing for
                         * 6 s of a 10 s hold (traced on 6.1, modelled disks),
                         * its baseline 60 % of what it gets alone. While the
                         * users wait and complete nothing the hold has not
                         * settled, for up to another learn_ms; the baseline
                         * then spans two thirds of learn_ms from when it did.
                         */
                        if (clock->users_stalled && now - clock->hold_usec < s->learn_ms * 1000u / 3 * 4) {
                                clock->hold_waited = true;
                                return;
                        }
                        span_start(a, clock, now);
                        clock->settled = true;
                        if (clock->hold_waited)
                                clock->hold_usec = now - s->learn_ms * 1000u / 3;
                        return;
                }
                if (now - clock->hold_usec < s->learn_ms * 1000u)
                        return;
                clock->baseline_kibs = span_kibs(a, clock, now);
                if (!span_busy(s, a, clock, now) || clock->baseline_kibs == 0) {
                        /* Too little to share: the users stopped. Held until quiet_ms says so. */
                        clock->learnt_usec = 0;
                        span_start(a, clock, now);
                        hold(clock, now, true);
                        return;
                }
                clock->users_kibs = clock->baseline_kibs;
                clock->learnt_usec = now;
                clock->excess_kibs = 0;
                clock->cache_short = 0;
                clock->accounted = 0; /* what they were owed was a share of the old baseline */
                clock->minute_held = false;
                /*
                 * A first rate: the last one steered to, else the users' share
                 * taken from the floor the rebuild ran under before, or from
                 * its rate with nothing holding it back where that is lower
                 * (a fit cut short leaves fast's floor, which slow disks never
                 * reach).
                 */
                rate = clock->rate_kibs;
                if (rate == 0) {
                        rate = md_tval_has_number(&e->earlier[MD_T_SYNC_SPEED_MIN])
                                       ? e->earlier[MD_T_SYNC_SPEED_MIN].value
                                       : s->fast_floor;
                        if (clock->whole_kibs && clock->whole_kibs < rate)
                                rate = clock->whole_kibs;
                        rate = rate / 100 * (100 - share);
                }
                rate = clamp(rate, held_rate(e), high);
                clock->rate_kibs = rate;
                steer(s, a, e, clock, share, rate, d);
                span_start(a, clock, now);
                return;
        case GOVERNOR_STEERING:
                if (!busy) {
                        lift(a, e, clock, d);
                        return;
                }
                if (clock->learnt_usec == 0 || now - clock->learnt_usec >= s->relearn_ms * 1000u) {
                        /* The users' demand changes: learn it again, from time to time and after a restart. */
                        set_rate(a, e, clock, GOVERNOR_LEARN, held_rate(e), d);
                        span_start(a, clock, now);
                        hold(clock, now, false);
                        return;
                }
                if (clock->span_usec == 0) {
                        span_start(a, clock, now);
                        return;
                }
                if (!step_over(s, clock, now))
                        return;
                step = span_kibs(a, clock, now);
                measure_rebuild(clock, now);
                busy = span_busy(s, a, clock, now);
                if (busy) {
                        uint64_t kib, requests;

                        counters_moved(a, clock->span_sectors, clock->span_requests, &kib, &requests);
                        account_step(clock, now, now - clock->span_usec, kib);
                }
                span_start(a, clock, now);
                /*
                 * Users who moved less than housekeeping in a whole step are not
                 * short of their share, they asked for little: the rate stays.
                 * Throughput cannot tell a smaller demand from a starved one in
                 * general; the baseline learnt again every relearn_ms bounds
                 * how long a smaller demand holds the rebuild back.
                 */
                if (!busy) {
                        clock->excess_kibs = 0;
                        clock->steps = 0;
                        clock->cache_changed = false;
                        return;
                }
                /*
                 * md fills the stripes it was just given with the rebuild's
                 * reads at once, and the users' requests wait behind them:
                 * traced on 6.1 under 32-deep random reads, the step after
                 * the cache grew gave the users 0 to 3 KiB/s of their 42,
                 * the steps after it 23 to 33. A smaller cache takes as
                 * long to show: md frees a stripe only once it is idle, and
                 * the rebuild's I/O already queued for the stripes it
                 * filled (32 MiB of each member at 8192 stripes, seconds of
                 * the disks' time) goes before the users' requests too
                 * (traced on 6.1: 10 KiB/s of their 56 at
                 * 8192 stripes, 0 in the step after the cache halved, 34
                 * in the one after that). That step is the cache's
                 * transition, not what the users get at its new size;
                 * judged, it would halve the cache back (or again) at
                 * once, and keep it from growing to that size until the
                 * baseline is learnt anew.
                 */
                if (clock->cache_changed) {
                        clock->cache_changed = false;
                        return;
                }
                grow_baseline(clock, step);
                clock->users_kibs = judge_users(clock, step);
                target = governor_target(clock->baseline_kibs, share);
                if (clock->steps < 2 && step * 100 >= target * FAR_SHORT_PERCENT &&
                    step * 100 <= target * FAR_ABOVE_PERCENT)
                        return;
                rate = e->written[MD_T_SYNC_SPEED_MIN].value;
                next = governor_next_rate(rate, clock->users_kibs, target, held_rate(e), high);
                /*
                 * md holds a resync to its ceiling by its average speed since
                 * a mark up to 30 s old (ten marks 3 s apart, md_do_sync()),
                 * sleeping while that average is above the ceiling. After a
                 * quiet spell at the whole disks' speed, a lower ceiling stops
                 * the rebuild for many seconds (16 s traced on 7.3 under the
                 * bursty user), and over them the users get what they get
                 * alone: far above their share, and nothing to do with the
                 * rate. Neither the rate nor the stripe cache goes up for such
                 * a step: raised for two of them, the rate took effect once md
                 * went on, and the users got 40 and 26 % of what they got
                 * alone in the two steps after, short of a 50 % share.
                 */
                if (next > rate && clock->rebuild_stalled)
                        return;
                if (next > rate) {
                        uint64_t minute;
                        bool held = account_holds(clock, target, &minute);

                        /* Said once when it begins to hold, not on every step it holds. */
                        if (held && !clock->minute_held) {
                                d->minute_holds = true;
                                d->minute_kibs = minute;
                                d->target_kibs = target;
                        }
                        clock->minute_held = held;
                        if (held)
                                next = rate;
                } else if (next < rate)
                        clock->minute_held = false;
                if (cache_steers(a, e)) {
                        uint64_t cache = a->tunables[MD_T_STRIPE_CACHE_SIZE].value, more = cache * 2;

                        if (more > clock->cache_high)
                                more = clock->cache_high; /* which other arrays' caches may have lowered */
                        if (clock->users_kibs < target && cache > e->cache_low) {
                                /*
                                 * Half, rounded up: doubled again, an odd size (the
                                 * budget's) comes back to where the users were short,
                                 * not one stripe under it.
                                 */
                                uint64_t less = (cache + 1) / 2 > e->cache_low ? (cache + 1) / 2 : e->cache_low;

                                /* The rate comes down with it where the rebuild keeps to it. */
                                if (rate_binds(clock, rate))
                                        clock->rate_kibs = rate = next;
                                clock->cache_short = cache;
                                steer_cache(s, a, e, clock, share, rate, less, d);
                                return;
                        }
                        if (next > rate && !rate_binds(clock, rate) && more > cache &&
                            (!clock->cache_short || more < clock->cache_short)) {
                                steer_cache(s, a, e, clock, share, rate, more, d);
                                return;
                        }
                }
                if (next == rate || (next > rate && !rate_binds(clock, rate)))
                        return;
                clock->rate_kibs = next;
                steer(s, a, e, clock, share, next, d);
                return;
        default:
                return;
        }
}

/*
 * Steering at one rate, between the steps that move it: floor and ceiling
 * to the value that holds the rebuild to that rate steadily (pacer.h), when
 * it differs from what md has. Only within the band the journal holds for
 * the rate, whose values the boost counts as its own.
 */
static void pace(const md_array *a, const journal_entry *e, governor_clock *clock, governor_decision *d) {
        const md_tval *floor = &a->tunables[MD_T_SYNC_SPEED_MIN], *ceiling = &a->tunables[MD_T_SYNC_SPEED_MAX];
        uint64_t w;

        if (e->pace_high == 0 || pacer_limit(&clock->pacer, e->pace_low, e->pace_high, &w) < 0)
                return;
        if (!limit_ours(a, e, MD_T_SYNC_SPEED_MIN) || !limit_ours(a, e, MD_T_SYNC_SPEED_MAX))
                return; /* an administrator's: the next step stops */
        if (floor->kind == MD_V_LOCAL && floor->value == w && ceiling->kind == MD_V_LOCAL && ceiling->value == w)
                return;
        d->action = GOVERNOR_PACE;
        d->next = GOVERNOR_STEERING;
        d->value = d->floor = (md_tval){ .kind = MD_V_LOCAL, .value = w };
        d->replaced = *ceiling;
        d->replaced_floor = *floor;
        d->pace_low = e->pace_low;
        d->pace_high = e->pace_high;
}

/*
 * The fit runs the rebuild at fast's floor for md's averaging span, and
 * below its floor md never yields: users already busy get next to nothing
 * for that half minute. It is also the one time the rebuild runs with
 * nothing holding it back while they are busy, which is what tells how
 * fast it can go (what max would give, and what the prediction rests on).
 * Once that is known for the array, busy users end the fit at once: the
 * governor takes over as it would once the fit was done (it holds the
 * rebuild back to learn what they get alone, or climbs its latency ladder),
 * and the floor stays unfitted, since from then on the governor sets it.
 */
static bool users_end_fit(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                          uint64_t now, governor_decision *d) {
        journal_entry fitted;
        bool unjudged;

        if (!s->hold_ceiling || !clock->whole_kibs || !users_busy(s, a, e, clock, now, &unjudged) || unjudged)
                return false;
        fitted = *e;
        fitted.fit = GOVERNOR_FREE;
        step_users(s, a, &fitted, clock, now, d);
        return d->action != GOVERNOR_WAIT;
}

void governor_step(const profile_settings *s, const md_array *a, const journal_entry *e, governor_clock *clock,
                   uint64_t now, governor_decision *ret) {
        *ret = (governor_decision){ .action = GOVERNOR_WAIT, .next = e->fit };
        if (a->sync_action == MD_SYNC_FROZEN)
                return;
        if (clock->position_known)
                pacer_sample_at(&clock->pacer, now, clock->position_kib);
        switch (e->fit) {
        case GOVERNOR_FITTING:
                if (!users_end_fit(s, a, e, clock, now, ret))
                        step_fit(s, a, e, clock, now, ret);
                break;
        case GOVERNOR_FREE:
        case GOVERNOR_LEARNING:
        case GOVERNOR_STEERING:
                step_users(s, a, e, clock, now, ret);
                break;
        default:
                break;
        }
        if (ret->action == GOVERNOR_WAIT && e->fit == GOVERNOR_STEERING)
                pace(a, e, clock, ret);
        else if (ret->action != GOVERNOR_WAIT && ret->action != GOVERNOR_STEER)
                pacer_stop(&clock->pacer);
}

uint64_t governor_moves_kibs(const governor_clock *clock, unsigned bound_ms, uint64_t depth, uint64_t rate) {
        /* A bound's yielding rungs hold md back by md's own choice. */
        if (!clock || (bound_ms && rung_yields(depth, clock->pacing)) || rate_binds(clock, rate))
                return 0;
        return clock->rebuild_kibs;
}

uint64_t governor_minute_kibs(const governor_clock *clock, unsigned share) {
        uint64_t minute;

        if (!clock || !clock->learnt_usec ||
            !account_holds(clock, governor_target(clock->baseline_kibs, share), &minute))
                return 0;
        return minute;
}

bool governor_floor_held(const governor_clock *clock, unsigned share, uint64_t rate) {
        return clock && clock->learnt_usec && rate <= clock->held_kibs &&
               clock->users_kibs < governor_target(clock->baseline_kibs, share);
}

void governor_explain(const profile_settings *s, governor_state st, const governor_clock *clock, unsigned share,
                      unsigned bound_ms, uint64_t rate, uint64_t depth, uint64_t cache, char *buf, size_t size) {
        char keep[96], depth_text[96] = "";

        if (bound_ms)
                snprintf(keep, sizeof(keep), "their requests' 99th percentile stays under %u ms", bound_ms);
        else
                snprintf(keep, sizeof(keep), "they keep %u %% of what they get alone", share);
        if (rung_yields(depth, clock && clock->pacing))
                snprintf(depth_text, sizeof(depth_text), ", with at most %" PRIu64 " of its requests in flight", depth);
        switch (st) {
        case GOVERNOR_FITTING:
                snprintf(buf, size,
                         "The rebuild runs under fast's floor of %" PRIu64 " KiB/s; after %" PRIu64
                         " s the floor comes down to %u %% of the speed it reached, and the governor follows the "
                         "users.",
                         rate, s->fit_after_ms / 1000, s->fit_percent);
                break;
        case GOVERNOR_FREE:
                snprintf(buf, size,
                         "The array's users are quiet: the rebuild may use the whole disks. When they get busy, %s.",
                         keep);
                break;
        case GOVERNOR_LEARNING:
                snprintf(buf, size,
                         "The array's users are busy: the rebuild is held back to %" PRIu64 " KiB/s for %" PRIu64
                         " to %" PRIu64 " s to measure what they get alone; they keep %u %% of it.",
                         rate, s->learn_ms / 1000, governor_hold_max_ms(s) / 1000, share);
                break;
        case GOVERNOR_STEERING:
                if (bound_ms && clock && clock->latency_us)
                        snprintf(buf, size,
                                 "The users' requests take about %" PRIu64 ".%" PRIu64 " ms at the 99th percentile "
                                 "(%s); the bound is %u ms. The rebuild runs at up to %" PRIu64 " KiB/s%s.",
                                 clock->latency_us / 1000, clock->latency_us % 1000 / 100,
                                 governor_latency_basis(clock->latency_slowest), bound_ms, rate, depth_text);
                else if (bound_ms)
                        snprintf(buf, size,
                                 "The rebuild runs at up to %" PRIu64 " KiB/s%s; the users' latency is measured "
                                 "against the bound of %u ms over the next %" PRIu64 " s.",
                                 rate, depth_text, bound_ms, s->step_ms / 1000);
                else if (clock && clock->learnt_usec) {
                        uint64_t target = governor_target(clock->baseline_kibs, share),
                                 minute = governor_minute_kibs(clock, share);

                        snprintf(buf, size,
                                 "The users get %" PRIu64 " KiB/s; alone they get %" PRIu64 " KiB/s, and they keep "
                                 "%u %% of it (%" PRIu64 " KiB/s). The rebuild runs at %" PRIu64 " KiB/s.",
                                 clock->users_kibs, clock->baseline_kibs, share, target, rate);
                        if (minute) {
                                size_t len = strlen(buf);

                                snprintf(buf + len, size > len ? size - len : 0,
                                         " Over the last minute, every step counted, they got %" PRIu64
                                         " KiB/s: the rebuild gets more once that minute too leaves them more than "
                                         "a fifth above their share.",
                                         minute);
                        }
                        if (governor_floor_held(clock, share, rate)) {
                                size_t len = strlen(buf);

                                snprintf(buf + len, size > len ? size - len : 0,
                                         " That is the floor the array had before the boost, and the governor goes "
                                         "no lower, or the rebuild would run slower than without the boost: the "
                                         "users get less than their share. To give them more, restore, lower "
                                         "sync_speed_min and boost again.");
                        }
                } else
                        snprintf(buf, size,
                                 "The rebuild runs at %" PRIu64 " KiB/s; what the users get alone is measured "
                                 "again shortly.",
                                 rate);
                if (governor_moves_kibs(clock, bound_ms, depth, rate)) {
                        size_t len = strlen(buf);

                        snprintf(buf + len, size > len ? size - len : 0,
                                 " Between the users' requests it moves at only %" PRIu64
                                 " KiB/s; the rate goes up again once the rebuild keeps to it.",
                                 clock->rebuild_kibs);
                }
                if (!bound_ms && cache) {
                        size_t len = strlen(buf);

                        snprintf(buf + len, size > len ? size - len : 0,
                                 " Its stripe cache is %" PRIu64 " stripes, more than the boost's own, so that it "
                                 "reads more at each turn between the users' requests.",
                                 cache);
                }
                if (clock && clock->pacer.rate && clock->pacer.slice_usec) {
                        size_t len = strlen(buf);

                        snprintf(buf + len, size > len ? size - len : 0,
                                 " md is paced to it in turns of %" PRIu64
                                 " s: it runs each turn's share at once, then sleeps (floor and ceiling move "
                                 "around it), so the disks leave the users once a turn.",
                                 clock->pacer.slice_usec / 1000000);
                } else if (clock && clock->pacer.rate) {
                        size_t len = strlen(buf);

                        snprintf(buf + len, size > len ? size - len : 0,
                                 " md is paced to it second by second (floor and ceiling move around it), so it does "
                                 "not catch up on its 30-s average in bursts.");
                }
                break;
        case GOVERNOR_DONE:
                snprintf(buf, size,
                         "The governor no longer follows this boost (the floor was kept, an administrator changed "
                         "a limit, or a write failed); the limits stay as they are.");
                break;
        default:
                if (size)
                        buf[0] = 0;
                break;
        }
}
