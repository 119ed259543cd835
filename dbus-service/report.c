/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor.h"
#include "report.h"

/* A sample more than this after the last one (the service was stopped) counts as this much. */
#define SAMPLE_MAX_USEC (60ull * 1000000ull)
/*
 * md's sync_speed is its progress over its last ten marks, three seconds
 * apart: a rate read this long after a change (the users going quiet, the
 * governor lifting its ceiling 10 s later, or steering) is the new one.
 */
#define SETTLED_USEC (45ull * 1000000ull)
/*
 * How fast the recent steered rate forgets: as md's own average, over about
 * its span. A latency bound's governor starts from the boost's rate and
 * steps down over its first minutes, so what it keeps from here on is the
 * rate of its last half-minute, not its mean since it began.
 */
#define STEERED_RECENT_USEC MD_SYNC_SPEED_SPAN_USEC

static void note_onto(op_tally *t, const md_array *a) {
        size_t len = 0;

        if (t->onto[0])
                return;
        for (unsigned i = 0; i < a->n_members; i++) {
                const md_member *m = &a->members[i];
                int n;

                if (m->role != MD_ROLE_REBUILDING)
                        continue;
                n = snprintf(t->onto + len, sizeof(t->onto) - len, "%s%s", len ? " " : "", m->name);
                if (n < 0 || (size_t)n >= sizeof(t->onto) - len) {
                        t->onto[len] = 0; /* whole names only */
                        break;
                }
                len += (size_t)n;
        }
}

void report_tally_start(op_tally *t, const md_array *a, uint64_t now_usec) {
        *t = (op_tally){ .last_usec = now_usec };
        if (a->io_sectors.kind == MD_V_NUMBER) {
                t->last_io = a->io_sectors.value;
                t->last_requests = md_tval_number(&a->io_requests);
                t->last_in_flight = md_tval_number(&a->io_in_flight);
                t->have_io = true;
        }
        note_onto(t, a);
}

/*
 * Adds what the live position moved since the last sample, at @pos_kib
 * now, to @kib over @usec, and keeps @pos_kib as the last (@known): a
 * position that went back (a new operation's) or a sample long after the
 * last (the service was stopped) adds nothing.
 */
static void add_moved(uint64_t *kib, uint64_t *usec, bool *known, uint64_t *last_kib, uint64_t pos_kib, uint64_t dt) {
        if (*known && pos_kib >= *last_kib && dt < SAMPLE_MAX_USEC) {
                *kib += pos_kib - *last_kib;
                *usec += dt;
        }
        *known = true;
        *last_kib = pos_kib;
}

/* A rate summed over samples is known after md's own averaging span of them: KiB/s, or 0. */
static uint64_t span_rate(uint64_t kib, uint64_t usec) {
        return usec >= MD_SYNC_SPEED_SPAN_USEC ? kib * 1000000u / usec : 0;
}

/*
 * The rates the prediction rests on (predict.h), from a sample in which the
 * users were @busy or not. The rebuild runs with nothing holding it back
 * while md is below its floor (md_do_sync() then applies no limit at all,
 * as under max, or fast before its fit) and while the users are quiet;
 * once md's average has followed, its sync_speed is that rate.
 */
