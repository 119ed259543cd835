/* SPDX-License-Identifier: MIT */
/*
 * Persistent settings (settings.h): SetSettings, their writing again when
 * an array shows its originals, and RestoreAll's putting back. Every write
 * has the boost's shape: the originals saved first, the kernel's answer
 * saved after, what this call wrote put back when a write is refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "service.h"
#include "settings.h"

static int save(context *c) {
        if (c->settings_fd < 0) {
                int r = journal_open_dir(c->settings_dir, &c->settings_fd);

                if (r < 0)
                        return r;
        }
        return journal_save_file(c->settings_fd, SETTINGS_FILE, SETTINGS_SECTION, &c->settings);
}

/* Puts @e back as it was before a call (@had: there was one), and saves. */
static void put_back_entry(context *c, const journal_entry *before, bool had, const char *uuid) {
        if (had)
                journal_put(&c->settings, before);
        else
                journal_remove(&c->settings, uuid);
        if (save(c) < 0)
                log_warning("could not write %s/%s back as it was", c->settings_dir, SETTINGS_FILE);
}

/* One write of SetSettings: @t to @text, what it replaced in @prev; @drop: a setting taken away. */
typedef struct setting_write {
        md_tunable t;
        char text[PLAN_TEXT_MAX];
        md_tval prev;
        bool drop;
} setting_write;

/* Writes back, last first, what items [0, @n) of @w replaced. */
static void unwind(context *c, const md_array *a, const setting_write *w, unsigned n) {
        while (n-- > 0) {
                char text[PLAN_TEXT_MAX];
                md_tval back;

                if (md_tunable_restore_text(w[n].t, &w[n].prev, text, sizeof(text)) < 0 ||
                    md_tunable_write(&c->root, a->name, w[n].t, text, &back) < 0)
                        log_error("could not put %s of %s back to '%s'", md_tunable_get(w[n].t)->name, a->name, text);
        }
}

/* Refuses what SetSettings cannot take: @res says why. */
static int settings_check(context *c, const md_array *a, const boost_options *want, op_result *res) {
        if (want->users_share || want->users_latency_ms) {
                snprintf(res->message, sizeof(res->message),
                         "Settings are values of md's tunables; %s is a target of the fast profile's governor.",
                         want->users_share ? "users_share" : "users_latency_ms");
                return -EINVAL;
        }
        if (!a->uuid[0]) {
                snprintf(res->message, sizeof(res->message),
                         "%s has no UUID (no superblock), so its settings could not find it again.", a->name);
                return -EOPNOTSUPP;
        }
        if (journal_find(&c->journal, a->uuid)) {
                snprintf(res->message, sizeof(res->message),
                         "%s is boosted; change its settings once the boost has ended (Restore %s, or wait for its "
                         "operation to end), so that the boost puts back what it found. Nothing was written.",
                         a->name, a->name);
                res->complete = true;
                return -EBUSY;
        }
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                if (!want->set[t])
                        continue;
                if (a->tunables[t].kind == MD_V_ABSENT) {
                        snprintf(res->message, sizeof(res->message), "%s has no %s (a %s array). Nothing was written.",
                                 a->name, md_tunable_get(t)->name, md_level_to_string(a->level) ?: "different");
                        res->complete = true;
                        return -EINVAL;
                }
        }
        if (want->set[MD_T_STRIPE_CACHE_SIZE]) {
                uint64_t budget = profile_budget_for(&c->cfg.profiles, c->mem_total, &c->arrays, a);
                uint64_t bytes = want->value[MD_T_STRIPE_CACHE_SIZE] * 4096 * profile_cache_members(a);

                if (budget && bytes > budget) {
                        snprintf(res->message, sizeof(res->message),
                                 "A stripe_cache_size of %" PRIu64 " would pin %" PRIu64 " MiB of memory on %s; the "
                                 "budget leaves it %" PRIu64 " MiB (budget_percent). Nothing was written.",
                                 want->value[MD_T_STRIPE_CACHE_SIZE], bytes >> 20, a->name, budget >> 20);
                        res->complete = true;
                        return -ERANGE;
                }
        }
        return 0;
}

