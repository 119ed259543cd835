/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit.h"
#include "auth.h"
#include "errors.h"
#include "log.h"
#include "meminfo.h"
#include "profiles.h"
#include "restore.h"
#include "service.h"
#include "syncmax.h"

int service_refresh(context *c) {
        md_globals g;
        uint64_t mem;
        int r;

        r = md_read_arrays(&c->root, &c->arrays);
        if (r < 0)
                return r;
        if (md_read_globals(&c->root, &g) == 0)
                c->globals = g;
        /* Without <root>/proc/meminfo the budget is 0: no stripe cache growth. */
        c->mem_total = meminfo_read_total(&c->root, &mem) == 0 ? mem : 0;
        return 0;
}

int service_save_journal(context *c) {
        int r = journal_save(c->state_fd, &c->journal);

        if (r < 0 && !c->journal_problem[0]) {
                snprintf(c->journal_problem, sizeof(c->journal_problem),
                         "Could not write %s/%s (%s), so it may be behind what the service has done; the "
                         "service tries again on every poll.",
                         c->state_dir, JOURNAL_FILE, strerror(-r));
                log_error("could not write %s/%s: %s; retrying on every poll until it works", c->state_dir,
                          JOURNAL_FILE, strerror(-r));
        } else if (r == 0 && c->journal_problem[0]) {
                c->journal_problem[0] = 0;
                log_notice("%s/%s is written again and matches what the service did", c->state_dir, JOURNAL_FILE);
        }
        return r;
}

/* The slot of @uuid's watch, whichever boost it was for; NULL when there is none. */
static boost_watch *watch_slot(context *c, const char *uuid) {
        for (unsigned i = 0; i < c->n_watches; i++)
                if (strcmp(c->watches[i].uuid, uuid) == 0)
                        return &c->watches[i];
        return NULL;
}

/*
 * A watch belongs to one boost, known by its journal entry's start: one an
 * earlier boost of the array left (restored since) is not this boost's.
 */
boost_watch *service_find_watch(context *c, const char *uuid) {
        const journal_entry *e = journal_find(&c->journal, uuid);
        boost_watch *w = watch_slot(c, uuid);

        return e && w && w->since_usec == e->since_usec ? w : NULL;
}

boost_watch *service_watch(context *c, const char *uuid) {
        const journal_entry *e = journal_find(&c->journal, uuid);
        boost_watch *w, *n;

        if (!e)
                return NULL;
        w = watch_slot(c, uuid);
        if (!w) {
                n = realloc(c->watches, (c->n_watches + 1) * sizeof(*n));
                if (!n)
                        return NULL;
                c->watches = n;
                w = &c->watches[c->n_watches++];
        } else if (w->since_usec == e->since_usec)
                return w;
        *w = (boost_watch){ .since_usec = e->since_usec };
        snprintf(w->uuid, sizeof(w->uuid), "%s", uuid);
        return w;
}

void service_prune_watches(context *c) {
        unsigned k = 0;

        for (unsigned i = 0; i < c->n_watches; i++)
                if (journal_find(&c->journal, c->watches[i].uuid))
                        c->watches[k++] = c->watches[i];
        c->n_watches = k;
        if (k == 0) {
                free(c->watches);
                c->watches = NULL;
        }
}

void service_retry_journal(context *c) {
        if (c->journal_problem[0])
                (void)service_save_journal(c);
}

void service_tval_text(const md_tval *v, char *buf, size_t size) {
        if (md_tval_format(v, buf, size) < 0)
                snprintf(buf, size, "?");
}

/* service_refresh() for a method: its failure said in @res. */
static int refresh(context *c, op_result *res) {
        int r = service_refresh(c);

        if (r < 0)
                snprintf(res->message, sizeof(res->message), "Could not read the md arrays: %s.", strerror(-r));
        return r;
}

static const md_array *find_array(context *c, const char *spec, op_result *res) {
        const md_array *a = md_array_set_find(&c->arrays, spec);

        if (!a)
                snprintf(res->message, sizeof(res->message),
                         "No md array is called '%.64s' (give a kernel name such as md0, /dev/md0 or the UUID).", spec);
        else
                snprintf(res->array, sizeof(res->array), "%s", a->name);
        return a;
}

/* True when @t of @a reads as @want now. */
static bool reads_as(context *c, const md_array *a, md_tunable t, const md_tval *want) {
        md_tval now;

        return md_tunable_read(&c->root, a->name, t, &now) == 0 && journal_tval_equal(&now, want);
}

/*
 * Puts back items [0, n) in reverse order. A value that already reads as its
 * original (a refused write changed nothing) is left alone; one that cannot
 * be put back is marked in @kept, so its original stays in the journal.
 */
static void rollback(context *c, const md_array *a, const plan *p, unsigned n, bool kept[]) {
        while (n-- > 0) {
                const plan_item *it = &p->items[n];
                char text[PLAN_TEXT_MAX];
                md_tval back;
                int r;

                if (reads_as(c, a, it->tunable, &it->old))
                        continue;
                r = md_tunable_restore_text(it->tunable, &it->old, text, sizeof(text));
                if (r == 0)
                        r = md_tunable_write(&c->root, a->name, it->tunable, text, &back);
                if (r < 0 && !reads_as(c, a, it->tunable, &it->old)) {
                        kept[n] = true;
                        log_error("could not put %s of %s back to '%s': %s; the journal keeps the original",
                                  md_tunable_get(it->tunable)->name, a->name, text, strerror(-r));
                }
        }
}