static void note_rates(op_tally *t, const md_array *a, uint64_t now_usec, uint64_t dt, const tally_boost *boost,
                       bool busy) {
        const md_tval *floor = &a->tunables[MD_T_SYNC_SPEED_MIN], *max = &a->tunables[MD_T_SYNC_SPEED_MAX];
        bool speed = a->sync_speed.kind == MD_V_NUMBER && a->sync_speed.value > 0;

        if (busy)
                t->quiet_since_usec = 0;
        else if (!t->quiet_since_usec)
                t->quiet_since_usec = now_usec - dt; /* quiet since the last sample */
        if (speed && md_tval_has_number(floor) && a->sync_speed.value < floor->value) {
                if (!t->unbounded_since_usec)
                        t->unbounded_since_usec = now_usec - dt;
        } else
                t->unbounded_since_usec = 0;
        if (speed && t->unbounded_since_usec && now_usec - t->unbounded_since_usec >= MD_SYNC_SPEED_SPAN_USEC) {
                t->whole_kibs = a->sync_speed.value;
                t->whole_capped = false; /* below its floor md keeps no ceiling */
        } else if (!busy && speed && now_usec - t->quiet_since_usec >= SETTLED_USEC) {
                t->whole_kibs = a->sync_speed.value;
                t->whole_capped = md_tval_has_number(max) && a->sync_speed.value * 10 >= max->value * 9;
        }
        /* Steering means busy users (the governor lifts after fast_ceiling_quiet_ms), whatever one sample says. */
        if (!boost || !boost->steering) {
                t->steering_since_usec = 0;
                t->steered_pos_known = false;
                return;
        }
        /*
         * What the governor keeps depends on what it was told to keep: a
         * share and a bound (or two shares) give different rates, so a new
         * target starts the steered rate afresh.
         */
        if (strcmp(t->steered_target, boost->target ?: "") != 0) {
                snprintf(t->steered_target, sizeof(t->steered_target), "%s", boost->target ?: "");
                t->steered_kib = t->steered_usec = 0;
                t->steered_recent_kib = t->steered_recent_usec = 0;
                t->steering_since_usec = 0;
                t->steered_pos_known = false;
        }
        if (!t->steering_since_usec)
                t->steering_since_usec = now_usec;
        /*
         * The steered rate is what the live position moved over the time
         * steered, summed sample by sample. At low rates md moves it in
         * jumps (a window of stripes at once, then a sleep), so a rate taken
         * over any shorter span, a step of the governor's included, is a
         * jump or nothing. md's sync_speed is one only once its average has
         * followed the steering, which users busy in bursts shorter than
         * that never let it do; it stands in where the position is unknown.
         */
        uint64_t kib = t->steered_kib, usec = t->steered_usec; /* before this sample */

        if (boost->position_known) {
                add_moved(&t->steered_kib, &t->steered_usec, &t->steered_pos_known, &t->steered_pos_kib,
                          boost->position_kib, dt);
        } else {
                t->steered_pos_known = false;
                if (speed && now_usec - t->steering_since_usec >= SETTLED_USEC) {
                        t->steered_kib += a->sync_speed.value * dt / 1000000u;
                        t->steered_usec += dt;
                }
        }
        if (t->steered_usec > usec) {
                double keep = (double)STEERED_RECENT_USEC / (double)(STEERED_RECENT_USEC + (t->steered_usec - usec));

                t->steered_recent_kib = t->steered_recent_kib * keep + (double)(t->steered_kib - kib);
                t->steered_recent_usec = t->steered_recent_usec * keep + (double)(t->steered_usec - usec);
        }
}

/*
 * The rate the governor's quiet spells give the rebuild: what the live
 * position moved while it held nothing back (its ceiling the boost's, after
 * a fit or lifted) and the users were quiet, summed sample by sample. The
 * whole rate (note_rates) is mostly taken while md runs below its floor,
 * which under a fit is with the users busy: on disks that seek they take
 * part of the disks even then (3400 to 3500 KiB/s under the benchmark's
 * bursty user, where the quiet disks gave 5200 to 5700), and md's average
 * never follows a quiet spell shorter than its 30 s.
 */
static void note_lifted(op_tally *t, uint64_t dt, const tally_boost *boost, bool busy) {
        if (!boost || !boost->lifted || busy || !boost->position_known) {
                t->lifted_pos_known = false;
                return;
        }
        add_moved(&t->lifted_kib, &t->lifted_usec, &t->lifted_pos_known, &t->lifted_pos_kib, boost->position_kib, dt);
}

uint64_t report_tally_lifted_kibs(const op_tally *t) {
        return span_rate(t->lifted_kib, t->lifted_usec);
}

/*
 * The steered rate is known after md's own averaging span of steering: md
 * paces itself over that span, so its jumps average out over it and not
 * over less.
 */
uint64_t report_tally_steered_kibs(const op_tally *t) {
        return span_rate(t->steered_kib, t->steered_usec);
}

uint64_t report_tally_steered_recent_kibs(const op_tally *t) {
        if (!report_tally_steered_kibs(t) || t->steered_recent_usec <= 0)
                return 0;
        return (uint64_t)(t->steered_recent_kib * 1e6 / t->steered_recent_usec + 0.5);
}