int service_set_settings(context *c, const char *spec, const boost_options *want, const struct caller *who,
                         op_result *res) {
        setting_write w[_MD_T_ARRAY_MAX];
        const journal_entry *found;
        journal_entry before = {}, e;
        const md_array *a;
        unsigned n = 0;
        bool had;
        int r;

        r = service_refresh(c);
        if (r < 0) {
                snprintf(res->message, sizeof(res->message), "Could not read the md arrays: %s.", strerror(-r));
                return r;
        }
        a = md_array_set_find(&c->arrays, spec);
        if (!a) {
                snprintf(res->message, sizeof(res->message),
                         "No md array is called '%.64s' (give a kernel name such as md0, /dev/md0 or the UUID).", spec);
                return -ENOENT;
        }
        snprintf(res->array, sizeof(res->array), "%s", a->name);
        r = settings_check(c, a, want, res);
        if (r < 0)
                return r;

        found = journal_find(&c->settings, a->uuid);
        had = found != NULL;
        if (had) {
                before = *found;
                e = before;
        } else {
                e = (journal_entry){ .since_usec = loop_realtime_usec(), .fit = GOVERNOR_OFF };
                for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                        e.originals[t] = e.written[t] = e.earlier[t] = (md_tval){ .kind = MD_V_ABSENT };
                snprintf(e.uuid, sizeof(e.uuid), "%s", a->uuid);
                snprintf(e.profile, sizeof(e.profile), SETTINGS_PROFILE);
                snprintf(e.operation, sizeof(e.operation), "always");
        }
        snprintf(e.array, sizeof(e.array), "%s", a->name);

        /* What to write: each value asked for; each setting taken away goes back to its original. */
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                setting_write *x = &w[n];

                if (want->set[t]) {
                        *x = (setting_write){ .t = t, .prev = a->tunables[t] };
                        snprintf(x->text, sizeof(x->text), "%" PRIu64, want->value[t]);
                        if (e.originals[t].kind == MD_V_ABSENT)
                                e.originals[t] = a->tunables[t];
                        /* Claimed whole until the kernel's answer is saved: a crash puts the original back. */
                        e.written[t] = (md_tval){ .kind = MD_V_ABSENT };
                        n++;
                } else if (e.originals[t].kind != MD_V_ABSENT) {
                        if (!journal_tval_equal(&a->tunables[t], &e.written[t])) {
                                char now[PLAN_TEXT_MAX];

                                /* An administrator's value since: it stays, the setting goes. */
                                service_tval_text(&a->tunables[t], now, sizeof(now));
                                log_notice("%s: %s reads %s, not what its setting wrote; it stays as it is", a->name,
                                           md_tunable_get(t)->name, now);
                                e.originals[t] = e.written[t] = (md_tval){ .kind = MD_V_ABSENT };
                                continue;
                        }
                        *x = (setting_write){ .t = t, .prev = a->tunables[t], .drop = true };
                        if (md_tunable_restore_text(t, &e.originals[t], x->text, sizeof(x->text)) < 0) {
                                snprintf(res->message, sizeof(res->message),
                                         "The saved original of %s on %s is damaged; nothing was written.",
                                         md_tunable_get(t)->name, a->name);
                                return -EINVAL;
                        }
                        n++;
                }
        }
        res->n_changes = n;
        for (unsigned i = 0; i < n; i++) {
                change *ch = &res->changes[i];

                ch->name = md_tunable_get(w[i].t)->name;
                service_tval_text(&w[i].prev, ch->old, sizeof(ch->old));
                snprintf(ch->new_text, sizeof(ch->new_text), "%s", w[i].text);
        }
        if (want->dry_run)
                return 0;

        /* The originals first. */
        r = journal_put(&c->settings, &e);
        if (r == 0)
                r = save(c);
        if (r < 0) {
                put_back_entry(c, &before, had, a->uuid);
                snprintf(res->message, sizeof(res->message),
                         "Could not save the originals in %s/%s (%s); nothing was written.", c->settings_dir,
                         SETTINGS_FILE, strerror(-r));
                return -EIO;
        }
        for (unsigned i = 0; i < n; i++) {
                md_tval back;

                r = md_tunable_write(&c->root, a->name, w[i].t, w[i].text, &back);
                if (r < 0) {
                        log_warning("settings of %s: the kernel refused %s = '%s': %s; putting back what was written",
                                    a->name, md_tunable_get(w[i].t)->name, w[i].text, strerror(-r));
                        unwind(c, a, w, i + 1);
                        put_back_entry(c, &before, had, a->uuid);
                        snprintf(res->message, sizeof(res->message),
                                 "The kernel refused %s = '%s' on %s (%s); every value this call had written was put "
                                 "back.",
                                 md_tunable_get(w[i].t)->name, w[i].text, a->name, strerror(-r));
                        return r;
                }
                if (w[i].drop)
                        e.originals[w[i].t] = e.written[w[i].t] = (md_tval){ .kind = MD_V_ABSENT };
                else
                        e.written[w[i].t] = back;
                service_tval_text(&back, res->changes[i].new_text, sizeof(res->changes[i].new_text));
        }
        if (settings_empty(&e))
                journal_remove(&c->settings, e.uuid);
        else
                journal_put(&c->settings, &e);
        if (save(c) < 0)
                log_warning("could not write %s/%s after the settings of %s; the kernel has them, and the file the "
                            "originals",
                            c->settings_dir, SETTINGS_FILE, a->name);
        audit_log(who, "settings", a->name, a->uuid, NULL, res->changes, res->n_changes);
        return 0;
}

/*
 * Writes @t of the entry at @i again: the originals saved first (what the
 * kernel has now, md's defaults after an assembly), then the kernel.
 */
