/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Restore planning: from a journal entry and the values read now to the
 * writes that put the originals back. Pure: no I/O, no logging.
 *
 * A value that reads as what the boost wrote is restored. A value that reads
 * as the original already needs nothing. Anything else was changed by an
 * administrator after the boost: a conflict, left alone and reported.
 */

#include "journal.h"
#include "profiles.h"

typedef struct restore_write {
        md_tunable tunable;
        md_tval current;
        char text[PLAN_TEXT_MAX]; /* "system", "5000", "max" */
} restore_write;

typedef struct restore_conflict {
        md_tunable tunable;
        md_tval written; /* what the boost left */
        md_tval current; /* what is there now */
} restore_conflict;

typedef struct restore_plan {
        restore_write writes[_MD_T_ARRAY_MAX];
        unsigned n_writes;
        restore_conflict conflicts[_MD_T_ARRAY_MAX];
        unsigned n_conflicts;
} restore_plan;

/*
 * @current holds every array tunable as read now (MD_V_ABSENT when the file
 * is gone: nothing to write). -EINVAL if an original cannot be turned back
 * into text (a corrupt entry).
 */
int restore_plan_compute(const journal_entry *e, const md_tval current[_MD_T_ARRAY_MAX],
                         restore_plan *ret);
