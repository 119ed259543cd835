/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The boost journal: what each boost changed and what was there before, so
 * the originals survive a crash. One JSON file, <state-dir>/boosts.json,
 * keyed by array UUID (kernel names change between assemblies, UUIDs do not):
 *
 *   { "version": 1, "clean": false,
 *     "boosts": { "7ac7b4d7-...": { "array": "md0", "profile": "fast",
 *                 "since": 1764445000000000, "operation": "recover",
 *                 "originals": { "sync_speed_min": "1000 (system)" },
 *                 "written":   { "sync_speed_min": "50000 (local)" },
 *                 "fit": "pending" } } }
 *
 * "fit" is the state of a `fast` boost's governor (governor.h): "pending",
 * "free", "learning", "steering", "done", absent when nothing is followed;
 * "users_share" the share the users keep when the Boost said one, or
 * "users_latency_ms" the latency bound it said instead, and
 * "ceiling" the boost's own ceiling once the governor first held the rebuild
 * back; "paced" ({"low": N, "high": N}, KiB/s) the band within which the
 * governor writes floor and ceiling every poll while it paces the rebuild,
 * values that are the boost's own without being saved one by one; "policy" the policy's rule that made the boost (policy.h's class
 * words), absent for an administrator's. A value a later
 * write replaced moves to "earlier": one the boost wrote too (or the ceiling
 * it left in place), which Restore still counts as its own. The journal
 * records each new value before the kernel gets it, so a crash in between
 * leaves either value behind.
 *
 * An entry holds only what a restart needs; what the service measures
 * between polls is in context.h's boost_watch.
 *
 * "clean" is true only after a normal stop. It is written atomically: a
 * temporary file in the same directory, fsync, rename over the old one, fsync
 * of the directory, so a reader sees the old file or the new one, never half.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "governor.h"

#define JOURNAL_FILE "boosts.json"
#define JOURNAL_SECTION "boosts" /* the file's object of entries */
#define JOURNAL_WORD_MAX 16

typedef struct journal_entry {
        char uuid[37];
        char array[MD_NAME_MAX + 1];
        char profile[JOURNAL_WORD_MAX];
        uint64_t since_usec;
        /* The operation the boost waits to end: sync_action at boost time, or
         * the first one seen to start after a boost of an idle array. */
        char operation[JOURNAL_WORD_MAX];
        md_tval originals[_MD_T_ARRAY_MAX]; /* kind MD_V_ABSENT: not saved */
        md_tval written[_MD_T_ARRAY_MAX];   /* read back after our write */
        md_tval earlier[_MD_T_ARRAY_MAX];   /* replaced by a later write of the same boost */
        governor_state fit;
        unsigned users_share; /* the share of their throughput the users keep while steering; 0: the configuration's */
        unsigned users_latency_ms; /* the users' 99th percentile latency bound instead, ms; 0: not given */
        md_tval lift_ceiling;      /* the ceiling the rebuild gets while the users are quiet, once steering held it */
        /* While the governor paces (pacer.h): the values it writes to floor and ceiling every poll without a
         * journal save, KiB/s, both in [pace_low, pace_high]; 0, 0 when it does not. */
        uint64_t pace_low, pace_high;
        char policy[JOURNAL_WORD_MAX]; /* the policy's class that boosted it ("rebuild", "check", "escalate"), "" */
        /* The stripe cache the boost chose itself, which the governor may grow and brings back to; 0: the
         * governor leaves the stripe cache alone (none, or one a Boost option named). */
        unsigned cache_low;
} journal_entry;

typedef struct journal {
        journal_entry *entries;
        unsigned n;
        unsigned cap;
        bool clean;
} journal;

/* An entry of a journal file that was set aside rather than loaded. */
#define JOURNAL_REJECT_MAX 8
typedef struct journal_reject {
        char key[40];   /* the entry's key (its UUID, or what stood there), cut short */
        char why[96];   /* what was wrong with it */
        char held[512]; /* the entry as JSON, cut short */
} journal_reject;

/* What journal_load() found besides the good entries. */
typedef struct journal_load_report {
        bool corrupt;        /* the file was no journal at all; every entry is in @aside */
        unsigned n_rejected; /* entries set aside; the first JOURNAL_REJECT_MAX are in @rejected */
        journal_reject rejected[JOURNAL_REJECT_MAX];
        char aside[64]; /* the copy that keeps the file's bytes, "" when none was needed */
} journal_load_report;

/*
 * Parses @text. -EINVAL (or -ERANGE) when it is not a journal; @ret is
 * untouched then. Each entry is validated on its own: with @report NULL one
 * bad entry refuses the whole text; otherwise the bad ones are listed in
 * @report and the good ones returned.
 */
int journal_parse(const char *text, journal *ret, journal_load_report *report);

/* Serialises @j; the caller frees the string. NULL on OOM. */
char *journal_format(const journal *j);

/*
 * The same for a file of the same shape whose entries are under @section
 * instead of "boosts" (settings.h keeps the persistent settings so).
 */
int journal_parse_section(const char *text, const char *section, journal *ret, journal_load_report *report);
char *journal_format_section(const journal *j, const char *section);

/*
 * Loads <dir>/boosts.json (dir is an O_DIRECTORY descriptor). A missing file
 * gives an empty, clean journal. A file that is no journal (corrupt,
 * truncated, of another version) is renamed to boosts.json.corrupt-<unix
 * seconds>[.N] and an empty journal returned. One whose entries are partly
 * bad is copied to boosts.json.rejected-<unix seconds>[.N], and the good
 * entries returned. Names already taken are never overwritten. @report says
 * what was set aside. A file that cannot be read (EACCES, EIO, larger than
 * 4 MiB: -EFBIG, not a regular file: -EINVAL) is an error: it may hold
 * originals, so it is left where it is.
 */
int journal_load(int dir_fd, journal *ret, journal_load_report *report);

/* Writes @j atomically into @dir_fd. */
int journal_save(int dir_fd, const journal *j);

/* journal_load() and journal_save() of the file @name in @dir_fd, its entries under @section. */
int journal_load_file(int dir_fd, const char *name, const char *section, journal *ret, journal_load_report *report);
int journal_save_file(int dir_fd, const char *name, const char *section, const journal *j);

/*
 * Creates @path (and parents) with mode 0700 when missing, and opens it.
 * Refuses a symlink in its place (-ELOOP) and a folder owned by another
 * user or writable by group or others (-EPERM).
 */
int journal_open_dir(const char *path, int *ret_fd);

journal_entry *journal_find(journal *j, const char *uuid);
/* Adds or replaces the entry with @e's UUID. */
int journal_put(journal *j, const journal_entry *e);
/* Removes the entry with @uuid; 0 or -ENOENT. */
int journal_remove(journal *j, const char *uuid);
void journal_free(journal *j);

/* Originals and written values as tval equality: same kind, same number. */
bool journal_tval_equal(const md_tval *a, const md_tval *b);

/*
 * Whether @now, what the kernel has for @t, is the boost @e's own: what it
 * wrote, what a later write of its replaced ("earlier"), or for floor and
 * ceiling a value the governor paces within the band (local, in
 * [pace_low, pace_high]).
 */
bool journal_entry_wrote(const journal_entry *e, md_tunable t, const md_tval *now);
