/* SPDX-License-Identifier: MIT */
/*
 * Checks that wait (checks.h): on every poll, a check or repair outside its
 * array's windows or on a degraded array is paused with "idle", and
 * resumed with sync_min and its action once it may run. The records of
 * what was paused are saved before md is told, in the state folder next to
 * the journal, so that a restarted service resumes them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks.h"
#include "cleanup.h"
#include "file-io.h"
#include "log.h"
#include "service.h"

/*
 * Whether md on this kernel brings a paused repair back as a repair: seen
 * on 6.1 and 6.12; on 7.3 "idle" turns it into a resync that cannot be
 * stopped. Kernels after 6.12 are taken to do as 7.3 did; an unknown
 * release is found out on the first pause (pause_check).
 */
static bool repair_pauses_on(const md_root *root) {
        char buf[64];
        unsigned major = 0, minor = 0;

        if (md_root_read(root, "proc/sys/kernel/osrelease", buf, sizeof(buf)) <= 0 ||
            sscanf(buf, "%u.%u", &major, &minor) != 2)
                return true;
        return major < 6 || (major == 6 && minor <= 12);
}

int service_load_checks(context *c) {
        _cleanup_free_ char *text = NULL;
        unsigned line = 0;
        size_t len;
        int r;

        c->repair_becomes_resync = !repair_pauses_on(&c->root);
        if (c->repair_becomes_resync)
                log_info("repairs are not paused by check windows on this kernel: md turns a paused repair into a "
                         "resync from where it stopped");
        c->checks = (check_book){};
        r = file_read_at(c->state_fd, CHECKS_FILE, 64 * 1024, &text, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0 || check_book_parse(text, &c->checks, &line) < 0) {
                /* Only resuming depends on it: a check it named waits for the next one md starts. */
                log_warning("%s/%s: %s; the checks it names are not resumed", c->state_dir, CHECKS_FILE,
                            r < 0 ? strerror(-r) : "a line could not be read");
                if (r >= 0)
                        log_warning("%s/%s: line %u is not a paused check", c->state_dir, CHECKS_FILE, line);
                c->checks = (check_book){};
        }
        return 0;
}

static int save(context *c) {
        char text[CHECKS_MAX * 160];
        int r = check_book_format(&c->checks, text, sizeof(text));

        if (r < 0)
                return r;
        return file_replace_at(c->state_fd, CHECKS_FILE, text, 0600);
}

/* The local weekday and minute now. */
static void local_now(unsigned *ret_wday, unsigned *ret_minute) {
        time_t t = time(NULL);
        struct tm tm = {};

        localtime_r(&t, &tm);
        *ret_wday = (unsigned)tm.tm_wday;
        *ret_minute = (unsigned)(tm.tm_hour * 60 + tm.tm_min);
}

const check_windows *service_check_windows(const context *c, const md_array *a) {
        const policy_rule *r = policy_lookup(&c->cfg.policies, a->uuid[0] ? a->uuid : NULL, POLICY_CHECK_WINDOW, NULL);

        return r->kind == POLICY_WINDOWS ? &r->windows : NULL;
}

uint64_t service_check_resumes_usec(const context *c, const md_array *a) {
        const check_windows *w = service_check_windows(c, a);
        unsigned wday, minute;
        int m;

        if (!w || w->n == 0)
                return 0;
        local_now(&wday, &minute);
        m = check_windows_minutes_until(w, wday, minute, false);
        if (m <= 0)
                return 0;
        /* At the start of that minute. */
        return (loop_realtime_usec() / 60000000u + (uint64_t)m) * 60000000u;
}

/* Forgets the record of @uuid, on file too. */
static void drop_record(context *c, const char *uuid) {
        check_book_remove(&c->checks, uuid);
        if (save(c) < 0)
                log_warning("could not save %s/%s", c->state_dir, CHECKS_FILE);
}

static int write_sync_min(context *c, const md_array *a, uint64_t sector) {
        char text[32];
        md_tval back;

        snprintf(text, sizeof(text), "%" PRIu64, sector);
        return md_tunable_write(&c->root, a->name, MD_T_SYNC_MIN, text, &back);
}