static void entry_start(const md_array *a, const journal_entry *old, profile pr, journal_entry *ret) {
        if (old) {
                *ret = *old;
        } else {
                *ret = (journal_entry){ .since_usec = loop_realtime_usec() };
                for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                        ret->originals[t] = ret->written[t] = ret->earlier[t] = (md_tval){ .kind = MD_V_ABSENT };
                snprintf(ret->uuid, sizeof(ret->uuid), "%s", a->uuid);
                snprintf(ret->operation, sizeof(ret->operation), "%s",
                         md_sync_action_to_string(a->sync_action) ?: "idle");
        }
        snprintf(ret->array, sizeof(ret->array), "%s", a->name);
        snprintf(ret->profile, sizeof(ret->profile), "%s", profile_to_string(pr));
}

static void changes_from_plan(const plan *p, op_result *res) {
        res->n_changes = p->n;
        for (unsigned i = 0; i < p->n; i++) {
                change *ch = &res->changes[i];
                ch->name = md_tunable_get(p->items[i].tunable)->name;
                service_tval_text(&p->items[i].old, ch->old, sizeof(ch->old));
                snprintf(ch->new_text, sizeof(ch->new_text), "%s", p->items[i].text);
        }
        res->n_held = p->n_held;
        for (unsigned i = 0; i < p->n_held; i++) {
                res->held[i].name = md_tunable_get(p->held[i].tunable)->name;
                snprintf(res->held[i].why, sizeof(res->held[i].why), "%s", p->held[i].why);
        }
}

/* After a failed write: keep in the journal only what could not be put back. */
static int boost_undo_journal(context *c, const journal_entry *before, journal_entry *e, const plan *p,
                              const bool kept[]) {
        bool any = false;

        for (unsigned i = 0; i < p->n; i++) {
                md_tunable t = p->items[i].tunable;
                if (kept[i]) {
                        any = true;
                        continue;
                }
                e->originals[t] = before ? before->originals[t] : (md_tval){ .kind = MD_V_ABSENT };
                e->written[t] = before ? before->written[t] : (md_tval){ .kind = MD_V_ABSENT };
        }
        if (before && !any)
                *e = *before;
        if (before || any)
                journal_put(&c->journal, e);
        else
                journal_remove(&c->journal, e->uuid);
        return service_save_journal(c);
}

/* The reply to a boost whose write @failed was refused: what went back, and what could not. */
static void describe_rollback(const md_array *a, const plan *p, unsigned failed, int r, const bool kept[],
                              op_result *res) {
        size_t len, n_kept = 0;

        len = (size_t)snprintf(res->message, sizeof(res->message), "The kernel refused %s = '%s' on %s (%s); ",
                               md_tunable_get(p->items[failed].tunable)->name, p->items[failed].text, a->name,
                               strerror(-r));
        for (unsigned i = 0; i <= failed && len < sizeof(res->message); i++) {
                if (!kept[i])
                        continue;
                len += (size_t)snprintf(res->message + len, sizeof(res->message) - len, "%s%s",
                                        n_kept++ ? ", " : "could not put back ",
                                        md_tunable_get(p->items[i].tunable)->name);
        }
        if (len >= sizeof(res->message))
                return;
        if (n_kept == 0)
                snprintf(res->message + len, sizeof(res->message) - len,
                         "every value this call had written was put back.");
        else
                snprintf(res->message + len, sizeof(res->message) - len,
                         "; the journal keeps %s original%s, so Restore can try again. Everything else this "
                         "call had written was put back.",
                         n_kept == 1 ? "its" : "their", n_kept == 1 ? "" : "s");
}

static int boost_write(context *c, const md_array *a, const journal_entry *before, journal_entry *e, const plan *p,
                       op_result *res) {
        bool kept[_MD_T_ARRAY_MAX] = {};
        int r;

        for (unsigned i = 0; i < p->n; i++) {
                const plan_item *it = &p->items[i];
                md_tval back;

                r = md_tunable_write(&c->root, a->name, it->tunable, it->text, &back);
                if (r < 0) {
                        log_warning("boost of %s failed writing %s = '%s': %s; putting back what was written", a->name,
                                    md_tunable_get(it->tunable)->name, it->text, strerror(-r));
                        /*
                         * Items [0, i) were written. The refused one usually changed
                         * nothing, but a value the kernel took and then reads back
                         * otherwise (clamped, or raced) must go back too.
                         */
                        rollback(c, a, p, i + 1, kept);
                        boost_undo_journal(c, before, e, p, kept);
                        describe_rollback(a, p, i, r, kept, res);
                        return r;
                }
                e->written[it->tunable] = back;
        }
        return 0;
}