void report_tally_sample(op_tally *t, const profile_settings *s, const md_array *a, uint64_t now_usec,
                         const tally_boost *boost, bool exposed) {
        uint64_t dt = now_usec > t->last_usec ? now_usec - t->last_usec : 0;
        bool was_boosted;

        if (dt > SAMPLE_MAX_USEC)
                dt = SAMPLE_MAX_USEC;
        t->last_usec = now_usec;
        note_onto(t, a);
        if (a->sync_speed.kind == MD_V_NUMBER && a->sync_speed.value > t->peak_kibs)
                t->peak_kibs = a->sync_speed.value;
        /*
         * What the boost did, the card's measure: the rebuild's rate and the
         * users' before it against under it. A sample's time ran under what
         * the last sample found: the boost came (or went) at its end.
         */
        was_boosted = t->boosted;
        if (!boost) {
                t->unboosted_kibs = md_tval_number(&a->sync_speed);
                t->before_boost_kibs = 0;
                t->users_before = t->users_boosted = (tally_users){ 0 };
        } else if (!was_boosted) {
                t->before_boost_kibs = t->unboosted_kibs;
                t->unboosted_kibs = 0; /* taken: a boost made while this one lasts starts from nothing known */
                t->users_before = t->users_unboosted;
                t->users_unboosted = t->users_boosted = (tally_users){ 0 };
        }
        t->boosted = boost != NULL;
        if (boost) {
                t->boosted_usec += dt;
                snprintf(t->boost, sizeof(t->boost), "%s", boost->profile ?: "");
                snprintf(t->policy, sizeof(t->policy), "%s", boost->policy ?: "");
                if (boost->users_alone_kibs)
                        t->users_alone_kibs = boost->users_alone_kibs;
        }
        if (exposed)
                t->exposed_usec += dt;
        if (a->io_sectors.kind != MD_V_NUMBER) {
                t->have_io = false;
                t->quiet_since_usec = t->steering_since_usec = 0;
                t->lifted_pos_known = false;
                return;
        }
        /* The counter starts again from 0 when the array is stopped and assembled. */
        if (t->have_io && a->io_sectors.value >= t->last_io && dt > 0) {
                uint64_t kib = (a->io_sectors.value - t->last_io) / 2, requests = 0;
                /* A boost's last stretch, ended by this sample, is dropped with it. */
                tally_users *u = was_boosted ? (boost ? &t->users_boosted : NULL)
                                             : (boost ? &t->users_before : &t->users_unboosted);
                bool busy;

                if (a->io_requests.kind == MD_V_NUMBER && a->io_requests.value >= t->last_requests)
                        requests = a->io_requests.value - t->last_requests;
                busy = governor_users_busy(s, kib, requests, dt) || governor_users_waiting(a, t->last_in_flight);
                t->users_kib += kib;
                t->sampled_usec += dt;
                if (u)
                        u->sampled_usec += dt;
                if (busy)
                        t->users_busy_usec += dt;
                if (busy && u) {
                        u->busy_kib += kib;
                        u->busy_usec += dt;
                }
                note_rates(t, a, now_usec, dt, boost, busy);
                note_lifted(t, dt, boost, busy);
        }
        t->last_io = a->io_sectors.value;
        t->last_requests = md_tval_number(&a->io_requests);
        t->last_in_flight = md_tval_number(&a->io_in_flight);
        t->have_io = true;
}

/* Busy for less than this, the users' rate is a few requests' worth: not said. */
#define USERS_KNOWN_USEC (10ull * 1000000ull)

uint64_t report_users_busy_kibs(const tally_users *u) {
        return u->busy_usec >= USERS_KNOWN_USEC ? u->busy_kib * 1000000u / u->busy_usec : 0;
}

unsigned report_users_busy_permille(const tally_users *u) {
        return u->sampled_usec ? (unsigned)(u->busy_usec * 1000u / u->sampled_usec) : 0;
}

uint64_t report_duration_s(const op_report *r) {
        return r->ended_usec > r->started_usec ? (r->ended_usec - r->started_usec) / 1000000u : 0;
}

uint64_t report_average_kibs(const op_report *r) {
        uint64_t usec = r->ended_usec > r->started_usec ? r->ended_usec - r->started_usec : 0;

        return usec ? r->kib * 1000000u / usec : 0;
}

uint64_t report_users_kibs(const op_report *r) {
        return r->users_busy_usec ? r->users_kib * 1000000u / r->users_busy_usec : 0;
}

int report_users_kept_percent(const op_report *r) {
        uint64_t busy = report_users_kibs(r);

        if (!busy || !r->users_alone_kibs)
                return -1;
        return (int)(busy * 100u / r->users_alone_kibs > 999 ? 999 : busy * 100u / r->users_alone_kibs);
}

/* "3 h 12 min", "12 min", "45 s". */
static void span(uint64_t s, char *buf, size_t size) {
        if (s >= 3600)
                snprintf(buf, size, "%" PRIu64 " h %" PRIu64 " min", s / 3600, s % 3600 / 60);
        else if (s >= 60)
                snprintf(buf, size, "%" PRIu64 " min", s / 60);
        else
                snprintf(buf, size, "%" PRIu64 " s", s);
}

