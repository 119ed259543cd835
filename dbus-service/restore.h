/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Restore planning: from a journal entry and the values read now to the
 * writes that put the originals back. Pure: no I/O, no logging.
 *
 * A value that reads as what the boost wrote (or wrote earlier, before a fit
 * replaced it) is restored. A value that reads as the original already needs
 * nothing. Anything else was changed by an administrator after the boost: a
 * conflict, left alone and reported.
 *
 * Once the operation the boost followed is over, a tunable the kernel
 * forgets when an operation completes (a sync_max sector number) is not
 * written back: the operation it held has ended, and the number would stop
 * the next one (a monthly check, say) at that sector. It is listed as
 * forgotten instead.
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

typedef struct restore_wait {
        md_tunable tunable;
        uint64_t need; /* the least the running operation needs */
} restore_wait;

typedef struct restore_plan {
        restore_write writes[_MD_T_ARRAY_MAX];
        unsigned n_writes;
        restore_wait waits[_MD_T_ARRAY_MAX]; /* originals that must wait for the operation to end */
        unsigned n_waits;
        restore_conflict conflicts[_MD_T_ARRAY_MAX];
        unsigned n_conflicts;
        md_tunable forgotten[_MD_T_ARRAY_MAX];
        unsigned n_forgotten;
} restore_plan;

/*
 * @current holds every array tunable as read now (MD_V_ABSENT when the file
 * is gone: nothing to write); @kernel_forgot is true once the operation the
 * boost followed has completed, which is when md resets sync_min and
 * sync_max (md_operation_completed(), array.h). -EINVAL if an original cannot be
 * turned back into text (a corrupt entry).
 */
int restore_plan_compute(const journal_entry *e, const md_tval current[_MD_T_ARRAY_MAX], bool kernel_forgot,
                         restore_plan *ret);

/*
 * A write of @t whose original is a number below @need moves from the
 * writes to the waits: the running operation needs at least @need, so the
 * original comes back only once it has ended (a stripe cache under a
 * reshape's four chunks). @need 0 moves nothing.
 */
void restore_plan_wait_below(restore_plan *p, const journal_entry *e, md_tunable t, uint64_t need);