/* Reads, resolves and validates: the plan of writes, or why there is none. */
static int boost_plan(context *c, const char *spec, const char *profile_name, const boost_options *o, op_result *res,
                      const md_array **ret_array, profile *ret_profile, plan *ret_plan) {
        char errbuf[512];
        const md_array *a;
        plan_input in;
        profile pr;
        int r;

        r = refresh(c, res);
        if (r < 0)
                return r;
        pr = profile_from_string(profile_name);
        if (pr < 0) {
                snprintf(res->message, sizeof(res->message),
                         "Unknown profile '%.32s'; the profiles are 'fast' and 'max'.", profile_name);
                return -EINVAL;
        }
        if ((o->users_share || o->users_latency_ms) && pr != PROFILE_FAST) {
                snprintf(res->message, sizeof(res->message),
                         "Option %s is a target of the fast profile's governor; max never yields to the users.",
                         o->users_share ? "users_share" : "users_latency_ms");
                return -EINVAL;
        }
        if ((o->users_share || o->users_latency_ms) &&
            (c->cfg.profiles.fit_percent == 0 || !c->cfg.profiles.hold_ceiling)) {
                snprintf(res->message, sizeof(res->message),
                         "Option %s needs the governor, which the configuration turns off "
                         "(fast_floor_fit_percent = 0 or fast_ceiling_hold = 0).",
                         o->users_share ? "users_share" : "users_latency_ms");
                return -EINVAL;
        }
        a = find_array(c, spec, res);
        if (!a)
                return -ENOENT;
        /* md may have ended the operation since the policy looked: then there is nothing to boost. */
        if (o->while_running && (a->sync_action <= MD_SYNC_IDLE || a->sync_action == MD_SYNC_FROZEN)) {
                snprintf(res->message, sizeof(res->message), "The operation on %s ended before the boost.", a->name);
                return -EBUSY;
        }
        in = (plan_input){ .array = a,
                           .settings = &c->cfg.profiles,
                           .budget_bytes = profile_budget_for(&c->cfg.profiles, c->mem_total, &c->arrays, a) };
        /* Only a numeric sync_max asks who drives the array. */
        if (a->tunables[MD_T_SYNC_MAX].kind == MD_V_NUMBER)
                in.mdadm = syncmax_mdadm_running(&c->root);
        r = profile_plan(&in, pr, o, ret_plan, errbuf, sizeof(errbuf));
        if (r < 0) {
                snprintf(res->message, sizeof(res->message), "%s", errbuf);
                return r;
        }
        if (!a->uuid[0]) {
                snprintf(res->message, sizeof(res->message),
                         "%s has no UUID (no superblock), so a boost could not be restored after a restart.", a->name);
                return -EOPNOTSUPP;
        }
        *ret_array = a;
        *ret_profile = pr;
        return 0;
}

/*
 * Originals first: saves the entry with every value about to be overwritten
 * before anything is written. @before gets the previous entry, if any.
 */
static int boost_save_originals(context *c, const md_array *a, profile pr, const plan *p, journal_entry *before,
                                bool *had_before, journal_entry *e, op_result *res) {
        const journal_entry *old = journal_find(&c->journal, a->uuid);
        int r;

        *had_before = old != NULL;
        if (old)
                *before = *old;
        entry_start(a, *had_before ? before : NULL, pr, e);
        /*
         * A value an earlier boost wrote is about to be replaced: until the
         * kernel's answer is saved, the entry claims the tunable whole, as a
         * first boost does, so a crash in between restores the original
         * instead of taking the new value for an administrator's.
         */
        for (unsigned i = 0; i < p->n; i++) {
                md_tunable t = p->items[i].tunable;

                if (e->originals[t].kind == MD_V_ABSENT)
                        e->originals[t] = p->items[i].old;
                else
                        e->written[t] = (md_tval){ .kind = MD_V_ABSENT };
        }
        r = journal_put(&c->journal, e);
        if (r == 0)
                r = service_save_journal(c);
        if (r < 0) {
                if (*had_before)
                        journal_put(&c->journal, before);
                else
                        journal_remove(&c->journal, e->uuid);
                snprintf(res->message, sizeof(res->message),
                         "Could not save the originals in %s (%s); nothing was written.", c->state_dir, strerror(-r));
        }
        return r;
}

/*
 * The stripe cache the boost of @p leaves on @a by its own choice, the
 * governor's least: 0 for one an option named. A boost of an array whose
 * governor grew the cache keeps the least the earlier boost of @e had.
 */
static unsigned boost_cache_low(const md_array *a, const journal_entry *e, const boost_options *o, const plan *p) {
        const md_tunable t = MD_T_STRIPE_CACHE_SIZE;
        unsigned low = 0;

        if (o->set[t])
                return 0;
        for (unsigned i = 0; i < p->n; i++)
                if (p->items[i].tunable == t)
                        low = (unsigned)p->items[i].value;
        if (!low && md_tval_has_number(&a->tunables[t]))
                low = (unsigned)a->tunables[t].value;
        return e->cache_low && e->cache_low < low ? e->cache_low : low;
}

/*
 * Whether this boost's floor is fitted later: only a floor `fast` chose
 * itself. A boost that writes the floor another way ends an earlier fit; one
 * that leaves the floor alone leaves the fit as it was.
 */