static int write_action(context *c, const md_array *a, const char *word) {
        char rel[64 + MD_NAME_MAX];

        snprintf(rel, sizeof(rel), "sys/block/%s/md/sync_action", a->name);
        return md_root_write(&c->root, rel, word);
}

/*
 * The mismatches a run found before where it resumes: md counts from 0
 * when it starts again, from its checkpoint. On 6.1 that checkpoint is the
 * last one md took (every sixteenth of the array or five minutes), so the
 * count is the one seen when md reached it;
 * where md stops at its position (7.3) it is the count at the pause.
 */
static uint64_t mismatches_before(const md_array *a, const array_object *o, uint64_t resume_at) {
        if (o->check_mark_pos == resume_at)
                return o->check_mark_mismatches;
        if (a->mismatch_cnt.kind == MD_V_NUMBER)
                return a->mismatch_cnt.value;
        return 0;
}

/*
 * What the check has found up to where it resumes: this run's, and the
 * earlier runs' of @r when this one went on from where they stopped (@done,
 * its position before the pause, is past theirs; a check md started afresh
 * after the array was stopped is not).
 */
static uint64_t carried(const check_record *r, uint64_t done, const md_array *a, const array_object *o,
                        uint64_t resume_at) {
        return check_earlier_mismatches(r, done) + mismatches_before(a, o, resume_at);
}

static void log_paused(const md_array *a, const check_record *r, const char *how) {
        if (r->why == CHECK_WHY_WINDOW)
                log_notice("%s: %s %s at sector %" PRIu64 " of %" PRIu64 ": outside its check windows", a->name, how,
                           md_sync_action_to_string(r->action), r->position, r->total);
        else if (r->why == CHECK_WHY_DEGRADED)
                log_warning("%s: %s %s at sector %" PRIu64 " of %" PRIu64 ": the array is degraded, and a check "
                            "must not wear its remaining disks before the rebuild",
                            a->name, how, md_sync_action_to_string(r->action), r->position, r->total);
        else if (r->why == CHECK_WHY_BUSY)
                log_notice("%s: %s %s at sector %" PRIu64 " of %" PRIu64 ": its users are busy (check_busy = pause)",
                           a->name, how, md_sync_action_to_string(r->action), r->position, r->total);
        else
                log_notice("%s: the %s waits at sector %" PRIu64 " of %" PRIu64 " while md rebuilds", a->name,
                           md_sync_action_to_string(r->action), r->position, r->total);
}

/*
 * The last checkpoint md showed for the check of @a: sync_completed as
 * read now while it runs, else as last seen.
 */
static uint64_t checkpoint_seen(const md_array *a, const array_object *o) {
        if ((a->sync_action == MD_SYNC_CHECK || a->sync_action == MD_SYNC_REPAIR) &&
            a->progress.kind == MD_PROGRESS_RUNNING)
                return a->progress.done;
        return o->check_mark_pos;
}