static const char *outcome_words(const op_report *r) {
        if (strcmp(r->outcome, "finished") == 0)
                return "finished";
        if (strcmp(r->outcome, "member-failed") == 0)
                return "stopped when a member failed";
        if (strcmp(r->outcome, "frozen") == 0)
                return "was frozen";
        return "was interrupted";
}

void report_summary(const op_report *r, char *buf, size_t size) {
        char took[32], part[64];
        size_t len;
        int kept = report_users_kept_percent(r);

        span(report_duration_s(r), took, sizeof(took));
        len = (size_t)snprintf(buf, size, "%s %s", r->action, outcome_words(r));
        if (r->onto[0] && len < size)
                len += (size_t)snprintf(buf + len, size - len, " onto %s", r->onto);
        if (len < size)
                len += (size_t)snprintf(buf + len, size - len, " in %s at %.1f MiB/s", took,
                                        (double)report_average_kibs(r) / 1024.0);
        if (strcmp(r->outcome, "finished") != 0 && len < size)
                len += (size_t)snprintf(buf + len, size - len, " (%.1f %% done)", r->progress);
        if (r->boost[0] && len < size) {
                span(r->boosted_usec / 1000000u, part, sizeof(part));
                len += (size_t)snprintf(buf + len, size - len, "; boosted with %s%s%s%s for %s", r->boost,
                                        r->policy[0] ? " by policy (" : "", r->policy, r->policy[0] ? ")" : "", part);
        } else if (len < size)
                len += (size_t)snprintf(buf + len, size - len, "; not boosted");
        if (kept >= 0 && len < size)
                len += (size_t)snprintf(buf + len, size - len, "; users kept %d %%", kept);
        else if (r->users_busy_usec && len < size)
                len += (size_t)snprintf(buf + len, size - len, "; users got %.1f MiB/s",
                                        (double)report_users_kibs(r) / 1024.0);
        if (r->exposed_usec >= 1000000u && len < size) {
                span(r->exposed_usec / 1000000u, part, sizeof(part));
                snprintf(buf + len, size - len, "; %s without redundancy", part);
        }
}

int report_book_add(report_book *b, const op_report *r) {
        unsigned same = 0, oldest = b->n;

        for (unsigned i = 0; i < b->n; i++)
                if (strcmp(b->reports[i].uuid, r->uuid) == 0 && same++ == 0)
                        oldest = i;
        if (same >= REPORT_KEEP) {
                memmove(&b->reports[oldest], &b->reports[oldest + 1], (b->n - oldest - 1) * sizeof(*b->reports));
                b->n--;
        }
        if (b->n == b->cap) {
                unsigned cap = b->cap ? b->cap * 2 : 8;
                op_report *grown = reallocarray(b->reports, cap, sizeof(*grown));

                if (!grown)
                        return -ENOMEM;
                b->reports = grown;
                b->cap = cap;
        }
        b->reports[b->n++] = *r;
        return 0;
}

void report_book_free(report_book *b) {
        free(b->reports);
        *b = (report_book){};
}

/* The fields as JSON keys: one table for both directions. */
typedef enum {
        F_STR,
        F_U64,
        F_DOUBLE,
        F_BOOL,
} field_kind;
typedef struct field {
        const char *key;
        field_kind kind;
        size_t offset, size;
        bool optional; /* a file from a version without it reads it as 0 */
} field;