static void boost_set_fit(context *c, const md_array *a, profile pr, const boost_options *o, const plan *p,
                          journal_entry *e) {
        bool writes_floor = false, restart;

        for (unsigned i = 0; i < p->n; i++)
                writes_floor = writes_floor || p->items[i].tunable == MD_T_SYNC_SPEED_MIN;
        e->fit = governor_on_boost(&c->cfg.profiles, e->fit, pr == PROFILE_FAST, writes_floor,
                                   o->set[MD_T_SYNC_SPEED_MIN], &restart);
        if (o->users_share || o->users_latency_ms || writes_floor) {
                e->users_share = o->users_share;
                e->users_latency_ms = o->users_latency_ms;
        }
        if (restart)
                e->cache_low = e->fit == GOVERNOR_FITTING ? boost_cache_low(a, e, o, p) : 0;
        else if (o->set[MD_T_STRIPE_CACHE_SIZE])
                e->cache_low = 0;
        if (restart) {
                boost_watch *w = service_find_watch(c, e->uuid);

                if (w)
                        w->governor = (governor_clock){};
        }
}

int service_boost(context *c, const char *spec, const char *profile_name, const boost_options *o,
                  const struct caller *who, op_result *res) {
        journal_entry before, e;
        const md_array *a;
        bool had_before;
        profile pr;
        plan p;
        int r;

        r = boost_plan(c, spec, profile_name, o, res, &a, &pr, &p);
        if (r < 0)
                return r;
        changes_from_plan(&p, res);
        if (o->dry_run)
                return 0;
        for (unsigned i = 0; i < res->n_held; i++)
                log_notice("boost of %s leaves %s alone: %s", a->name, res->held[i].name, res->held[i].why);

        r = boost_save_originals(c, a, pr, &p, &before, &had_before, &e, res);
        if (r < 0)
                return r;
        boost_set_fit(c, a, pr, o, &p, &e);
        /* Whose boost it is now: a policy's, or an administrator's (even on top of a policy's). */
        snprintf(e.policy, sizeof(e.policy), "%s", who && who->automatic ? who->policy_word : "");
        r = boost_write(c, a, had_before ? &before : NULL, &e, &p, res);
        if (r < 0) {
                audit_log(who, "boost-failed", a->name, a->uuid, profile_to_string(pr), NULL, 0);
                return r;
        }
        journal_put(&c->journal, &e);
        service_save_journal(c);
        audit_log(who, "boost", a->name, a->uuid, profile_to_string(pr), res->changes, res->n_changes);
        return 0;
}

/* The most tunables one of the governor's decisions writes: floor, ceiling, and sync_io_depth or stripe_cache_size. */
#define GOVERNED_MAX 4

/*
 * Later writes of a boost (the fit, a hold, a rate, a lift): @e already
 * holds the new state, which the journal records before the kernel gets
 * any of @n values, so a crash in between leaves values the journal counts
 * as the boost's. When a write fails, it and the ones made before it are put
 * back and @e goes back to @saved and stops following: nothing is half-done.
 */
static int write_ahead(context *c, const md_array *a, journal_entry *e, const journal_entry *saved,
                       const md_tunable *ts, char (*texts)[64], unsigned n) {
        md_tval back[GOVERNED_MAX];
        unsigned done = 0;
        int r;

        r = service_save_journal(c);
        for (; r == 0 && done < n; done++)
                r = md_tunable_write(&c->root, a->name, ts[done], texts[done], &back[done]);
        if (r < 0) {
                /*
                 * The one that failed too, unless it reads as before: md grows
                 * its stripe cache a stripe at a time, and when memory runs out
                 * it keeps those it got and answers ENOMEM.
                 */
                while (done-- > 0) {
                        char old[64];
                        md_tval ignored;

                        if (reads_as(c, a, ts[done], &a->tunables[ts[done]]))
                                continue;
                        (void)md_tunable_restore_text(ts[done], &a->tunables[ts[done]], old, sizeof(old));
                        if (md_tunable_write(&c->root, a->name, ts[done], old, &ignored) < 0)
                                log_warning("%s: could not put %s back to %s", a->name, md_tunable_get(ts[done])->name,
                                            old);
                }
                *e = *saved;
                e->fit = GOVERNOR_DONE;
                (void)service_save_journal(c);
                return r;
        }
        for (unsigned i = 0; i < n; i++)
                e->written[ts[i]] = back[i];
        return 0;
}

static void log_kept_floor(const md_array *a, const journal_entry *e, const governor_decision *d) {
        char from[64];

        service_tval_text(&e->written[MD_T_SYNC_SPEED_MIN], from, sizeof(from));
        if (d->changed_by_admin)
                log_info("%s: sync_speed_min changed since the boost; it is left as it is", a->name);
        else
                log_info("%s: the rebuild ran at %" PRIu64 " KiB/s under the floor; %s stays", a->name, d->speed, from);
}