static bool apply_one(context *c, unsigned i, const md_array *a, md_tunable t) {
        journal_entry e = c->settings.entries[i], saved = e;
        char text[PLAN_TEXT_MAX], old[PLAN_TEXT_MAX];
        change ch = { .name = md_tunable_get(t)->name };
        md_tval back;
        int r;

        if (md_tunable_restore_text(t, &e.written[t], text, sizeof(text)) < 0)
                return false;
        snprintf(e.array, sizeof(e.array), "%s", a->name); /* assembled anew, maybe under another name */
        e.originals[t] = a->tunables[t];
        e.written[t] = (md_tval){ .kind = MD_V_ABSENT };
        journal_put(&c->settings, &e);
        if (save(c) < 0) {
                journal_put(&c->settings, &saved);
                log_warning("%s: could not save the original of %s in %s/%s; its setting waits", a->name, ch.name,
                            c->settings_dir, SETTINGS_FILE);
                return false;
        }
        r = md_tunable_write(&c->root, a->name, t, text, &back);
        if (r < 0) {
                journal_put(&c->settings, &saved);
                (void)save(c);
                log_warning("%s: the kernel refused %s = '%s', its persistent setting: %s", a->name, ch.name, text,
                            strerror(-r));
                return false;
        }
        e.written[t] = back;
        journal_put(&c->settings, &e);
        if (save(c) < 0)
                log_warning("could not write %s/%s after setting %s of %s", c->settings_dir, SETTINGS_FILE, ch.name,
                            a->name);
        service_tval_text(&e.originals[t], old, sizeof(old));
        log_info("%s: %s %s -> %s, its persistent setting", a->name, ch.name, old, text);
        snprintf(ch.old, sizeof(ch.old), "%s", old);
        snprintf(ch.new_text, sizeof(ch.new_text), "%s", text);
        audit_log(NULL, "settings-apply", a->name, a->uuid, NULL, &ch, 1);
        return true;
}

bool service_apply_settings(context *c) {
        bool changed = false;

        if (c->settings_held)
                return false;
        for (unsigned i = 0; i < c->settings.n; i++) {
                const journal_entry *e = &c->settings.entries[i];
                const md_array *a = md_array_set_find(&c->arrays, e->uuid);
                array_object *o;

                /* Under a boost its writes rule; its restore comes back to the settings it found. */
                if (!a || a->state == MD_ARRAY_INACTIVE || journal_find(&c->journal, e->uuid))
                        continue;
                o = context_object(c, a->name);
                for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                        char now[PLAN_TEXT_MAX], wrote[PLAN_TEXT_MAX];

                        if (c->settings.entries[i].originals[t].kind == MD_V_ABSENT)
                                continue;
                        switch (settings_judge(&c->settings.entries[i], t, &a->tunables[t])) {
                        case SETTING_TO_APPLY:
                                changed = apply_one(c, i, a, t) || changed;
                                break;
                        case SETTING_OVERRIDDEN:
                                if (o && !(o->settings_logged & (1u << t))) {
                                        service_tval_text(&a->tunables[t], now, sizeof(now));
                                        service_tval_text(&c->settings.entries[i].written[t], wrote, sizeof(wrote));
                                        log_notice("%s: %s reads %s, not %s as its persistent setting wrote: an "
                                                   "administrator's value, left alone (SetSettings takes it over)",
                                                   a->name, md_tunable_get(t)->name, now, wrote);
                                        o->settings_logged |= 1u << t;
                                }
                                break;
                        default:
                                if (o)
                                        o->settings_logged &= ~(1u << t);
                                break;
                        }
                }
        }
        return changed;
}

int service_unapply_settings(context *c, const struct caller *who, char (*names)[MD_NAME_MAX + 1], unsigned *n) {
        int first_err = 0;

        c->settings_held = true;
        for (unsigned i = 0; i < c->settings.n; i++) {
                const journal_entry *e = &c->settings.entries[i];
                const md_array *a = md_array_set_find(&c->arrays, e->uuid);
                change chs[_MD_T_ARRAY_MAX];
                unsigned k = 0;

                if (!a || a->state == MD_ARRAY_INACTIVE || journal_find(&c->journal, e->uuid))
                        continue;
                for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                        char text[PLAN_TEXT_MAX];
                        md_tval back;
                        int r;

                        if (e->originals[t].kind == MD_V_ABSENT ||
                            settings_judge(e, t, &a->tunables[t]) != SETTING_APPLIED)
                                continue;
                        r = md_tunable_restore_text(t, &e->originals[t], text, sizeof(text));
                        if (r == 0)
                                r = md_tunable_write(&c->root, a->name, t, text, &back);
                        if (r < 0) {
                                log_warning("%s: could not put %s back to '%s': %s", a->name, md_tunable_get(t)->name,
                                            text, strerror(-r));
                                if (!first_err)
                                        first_err = r;
                                continue;
                        }
                        chs[k] = (change){ .name = md_tunable_get(t)->name };
                        service_tval_text(&e->written[t], chs[k].old, sizeof(chs[k].old));
                        snprintf(chs[k].new_text, sizeof(chs[k].new_text), "%s", text);
                        k++;
                }
                if (k == 0)
                        continue;
                audit_log(who, "settings-restore", a->name, a->uuid, NULL, chs, k);
                snprintf(names[(*n)++], MD_NAME_MAX + 1, "%s", a->name);
        }
        return first_err;
}