/* The size of a string member of op_report. */
#define MEMBER_SIZE(m) sizeof(((op_report *)0)->m)
static const field fields[] = {
        { "uuid", F_STR, offsetof(op_report, uuid), MEMBER_SIZE(uuid), false },
        { "array", F_STR, offsetof(op_report, array), MEMBER_SIZE(array), false },
        { "action", F_STR, offsetof(op_report, action), MEMBER_SIZE(action), false },
        { "outcome", F_STR, offsetof(op_report, outcome), MEMBER_SIZE(outcome), false },
        { "onto", F_STR, offsetof(op_report, onto), MEMBER_SIZE(onto), false },
        { "started", F_U64, offsetof(op_report, started_usec), 0, false },
        { "ended", F_U64, offsetof(op_report, ended_usec), 0, false },
        { "progress", F_DOUBLE, offsetof(op_report, progress), 0, false },
        { "kib", F_U64, offsetof(op_report, kib), 0, false },
        { "peak_kibs", F_U64, offsetof(op_report, peak_kibs), 0, false },
        { "boost", F_STR, offsetof(op_report, boost), MEMBER_SIZE(boost), false },
        { "policy", F_STR, offsetof(op_report, policy), MEMBER_SIZE(policy), false },
        { "boosted_usec", F_U64, offsetof(op_report, boosted_usec), 0, false },
        { "exposed_usec", F_U64, offsetof(op_report, exposed_usec), 0, false },
        { "users_kib", F_U64, offsetof(op_report, users_kib), 0, false },
        { "users_busy_usec", F_U64, offsetof(op_report, users_busy_usec), 0, false },
        { "users_alone_kibs", F_U64, offsetof(op_report, users_alone_kibs), 0, false },
        { "whole_kibs", F_U64, offsetof(op_report, whole_kibs), 0, true },
        { "whole_capped", F_BOOL, offsetof(op_report, whole_capped), 0, true },
        { "steered_kibs", F_U64, offsetof(op_report, steered_kibs), 0, true },
        { "steered_target", F_STR, offsetof(op_report, steered_target), MEMBER_SIZE(steered_target), true },
        { "restored", F_STR, offsetof(op_report, restored), MEMBER_SIZE(restored), false },
};

static json_object *report_to_json(const op_report *r) {
        json_object *o = json_object_new_object();

        if (!o)
                return NULL;
        for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
                const void *p = (const char *)r + fields[i].offset;
                json_object *v = fields[i].kind == F_STR    ? json_object_new_string(p)
                                 : fields[i].kind == F_U64  ? json_object_new_uint64(*(const uint64_t *)p)
                                 : fields[i].kind == F_BOOL ? json_object_new_boolean(*(const bool *)p)
                                                            : json_object_new_double(*(const double *)p);

                if (!v || json_object_object_add(o, fields[i].key, v) < 0) {
                        json_object_put(v);
                        json_object_put(o);
                        return NULL;
                }
        }
        return o;
}

json_object *report_book_to_json(const report_book *b) {
        json_object *root = json_object_new_object(), *arr = json_object_new_array();

        if (!root || !arr || json_object_object_add(root, "reports", arr) < 0) {
                json_object_put(root);
                json_object_put(arr);
                return NULL;
        }
        for (unsigned i = 0; i < b->n; i++) {
                json_object *o = report_to_json(&b->reports[i]);

                if (!o || json_object_array_add(arr, o) < 0) {
                        json_object_put(o);
                        json_object_put(root);
                        return NULL;
                }
        }
        return root;
}

/* 0, or -EINVAL when a field is missing, of the wrong type, or too long. */
static int report_from_json(json_object *o, op_report *ret) {
        op_report r = {};

        if (!json_object_is_type(o, json_type_object))
                return -EINVAL;
        for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
                void *p = (char *)&r + fields[i].offset;
                json_object *v;

                if (!json_object_object_get_ex(o, fields[i].key, &v)) {
                        if (fields[i].optional)
                                continue;
                        return -EINVAL;
                }
                if (fields[i].kind == F_STR) {
                        const char *s = json_object_get_string(v);

                        if (!json_object_is_type(v, json_type_string) || strlen(s) >= fields[i].size)
                                return -EINVAL;
                        memcpy(p, s, strlen(s) + 1);
                } else if (fields[i].kind == F_U64) {
                        if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
                                return -EINVAL;
                        *(uint64_t *)p = json_object_get_uint64(v);
                } else if (fields[i].kind == F_BOOL) {
                        if (!json_object_is_type(v, json_type_boolean))
                                return -EINVAL;
                        *(bool *)p = json_object_get_boolean(v);
                } else {
                        if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
                                return -EINVAL;
                        *(double *)p = json_object_get_double(v);
                }
        }
        if (strlen(r.uuid) != 36 || !md_name_valid(r.array) || !r.action[0])
                return -EINVAL;
        *ret = r;
        return 0;
}

int report_book_from_json(json_object *o, report_book *ret, unsigned *ret_skipped) {
        report_book b = {};
        json_object *arr;
        unsigned skipped = 0;

        if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "reports", &arr) ||
            !json_object_is_type(arr, json_type_array))
                return -EINVAL;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
                op_report r;

                if (report_from_json(json_object_array_get_idx(arr, i), &r) < 0) {
                        skipped++;
                        continue;
                }
                if (report_book_add(&b, &r) < 0) {
                        report_book_free(&b);
                        return -ENOMEM;
                }
        }
        *ret = b;
        if (ret_skipped)
                *ret_skipped = skipped;
        return 0;
}