static void log_governed(const context *c, const md_array *a, const journal_entry *e, const governor_decision *d,
                         const change *chs, unsigned n) {
        const change *ch = &chs[governor_writes_ceiling(d->action) && governor_writes_floor(d->action) ? 1 : 0];
        char cache[sizeof(chs[0].old) + sizeof(chs[0].new_text) + 32] = "";

        if (governor_writes_cache(d)) /* the last of the step's writes */
                snprintf(cache, sizeof(cache), ", its stripe cache from %s to %s", chs[n - 1].old, chs[n - 1].new_text);

        switch (d->action) {
        case GOVERNOR_FIT:
                log_info("%s: the rebuild ran at %" PRIu64 " KiB/s under the floor; lowering it from %s to %s KiB/s "
                         "(%u %%), so the array's users get the rest",
                         a->name, d->speed, ch->old, ch->new_text, c->cfg.profiles.fit_percent);
                break;
        case GOVERNOR_LEARN:
                log_info("%s: the array's users are busy; the rebuild is held back to %s KiB/s for %" PRIu64
                         " to %" PRIu64 " s to measure what they get alone (sync_speed_min and sync_speed_max %s)",
                         a->name, ch->new_text, c->cfg.profiles.learn_ms / 1000,
                         governor_hold_max_ms(&c->cfg.profiles) / 1000, ch->new_text);
                break;
        case GOVERNOR_STEER:
                if (d->bound_ms && d->latency_us)
                        log_info("%s: the users' requests take about %" PRIu64 " ms at the 99th percentile (%s), "
                                 "the bound is %u ms; the rebuild's ceiling goes from %s to %s KiB/s%s%s",
                                 a->name, d->latency_us / 1000, governor_latency_basis(d->latency_slowest), d->bound_ms,
                                 ch->old, ch->new_text, n == 3 ? ", sync_io_depth " : "",
                                 n == 3 ? chs[2].new_text : "");
                else if (d->bound_ms)
                        log_info("%s: the array's users are busy; the rebuild runs at up to %s KiB/s%s%s while their "
                                 "latency is measured against the bound of %u ms",
                                 a->name, ch->new_text, n == 3 ? ", sync_io_depth " : "", n == 3 ? chs[2].new_text : "",
                                 d->bound_ms);
                else
                        log_info("%s: the users get %" PRIu64 " KiB/s of the %" PRIu64 " KiB/s they get alone, their "
                                 "share is %u %% (%" PRIu64 " KiB/s); the rebuild's rate goes from %s to %s KiB/s%s",
                                 a->name, d->users_kibs, d->baseline_kibs,
                                 e->users_share ? e->users_share : c->cfg.profiles.users_share, d->target_kibs, ch->old,
                                 ch->new_text, cache);
                break;
        default:
                log_info("%s: the array's users have been quiet for %" PRIu64 " s; the rebuild may run faster "
                         "again (sync_speed_max %s -> %s)",
                         a->name, c->cfg.profiles.quiet_ms / 1000, ch->old, ch->new_text);
                break;
        }
}

static const char *const governed_audit[_GOVERNOR_ACTION_MAX] = {
        [GOVERNOR_FIT] = "fit",
        [GOVERNOR_LEARN] = "learn",
        [GOVERNOR_STEER] = "steer",
        [GOVERNOR_LIFT] = "lift",
};

/*
 * Pacing: floor and ceiling to @d's value every poll or so. The journal is
 * not saved: the value is within the band it holds, which counts as the
 * boost's own for Restore and for the governor. A write that fails ends the
 * governor and leaves the limits as they are (still the boost's own).
 */
static bool pace_write(context *c, const md_array *a, journal_entry *e, const governor_decision *d) {
        static const md_tunable ts[] = { MD_T_SYNC_SPEED_MIN, MD_T_SYNC_SPEED_MAX };
        char text[64];
        md_tval back;
        int r = 0;

        if (e->pace_high == 0 || d->value.value < e->pace_low || d->value.value > e->pace_high ||
            md_tunable_restore_text(MD_T_SYNC_SPEED_MIN, &d->value, text, sizeof(text)) < 0)
                return false;
        for (size_t i = 0; r == 0 && i < sizeof(ts) / sizeof(ts[0]); i++)
                r = md_tunable_write(&c->root, a->name, ts[i], text, &back);
        if (r >= 0)
                return false;
        log_warning("%s: could not write the governor's paced rate %s KiB/s: %s; the governor stops and the limits "
                    "stay as they are",
                    a->name, text, strerror(-r));
        e->fit = GOVERNOR_DONE;
        return true;
}