/* Interrupts the running check of @a and records where it resumes. True when md was written. */
static bool pause_check(context *c, const md_array *a, array_object *o, check_record *old, check_why why) {
        check_record r = { .action = a->sync_action, .why = why, .paused_usec = loop_realtime_usec() };
        md_array now = {};
        uint64_t at, seen;
        int e;

        snprintf(r.uuid, sizeof(r.uuid), "%s", a->uuid);
        r.total = a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.total : o->op_total;
        e = write_action(c, a, "idle");
        if (e < 0) {
                if (!o->check_write_failed)
                        log_warning("%s: could not pause the %s: %s", a->name, md_sync_action_to_string(a->sync_action),
                                    strerror(-e));
                o->check_write_failed = true;
                return false;
        }
        o->check_write_failed = false;
        /* Where md will start again: sync_min holds its checkpoint once it stopped. */
        e = md_read_array(&c->root, a->name, &now);
        if (e < 0 || now.tunables[MD_T_SYNC_MIN].kind != MD_V_NUMBER) {
                at = o->check_mark_pos;
                log_warning("%s: could not read sync_min after the pause; it resumes from sector %" PRIu64, a->name,
                            at);
        } else
                at = now.tunables[MD_T_SYNC_MIN].value;
        if (e >= 0 && a->sync_action == MD_SYNC_REPAIR && now.sync_action == MD_SYNC_RESYNC) {
                /* This kernel turns an interrupted repair into a resync from its checkpoint (checks.h). */
                c->repair_becomes_resync = true;
                log_warning("%s: md turned the paused repair into a resync from sector %" PRIu64 "; this kernel "
                            "cannot pause a repair, so repairs run whatever their windows until mdboostd restarts",
                            a->name, at);
                md_array_free(&now);
                if (old)
                        drop_record(c, a->uuid);
                return true;
        }
        /*
         * A member's failure can end the check as if it were done: md skips
         * to the end and forgets sync_min (seen on 6.1 and 7.3: 0 though
         * sync_completed had passed 30 %). The check is not done; the last
         * checkpoint this run showed stands.
         */
        seen = checkpoint_seen(a, o);
        if (why == CHECK_WHY_DEGRADED && at < seen)
                at = seen;
        /*
         * md forgets sync_min when a check ends: one that ended between the
         * read and the pause reads 0 though it was past half (interrupted
         * there, 6.1 and 6.12 would have kept at least 7/16).
         */
        if (at == 0 && a->progress.kind == MD_PROGRESS_RUNNING && a->progress.done > a->progress.total / 2) {
                log_notice("%s: the %s ended before it could be paused", a->name,
                           md_sync_action_to_string(a->sync_action));
                md_array_free(&now);
                if (old)
                        drop_record(c, a->uuid);
                return true;
        }
        r.position = at;
        r.mismatches = carried(old, a->progress.done, e >= 0 ? &now : a, o, at);
        md_array_free(&now);
        if (check_book_put(&c->checks, &r) < 0 || save(c) < 0)
                /* md stopped already; without its record the next start of md's own resumes it. */
                log_warning("%s: could not save where the %s stopped (%s/%s); sync_min keeps it", a->name,
                            md_sync_action_to_string(r.action), c->state_dir, CHECKS_FILE);
        log_paused(a, &r, "paused the");
        return true;
}

/* Starts @r's check again from its position. True when md was written. */
static bool resume_check(context *c, const md_array *a, array_object *o, check_record *r) {
        const md_tval *min = &a->tunables[MD_T_SYNC_MIN];
        const char *word = md_sync_action_to_string(r->action);
        check_record was = *r;
        bool wrote_min = false;
        int e;

        /* md kept it unless the array was stopped since: then it is written, on a chunk as md wants it. */
        if (min->kind != MD_V_NUMBER || min->value != r->position) {
                uint64_t chunk = a->chunk_size.kind == MD_V_NUMBER ? a->chunk_size.value / 512 : 0, at = r->position;

                if (chunk)
                        at -= at % chunk;
                e = write_sync_min(c, a, at);
                if (e < 0) {
                        if (!o->check_write_failed)
                                log_warning("%s: could not set sync_min to %" PRIu64
                                            " to resume the %s there: %s; not resumed",
                                            a->name, at, word, strerror(-e));
                        o->check_write_failed = true;
                        return false;
                }
                r->position = at;
                wrote_min = true;
        }
        r->why = CHECK_WHY_NONE;
        r->paused_usec = 0;
        if (save(c) < 0)
                log_warning("%s: could not save that the %s runs again (%s/%s)", a->name, word, c->state_dir,
                            CHECKS_FILE);
        e = write_action(c, a, word);
        if (e < 0) {
                /* md started something else meanwhile (EBUSY): sync_min as it was, the record waits. */
                if (wrote_min && min->kind == MD_V_NUMBER && write_sync_min(c, a, min->value) < 0)
                        log_warning("%s: could not put sync_min back to %" PRIu64, a->name, min->value);
                *r = was;
                (void)save(c);
                if (!o->check_write_failed)
                        log_warning("%s: could not resume the %s: %s", a->name, word, strerror(-e));
                o->check_write_failed = true;
                return true;
        }
        o->check_write_failed = false;
        log_notice("%s: resumed the %s at sector %" PRIu64 " of %" PRIu64, a->name, word, r->position, r->total);
        return true;
}

