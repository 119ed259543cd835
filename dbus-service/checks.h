/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Checks that wait (docs/checks.md): a check or a repair is paused outside
 * its array's check windows and while the array is degraded, and resumed
 * where it stopped. Pure: what to do, decided from what was read; the
 * writes are service-checks.c's.
 *
 * How md pauses one, on every kernel from 6.1 to 7.3: "idle" to sync_action
 * interrupts it and leaves md/sync_min at its checkpoint (6.1 and 6.12: the
 * last of md's checkpoints, one each sixteenth of the array; 7.3: where it
 * stopped); "check" or "repair" later starts again from sync_min. md resets
 * mismatch_cnt when it starts, so the count found before a pause is kept
 * here. A pause must leave nothing that could hold up a rebuild: sync_max
 * would (a check held at sync_max on 6.1 keeps a failed member from being
 * removed and its recovery from starting), "frozen" would (no recovery
 * starts while md is frozen), "idle" does not.
 *
 * A repair cannot be paused on every kernel: an interrupted repair marks
 * the array as needing a resync from its checkpoint, and on 7.3 (not on 6.1
 * or 6.12) md runs that resync at once, and again after every "idle": a
 * rebuild, which is never paused. On kernels after 6.12, and wherever the
 * service saw that happen, it leaves repairs alone.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

#define CHECKS_FILE "checks"
/*
 * check_busy = pause: a check pauses once its array's users have been busy
 * (governor_users_busy) for 10 s, and goes on after a minute without them,
 * so that a burst does not stop it and a pause is not undone by a lull.
 */
#define CHECK_BUSY_PAUSE_USEC (10 * 1000000ull)
#define CHECK_QUIET_RESUME_USEC (60 * 1000000ull)
#define CHECKS_MAX 64

typedef enum check_why {
        CHECK_WHY_NONE,     /* running */
        CHECK_WHY_WINDOW,   /* outside its windows */
        CHECK_WHY_DEGRADED, /* a member is missing */
        CHECK_WHY_REBUILD,  /* md runs a resync, recovery or reshape first */
        CHECK_WHY_BUSY,     /* the array's users are busy (check_busy = pause) */
        _CHECK_WHY_MAX,
} check_why;

/* "", "window", "degraded", "rebuild", "busy". */
const char *check_why_to_string(check_why w);
check_why check_why_from_string(const char *s);

/* A check or repair the service paused, or resumed and follows. */
typedef struct check_record {
        char uuid[37];
        md_sync_action action; /* MD_SYNC_CHECK or MD_SYNC_REPAIR */
        check_why why;         /* NONE: it runs again */
        uint64_t position;     /* sectors: where it resumes, or was resumed from */
        uint64_t total;        /* sectors of the whole operation, as sync_completed counts them */
        uint64_t mismatches;   /* found before @position: md counts again from 0 there */
        uint64_t paused_usec;  /* CLOCK_REALTIME µs of the pause; 0 while running */
} check_record;

typedef struct check_book {
        check_record records[CHECKS_MAX];
        unsigned n;
} check_book;

check_record *check_book_find(const check_book *b, const char *uuid);
/* Adds or replaces the record of @r->uuid; -ENOSPC when the book is full. */
int check_book_put(check_book *b, const check_record *r);
void check_book_remove(check_book *b, const char *uuid);

/* One line per record ("UUID check window 1024 520192 0 1764633600000000"); -ENOBUFS when they do not fit. */
int check_book_format(const check_book *b, char *buf, size_t size);
/* Reads lines as check_book_format writes them into @ret; -EINVAL names the first bad line's number in @ret_line. */
int check_book_parse(const char *text, check_book *ret, unsigned *ret_line);

/* What the service knows of one array this poll. */
typedef struct check_view {
        md_sync_action action; /* sync_action */
        int64_t degraded;      /* md/degraded, -1 unknown */
        bool window_open;      /* the array's windows are open now ("any": always) */
        bool windowed;         /* it has windows ("any" has none) */
        bool repair_pauses;    /* a paused repair comes back as a repair on this kernel */
        bool pause_when_busy;  /* check_busy = pause */
        bool users_busy;       /* busy for CHECK_BUSY_PAUSE_USEC or more */
        bool users_quiet;      /* not busy for CHECK_QUIET_RESUME_USEC or more */
        md_sync_action was;    /* what the poll before saw running (MD_SYNC_IDLE: nothing) */
        bool have_record;      /* a record of the array exists */
        const check_record *record;
} check_view;

typedef enum check_step {
        CHECK_STEP_NOTHING,
        CHECK_STEP_PAUSE,  /* write idle, record where it stopped */
        CHECK_STEP_RESUME, /* write sync_min and the action again */
        CHECK_STEP_NOTE,   /* the record changes, nothing is written (a rebuild took over) */
        CHECK_STEP_FORGET, /* it ended, or someone else stopped it: the record goes */
        CHECK_STEP_KEEP,   /* md stopped a check when a member failed: recorded, to resume once whole */
} check_step;

/*
 * The mismatches @r's earlier runs found, when the run now at @done went
 * on from where they stopped; 0 without a record or for a check md started
 * afresh (after the array was stopped, it starts before @r's position).
 */
uint64_t check_earlier_mismatches(const check_record *r, uint64_t done);

/* What to do for @v, and (PAUSE, NOTE) why. */
check_step check_decide(const check_view *v, check_why *ret_why);