bool service_govern(context *c, const md_array *a, journal_entry *e, const governor_decision *d) {
        const journal_entry saved = *e;
        md_tunable ts[GOVERNED_MAX];
        char texts[GOVERNED_MAX][64];
        change chs[GOVERNED_MAX];
        unsigned n = 0;
        int r;

        if (d->minute_holds)
                log_info("%s: over their last minute, every step counted, the users got %" PRIu64
                         " KiB/s, no more than a fifth above their share (%" PRIu64
                         " KiB/s); the rebuild gets no more until that minute too leaves them more than a fifth "
                         "above it",
                         a->name, d->minute_kibs, d->target_kibs);
        switch (d->action) {
        case GOVERNOR_WAIT:
                return false;
        case GOVERNOR_KEEP:
                log_kept_floor(a, e, d);
                e->fit = d->next;
                return true;
        case GOVERNOR_STOP:
                log_info("%s: sync_speed_min, sync_speed_max or sync_io_depth changed since the boost; the governor "
                         "leaves them as they are",
                         a->name);
                e->fit = d->next;
                return true;
        case GOVERNOR_PACE:
                return pace_write(c, a, e, d);
        default:
                break;
        }
        if (governor_writes_floor(d->action))
                ts[n++] = MD_T_SYNC_SPEED_MIN;
        if (governor_writes_ceiling(d->action))
                ts[n++] = MD_T_SYNC_SPEED_MAX;
        if (governor_writes_depth(d))
                ts[n++] = MD_T_SYNC_IO_DEPTH;
        if (governor_writes_cache(d))
                ts[n++] = MD_T_STRIPE_CACHE_SIZE;
        for (unsigned i = 0; i < n; i++) {
                const md_tunable t = ts[i];
                const md_tval *value = t == MD_T_SYNC_IO_DEPTH                                 ? &d->depth
                                       : t == MD_T_STRIPE_CACHE_SIZE                           ? &d->cache
                                       : t == MD_T_SYNC_SPEED_MIN && d->action != GOVERNOR_FIT ? &d->floor
                                                                                               : &d->value;

                chs[i] = (change){ .name = md_tunable_get(t)->name };
                /*
                 * The value the kernel has now: the boost's own, as the
                 * governor checked; while paced, the rate it paces to.
                 */
                service_tval_text(d->action == GOVERNOR_FIT ||
                                                  (saved.pace_high && journal_entry_wrote(&saved, t, &a->tunables[t]))
                                          ? &e->written[t]
                                          : &a->tunables[t],
                                  chs[i].old, sizeof(chs[i].old));
                /* A number or "system"; a decision without a value for a tunable it writes writes nothing. */
                if (md_tunable_restore_text(t, value, texts[i], sizeof(texts[i])) < 0) {
                        log_warning("%s: the governor has no value to write to %s; it stops and the limits stay as "
                                    "they are",
                                    a->name, chs[i].name);
                        *e = saved;
                        e->fit = GOVERNOR_DONE;
                        return true;
                }
                snprintf(chs[i].new_text, sizeof(chs[i].new_text), "%s", texts[i]);
                if (e->originals[t].kind == MD_V_ABSENT)
                        e->originals[t] = a->tunables[t];
                e->earlier[t] = t == MD_T_SYNC_IO_DEPTH                                 ? d->replaced_depth
                                : t == MD_T_STRIPE_CACHE_SIZE                           ? d->replaced_cache
                                : t == MD_T_SYNC_SPEED_MIN && d->action != GOVERNOR_FIT ? d->replaced_floor
                                                                                        : d->replaced;
                e->written[t] = *value;
        }
        if (e->lift_ceiling.kind == MD_V_ABSENT && d->lift.kind != MD_V_ABSENT)
                e->lift_ceiling = d->lift;
        e->fit = d->next;
        /* A floor paced last stays while the ceiling is lifted: its band with it. */
        if (d->pace_high || governor_writes_floor(d->action)) {
                e->pace_low = d->pace_low;
                e->pace_high = d->pace_high;
        }
        r = write_ahead(c, a, e, &saved, ts, texts, n);
        if (r < 0) {
                log_warning("%s: could not write the governor's %s: %s; the governor stops and the limits stay as "
                            "they were",
                            a->name, n == 1 ? chs[0].name : "limits", strerror(-r));
                return true;
        }
        log_governed(c, a, e, d, chs, n);
        audit_log(NULL, governed_audit[d->action], a->name, a->uuid, e->profile, chs, n);
        return true;
}

/*
 * What an administrator changed after the boost, what it was before the
 * boost, and the command that puts that original back, for whoever wants
 * it back.
 */
static void describe_conflicts(const md_array *a, const journal_entry *e, const restore_plan *rp, op_result *res) {
        size_t len = (size_t)snprintf(res->message, sizeof(res->message), "On %s an administrator changed", a->name);

        for (unsigned i = 0; i < rp->n_conflicts && len < sizeof(res->message); i++) {
                const restore_conflict *k = &rp->conflicts[i];
                char w[64], now[64], orig[64];

                service_tval_text(&k->written, w, sizeof(w));
                service_tval_text(&k->current, now, sizeof(now));
                service_tval_text(&e->originals[k->tunable], orig, sizeof(orig));
                len += (size_t)snprintf(res->message + len, sizeof(res->message) - len,
                                        "%s %s (the boost set '%s', it is now '%s', before the boost it was '%s')",
                                        i ? "," : "", md_tunable_get(k->tunable)->name, w, now, orig);
        }
        if (len < sizeof(res->message))
                len += (size_t)snprintf(res->message + len, sizeof(res->message) - len,
                                        " after the boost; those were left alone, everything else was restored. "
                                        "To put back the original:");
        for (unsigned i = 0; i < rp->n_conflicts && len < sizeof(res->message); i++) {
                const md_tunable_info *info = md_tunable_get(rp->conflicts[i].tunable);
                char text[64];

                if (md_tunable_restore_text(rp->conflicts[i].tunable, &e->originals[rp->conflicts[i].tunable], text,
                                            sizeof(text)) < 0)
                        continue;
                if (info->scope == MD_SCOPE_ARRAY)
                        len += (size_t)snprintf(res->message + len, sizeof(res->message) - len,
                                                "%s echo %s > /sys/block/%s/%s", i ? ";" : "", text, a->name,
                                                info->path);
                else
                        len += (size_t)snprintf(res->message + len, sizeof(res->message) - len, "%s echo %s > /%s",
                                                i ? ";" : "", text, info->path);
        }
        res->complete = true; /* it says what to do itself */
}

/*
 * Writes the planned originals back, going on past a refusal so the others
 * are restored. Each value put back leaves @e; a refused one stays in it.
 * Returns the first refusal's error, or 0.
 */