/* The record changes without a write: a rebuild took over, it runs again, or md stopped it on a failure. */
static void note_check(context *c, const md_array *a, array_object *o, check_record *r, check_why why) {
        check_record n = *r;

        if (why == CHECK_WHY_NONE) {
                /* Started again by someone: from where it stopped, or from the start after a restart of the array. */
                if (a->progress.kind == MD_PROGRESS_RUNNING && a->progress.done < r->position) {
                        n.mismatches = 0;
                        n.position = a->progress.done;
                }
                n.why = CHECK_WHY_NONE;
                n.paused_usec = 0;
                log_notice("%s: the %s runs again from sector %" PRIu64, a->name, md_sync_action_to_string(n.action),
                           n.position);
        } else {
                if (r->why == CHECK_WHY_NONE) {
                        /* md stopped it: at its checkpoint, kept in sync_min. */
                        const md_tval *min = &a->tunables[MD_T_SYNC_MIN];
                        uint64_t at = min->kind == MD_V_NUMBER ? min->value : o->check_mark_pos;

                        n.mismatches = carried(r, o->check_mark_pos, a, o, at);
                        n.position = at;
                        n.paused_usec = loop_realtime_usec();
                }
                n.why = why;
                log_paused(a, &n, "waits with the");
        }
        *r = n;
        if (save(c) < 0)
                log_warning("%s: could not save the %s's record (%s/%s)", a->name, md_sync_action_to_string(n.action),
                            c->state_dir, CHECKS_FILE);
}

/* md stopped the check when a member failed: it is recorded to go on from md's checkpoint once the array is whole. */
static void keep_check(context *c, const md_array *a, array_object *o) {
        const md_tval *min = &a->tunables[MD_T_SYNC_MIN];
        uint64_t seen = checkpoint_seen(a, o);
        check_record r = { .action = o->op_action,
                           .why = CHECK_WHY_DEGRADED,
                           .total = o->op_total,
                           .paused_usec = loop_realtime_usec() };

        snprintf(r.uuid, sizeof(r.uuid), "%s", a->uuid);
        /*
         * md's checkpoint, or the last one it showed in sync_completed if that
         * is further (6.1 and 7.3 can leave sync_min at 0 when a member fails).
         */
        r.position = min->kind == MD_V_NUMBER && min->value > seen ? min->value : seen;
        r.mismatches = mismatches_before(a, o, r.position);
        if (check_book_put(&c->checks, &r) < 0 || save(c) < 0)
                log_warning("%s: could not save where md stopped the %s (%s/%s)", a->name,
                            md_sync_action_to_string(r.action), c->state_dir, CHECKS_FILE);
        log_paused(a, &r, "md stopped the");
}

static void forget_check(context *c, const md_array *a, const check_record *r) {
        const char *word = md_sync_action_to_string(r->action);

        if (md_operation_completed(a, r->action) && a->mismatch_cnt.kind == MD_V_NUMBER)
                log_notice("%s: the %s ended: %" PRIu64 " mismatched sectors in all", a->name, word,
                           r->mismatches + a->mismatch_cnt.value);
        else if (a->sync_action == MD_SYNC_IDLE)
                log_notice("%s: the %s was stopped by someone else; it is not resumed", a->name, word);
        drop_record(c, a->uuid);
}

/*
 * The users of @a, sampled at most once a second from its md device's
 * counters (only the users' I/O counts there, never md's own check):
 * since when they have been busy, or quiet.
 */
