/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Boost and Restore, the operations behind both the Manager's methods and
 * the array objects' ones, and behind the automatic restores. Each reads
 * sysfs afresh, validates, writes (all or nothing for Boost), keeps the
 * journal ahead of every write, and audits.
 */

#include <stdbool.h>

#include "context.h"
#include "options.h"
#include "profiles.h"

struct caller;

typedef struct change {
        const char *name;   /* tunable name */
        char old[64];       /* kernel text before: "1000 (system)" */
        char new_text[64];  /* text written: "50000", "system" */
} change;

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

/* Reads arrays, globals and MemTotal into @c. */
int service_refresh(context *c);

int service_boost(context *c, const char *spec, const char *profile_name, const boost_options *o,
                  const struct caller *who, op_result *res);

/* Restores the array @spec names. Not boosted: 0 with no changes. Conflicts: -MDB_ECONFLICT after the other writes. */
int service_restore(context *c, const char *spec, const struct caller *who, op_result *res);

/* Restores the boost of @a (found in c->arrays); @why goes to the log. */
int service_restore_array(context *c, const md_array *a, const struct caller *who, const char *why,
                          op_result *res);

/*
 * Lowers the floor of @a's `fast` boost (@e, in c->journal) to its share of
 * md's sync_speed, once the boost has held long enough. Ends the fit
 * whatever it decides ("free" for the ceiling to follow, or "done") and
 * returns true: @e changed and the journal needs saving. false when there is
 * no rate yet (nothing changed; try again later). The new floor is written
 * only after the journal has recorded it.
 */
bool service_fit_floor(context *c, const md_array *a, journal_entry *e);

/*
 * Holds a fitted `fast` boost's ceiling at its floor (@hold) or lifts it back
 * to the boost's own ceiling. Returns true when @e changed. Ends the
 * following ("done") when an administrator changed either limit, or when
 * the journal or the kernel refuses the change; nothing is left half-done.
 */
bool service_hold_ceiling(context *c, const md_array *a, journal_entry *e, bool hold);

/*
 * Saves the journal. A failure is logged once, kept in journal_problem
 * (the JournalProblem property) and retried by service_retry_journal() on
 * every poll until a save succeeds, which is logged too.
 */
int service_save_journal(context *c);
void service_retry_journal(context *c);