static int restore_writes(context *c, const md_array *a, const restore_plan *rp, journal_entry *e, op_result *res) {
        int failed = 0;

        for (unsigned i = 0; i < rp->n_writes; i++) {
                const restore_write *w = &rp->writes[i];
                const char *name = md_tunable_get(w->tunable)->name;
                md_tval back;
                change *ch;
                int r;

                r = md_tunable_write(&c->root, a->name, w->tunable, w->text, &back);
                if (r < 0) {
                        log_error("could not restore %s of %s to '%s': %s", name, a->name, w->text, strerror(-r));
                        if (failed)
                                continue;
                        failed = r;
                        snprintf(res->message, sizeof(res->message),
                                 "The kernel refused %s = '%s' on %s (%s). Every other value was put back; "
                                 "the journal keeps this one's original and %s stays boosted: call Restore "
                                 "again later (for EBUSY, once the running operation has ended).",
                                 name, w->text, a->name, strerror(-r), a->name);
                        res->complete = true;
                        continue;
                }
                ch = &res->changes[res->n_changes++];
                ch->name = name;
                service_tval_text(&w->current, ch->old, sizeof(ch->old));
                snprintf(ch->new_text, sizeof(ch->new_text), "%s", w->text);
                e->originals[w->tunable] = e->written[w->tunable] = (md_tval){ .kind = MD_V_ABSENT };
        }
        return failed;
}

int service_restore_array(context *c, const md_array *a, const struct caller *who, const char *why, op_result *res) {
        journal_entry *found = journal_find(&c->journal, a->uuid);
        journal_entry e;
        restore_plan rp;
        md_sync_action op;
        bool over, forgot = false;
        int r;

        snprintf(res->array, sizeof(res->array), "%s", a->name);
        if (!a->uuid[0] || !found)
                return 0;
        e = *found;
        /* An administrator who ends a boost while its operation runs wins over any policy for that operation. */
        if (who && !who->automatic && a->sync_action != MD_SYNC_IDLE && context_object(c, a->name))
                context_object(c, a->name)->policy_declined = true;
        /* An entry boosted while idle names the operation once one has started. */
        over = strcmp(e.operation, "idle") != 0 && a->sync_action == MD_SYNC_IDLE;
        if (over && md_parse_sync_action(e.operation, strlen(e.operation), &op) == 0)
                forgot = md_operation_completed(a, op);
        r = restore_plan_compute(&e, a->tunables, forgot, &rp);
        if (r < 0) {
                snprintf(res->message, sizeof(res->message), "The journal entry of %s is damaged; nothing was written.",
                         a->name);
                return r;
        }
        restore_plan_wait_below(&rp, &e, MD_T_STRIPE_CACHE_SIZE, profile_stripe_cache_reshape_min(a));
        r = restore_writes(c, a, &rp, &e, res);
        for (unsigned i = 0; i < rp.n_waits; i++) {
                const restore_wait *w = &rp.waits[i];
                char orig[PLAN_TEXT_MAX], now[PLAN_TEXT_MAX];

                service_tval_text(&e.originals[w->tunable], orig, sizeof(orig));
                service_tval_text(&a->tunables[w->tunable], now, sizeof(now));
                log_notice("restore of %s leaves %s at %s until the reshape ends: it needs at least %" PRIu64
                           " stripes (four chunks), and the original %s would stall it",
                           a->name, md_tunable_get(w->tunable)->name, now, w->need, orig);
                if (r < 0)
                        continue;
                r = -EBUSY;
                snprintf(res->message, sizeof(res->message),
                         "Every other value was put back, but %s stays %s until the reshape of %s ends: the "
                         "reshape needs at least %" PRIu64 " stripes (four chunks) and the original %s would "
                         "stall it. The journal keeps the original, and the service puts it back by itself "
                         "when the reshape is over.",
                         md_tunable_get(w->tunable)->name, now, a->name, w->need, orig);
                res->complete = true;
        }
        for (unsigned i = 0; i < rp.n_forgotten; i++) {
                md_tunable t = rp.forgotten[i];
                char orig[PLAN_TEXT_MAX];

                service_tval_text(&e.originals[t], orig, sizeof(orig));
                log_notice("restore of %s leaves %s as the kernel left it: its original '%s' held an operation "
                           "that is over, and would stop the next one at that sector",
                           a->name, md_tunable_get(t)->name, orig);
                e.originals[t] = e.written[t] = (md_tval){ .kind = MD_V_ABSENT };
        }
        for (unsigned i = 0; i < rp.n_conflicts; i++)
                log_warning("restore of %s left %s alone: an administrator changed it after the boost", a->name,
                            md_tunable_get(rp.conflicts[i].tunable)->name);
        if (r < 0)
                journal_put(&c->journal, &e);
        else
                journal_remove(&c->journal, e.uuid);
        service_save_journal(c);
        audit_log(who, r < 0 ? "restore-partial" : "restore", a->name, a->uuid, why, res->changes, res->n_changes);
        if (r < 0)
                return r;
        if (rp.n_conflicts > 0) {
                describe_conflicts(a, &e, &rp, res);
                return -MDB_ECONFLICT;
        }
        return 0;
}