static void sample_users(const profile_settings *s, const md_array *a, array_object *o, uint64_t now) {
        uint64_t kib, requests;
        bool busy;

        if (a->io_sectors.kind != MD_V_NUMBER || a->io_requests.kind != MD_V_NUMBER)
                return;
        if (o->users_sample_usec && now - o->users_sample_usec < 1000000u)
                return;
        if (!o->users_sample_usec || a->io_sectors.value < o->users_sample_sectors ||
            a->io_requests.value < o->users_sample_requests) {
                /* The first sample, or the array started anew: nothing to compare yet. */
                o->users_sample_usec = now;
                o->users_sample_sectors = a->io_sectors.value;
                o->users_sample_requests = a->io_requests.value;
                o->users_sample_in_flight = md_tval_number(&a->io_in_flight);
                return;
        }
        kib = (a->io_sectors.value - o->users_sample_sectors) / 2;
        requests = a->io_requests.value - o->users_sample_requests;
        busy = governor_users_busy(s, kib, requests, now - o->users_sample_usec) ||
               governor_users_waiting(a, o->users_sample_in_flight);
        if (busy && !o->users_busy_since_usec)
                o->users_busy_since_usec = o->users_sample_usec;
        if (!busy && !o->users_quiet_since_usec)
                o->users_quiet_since_usec = o->users_sample_usec;
        if (busy)
                o->users_quiet_since_usec = 0;
        else
                o->users_busy_since_usec = 0;
        o->users_sample_usec = now;
        o->users_sample_sectors = a->io_sectors.value;
        o->users_sample_requests = a->io_requests.value;
        o->users_sample_in_flight = md_tval_number(&a->io_in_flight);
}

/* md's checkpoints of a running check, with the mismatches counted up to each. */
static void mark_progress(const md_array *a, array_object *o) {
        if ((a->sync_action != MD_SYNC_CHECK && a->sync_action != MD_SYNC_REPAIR) ||
            a->progress.kind != MD_PROGRESS_RUNNING || a->mismatch_cnt.kind != MD_V_NUMBER)
                return;
        if (a->progress.done != o->check_mark_pos) {
                o->check_mark_pos = a->progress.done;
                o->check_mark_mismatches = a->mismatch_cnt.value;
        }
}

bool service_apply_checks(context *c) {
        uint64_t now = loop_now_usec();
        unsigned wday, minute;
        bool wrote = false;

        local_now(&wday, &minute);
        for (unsigned i = 0; i < c->arrays.n; i++) {
                const md_array *a = &c->arrays.arrays[i];
                array_object *o = context_object(c, a->name);
                const check_windows *w;
                check_record *r;
                check_view v;
                check_why why;
                bool pause_busy;

                if (!o || !a->uuid[0] || !md_array_has_redundancy(a))
                        continue;
                w = service_check_windows(c, a);
                r = check_book_find(&c->checks, a->uuid);
                pause_busy = policy_lookup(&c->cfg.policies, a->uuid, POLICY_CHECK_BUSY, NULL)->kind == POLICY_PAUSE;
                if (pause_busy)
                        sample_users(&c->cfg.profiles, a, o, now);
                v = (check_view){ .action = a->sync_action,
                                  .degraded = a->degraded.kind == MD_V_NUMBER ? (int64_t)a->degraded.value : -1,
                                  .windowed = w && w->n > 0,
                                  .window_open = !w || check_windows_open(w, wday, minute),
                                  .was = o->op_running ? o->op_action : MD_SYNC_IDLE,
                                  .repair_pauses = !c->repair_becomes_resync,
                                  .pause_when_busy = pause_busy,
                                  .users_busy = o->users_busy_since_usec &&
                                                now - o->users_busy_since_usec >= CHECK_BUSY_PAUSE_USEC,
                                  .users_quiet = o->users_quiet_since_usec &&
                                                 now - o->users_quiet_since_usec >= CHECK_QUIET_RESUME_USEC,
                                  .have_record = r != NULL,
                                  .record = r };
                switch (check_decide(&v, &why)) {
                case CHECK_STEP_PAUSE:
                        wrote = pause_check(c, a, o, r, why) || wrote;
                        break;
                case CHECK_STEP_RESUME:
                        wrote = resume_check(c, a, o, r) || wrote;
                        break;
                case CHECK_STEP_NOTE:
                        note_check(c, a, o, r, why);
                        break;
                case CHECK_STEP_FORGET:
                        forget_check(c, a, r);
                        break;
                case CHECK_STEP_KEEP:
                        keep_check(c, a, o);
                        break;
                default:
                        break;
                }
                mark_progress(a, o);
        }
        return wrote;
}

bool service_checks_waiting(const context *c) {
        for (unsigned i = 0; i < c->checks.n; i++)
                if (c->checks.records[i].why != CHECK_WHY_NONE)
                        return true;
        return false;
}
