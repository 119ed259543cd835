/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Boost and Restore, the operations behind both the Manager's methods and
 * the array objects' ones, and behind the automatic restores. Each reads
 * sysfs afresh, validates, writes (all or nothing for Boost), keeps the
 * journal ahead of every write, and audits.
 */

#include <stdbool.h>

#include "audit.h"
#include "context.h"
#include "governor.h"
#include "options.h"
#include "profiles.h"

struct caller;

/* A tunable Boost left alone, and why (sync_max under mdadm: syncmax.h). */
typedef struct hold {
        const char *name;
        char why[PLAN_WHY_MAX];
} hold;

typedef struct op_result {
        char array[MD_NAME_MAX + 1];
        change changes[_MD_T_ARRAY_MAX];
        unsigned n_changes;
        hold held[_MD_T_ARRAY_MAX];
        unsigned n_held;
        char message[1024]; /* on failure: what happened */
        bool complete;      /* the message also says what to do: no generic hint */
} op_result;

/* @v as the kernel writes it ("1000 (system)"), "?" when it cannot be said. */
void service_tval_text(const md_tval *v, char *buf, size_t size);

/* Reads arrays, globals and MemTotal into @c. */
int service_refresh(context *c);

int service_boost(context *c, const char *spec, const char *profile_name, const boost_options *o,
                  const struct caller *who, op_result *res);

/* Restores the array @spec names. Not boosted: 0 with no changes. Conflicts: -MDB_ECONFLICT after the other writes. */
int service_restore(context *c, const char *spec, const struct caller *who, op_result *res);

/* Restores the boost of @a (found in c->arrays); @why goes to the log. */
int service_restore_array(context *c, const md_array *a, const struct caller *who, const char *why, op_result *res);

/*
 * Makes the write a governor step decided for @a's boost (@e, in
 * c->journal): journal first, then the kernel, then the log and the audit.
 * Moves @e to the decision's next state, or to DONE when the journal or the
 * kernel refuses (nothing is left half-done). Returns true when @e changed
 * and the journal needs saving.
 */
bool service_govern(context *c, const md_array *a, journal_entry *e, const governor_decision *d);

/*
 * The boost_watch of the journal entry with @uuid: service_watch adds one
 * when there is none, or none for this boost (NULL without the entry, or on
 * OOM), service_find_watch does not. service_prune_watches frees those
 * whose entry is gone.
 */
boost_watch *service_watch(context *c, const char *uuid);
boost_watch *service_find_watch(context *c, const char *uuid);
void service_prune_watches(context *c);

/*
 * Saves the journal. A failure is logged once, kept in journal_problem
 * (the JournalProblem property) and retried by service_retry_journal() on
 * every poll until a save succeeds, which is logged too.
 */
int service_save_journal(context *c);
void service_retry_journal(context *c);

/*
 * SetPolicy: sets what the service does by itself when an operation starts
 * on the array @spec ("" for every array's default); docs/policy.md.
 */
int service_set_policy(context *c, const char *spec, const char *class_word, const char *rule_word,
                       const struct caller *who, op_result *res);

/*
 * SetSettings: replaces the persistent settings of the array @spec with the
 * tunables @want sets (none: all go, their originals back); settings.h. A
 * boosted array is refused (-EBUSY). The originals are saved before the
 * first write; a refused write puts back what the call wrote.
 */
int service_set_settings(context *c, const char *spec, const boost_options *want, const struct caller *who,
                         op_result *res);

/*
 * Writes again every setting whose array reads its original (assembled
 * anew, or the machine booted), unless a boost is on top; logs once each
 * value an administrator wrote in a setting's place. True when anything
 * was written.
 */
bool service_apply_settings(context *c);

/*
 * RestoreAll's "settings": puts back the originals of every setting in
 * place, keeping the settings on file, and writes none again until the
 * service starts again. The arrays put back are added to @names (@n).
 */
int service_unapply_settings(context *c, const struct caller *who, char (*names)[MD_NAME_MAX + 1], unsigned *n);

/*
 * Checks that wait (checks.h, service-checks.c). Load: the records of a
 * previous run from the state folder (a bad file is logged and ignored).
 * Apply: once per poll, pauses and resumes checks and repairs by their
 * arrays' windows and redundancy; true when md was written.
 */
int service_load_checks(context *c);
bool service_apply_checks(context *c);

/* Whether a paused check waits for its windows or its array (the service then polls). */
bool service_checks_waiting(const context *c);

/* The check windows in effect for @a, NULL when the policy gives none. */
const check_windows *service_check_windows(const context *c, const md_array *a);

/* When @a's windows next open, µs since the epoch; 0 when they are open or it has none. */
uint64_t service_check_resumes_usec(const context *c, const md_array *a);