int service_restore(context *c, const char *spec, const struct caller *who, op_result *res) {
        const md_array *a;
        int r;

        r = refresh(c, res);
        if (r < 0)
                return r;
        a = find_array(c, spec, res);
        if (!a)
                return -ENOENT;
        /*
         * An empty success would read as "restored" to a caller who boosted
         * the wrong array, or whose boost the service already restored when
         * its operation ended; say which it is instead.
         */
        if (!a->uuid[0] || !journal_find(&c->journal, a->uuid)) {
                snprintf(res->array, sizeof(res->array), "%s", a->name);
                snprintf(res->message, sizeof(res->message),
                         "%s is not boosted: there is no boost to restore (one ends by itself when its operation "
                         "does).",
                         a->name);
                return -MDB_ENOTBOOSTED;
        }
        return service_restore_array(c, a, who, NULL, res);
}

/*
 * SetPolicy: @spec names an array (its own rule) or is "" (the default for
 * every array); @class_word "rebuild", "check" or "escalate"; @rule_word a
 * rule's words, or "default" to drop an array's own rule set over D-Bus.
 * The rules set over D-Bus are saved before they apply; a failed save
 * changes nothing.
 */
int service_set_policy(context *c, const char *spec, const char *class_word, const char *rule_word,
                       const struct caller *who, op_result *res) {
        policy_set dbus = c->dbus_policies, effective = c->config_policies;
        const md_array *a = NULL;
        policy_class k;
        policy_rule rule = {};
        bool drop = strcmp(rule_word, "default") == 0;
        char key[96], old[POLICY_RULE_TEXT_MAX], uuid[37] = "";
        change ch = {};
        int r;

        k = policy_class_from_string(class_word);
        if (k < 0) {
                snprintf(res->message, sizeof(res->message),
                         "Unknown rule '%.32s'; the rules are rebuild, check, escalate, check_window and check_busy.",
                         class_word);
                return -EINVAL;
        }
        if (!drop && policy_rule_parse(k, rule_word, &rule) < 0) {
                if (k == POLICY_CHECK_WINDOW)
                        snprintf(res->message, sizeof(res->message),
                                 "'%.64s' is no check window: give any, windows such as 'Mon-Fri 01:00-06:00, Sat,Sun "
                                 "00:00-08:00' (at most %u), or default (an array's own rule only).",
                                 rule_word, CHECK_WINDOWS_MAX);
                else if (k == POLICY_CHECK_BUSY)
                        snprintf(res->message, sizeof(res->message),
                                 "'%.32s' is no check_busy rule: give run, pause, or default (an array's own rule "
                                 "only).",
                                 rule_word);
                else
                        snprintf(res->message, sizeof(res->message),
                                 "'%.32s' is no policy: give none, fast, fast:N (N from 1 to 100), fast:Nms (N from 1 "
                                 "to 60000), max, or default (an array's own rule only).",
                                 rule_word);
                return -EINVAL;
        }
        if (*spec) {
                r = refresh(c, res);
                if (r < 0)
                        return r;
                a = find_array(c, spec, res);
                if (!a)
                        return -ENOENT;
                if (!a->uuid[0]) {
                        snprintf(res->message, sizeof(res->message),
                                 "%s has no UUID (no superblock), so a policy could not find it again.", a->name);
                        return -EOPNOTSUPP;
                }
                snprintf(uuid, sizeof(uuid), "%s", a->uuid);
        } else if (drop) {
                snprintf(res->message, sizeof(res->message),
                         "'default' drops an array's own rule; the default for every array is a rule itself.");
                return -EINVAL;
        }
        policy_rule_format(policy_lookup(&c->cfg.policies, *uuid ? uuid : NULL, k, NULL), old, sizeof(old));
        if (drop)
                policy_unset_rule(&dbus, uuid, k);
        else if (policy_set_rule(&dbus, *uuid ? uuid : NULL, k, &rule) < 0) {
                snprintf(res->message, sizeof(res->message),
                         "%u arrays have their own policy already; nothing changed.", POLICY_ARRAYS_MAX);
                return -ERANGE;
        }
        r = policy_overlay(&effective, &dbus);
        if (r < 0) {
                snprintf(res->message, sizeof(res->message),
                         "%u arrays have their own policy already; nothing changed.", POLICY_ARRAYS_MAX);
                return -ERANGE;
        }
        r = policy_file_save(c->policy_path, &dbus);
        if (r < 0) {
                snprintf(res->message, sizeof(res->message), "Could not save the policy in %s (%s); nothing changed.",
                         c->policy_path, strerror(-r));
                return -EIO; /* the file, not the array: Failed */
        }
        c->dbus_policies = dbus;
        c->cfg.policies = effective;
        snprintf(key, sizeof(key), "policy_%s%s%s", class_word, *uuid ? "." : "", uuid);
        ch.name = key;
        snprintf(ch.old, sizeof(ch.old), "%s", old);
        policy_rule_format(policy_lookup(&c->cfg.policies, *uuid ? uuid : NULL, k, NULL), ch.new_text,
                           sizeof(ch.new_text));
        snprintf(res->array, sizeof(res->array), "%s", a ? a->name : "all");
        audit_log(who, "policy", a ? a->name : "all", uuid, NULL, &ch, 1);
        return 0;
}
