/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Whether Boost may lift a numeric sync_max.
 *
 * sync_max stops md's running operation at that sector. During a reshape
 * that rewrites stripes in place (a level, layout or chunk change, a shrink,
 * a grow with no room before the data, any reshape of external metadata),
 * mdadm --grow copies each window to its backup before md may reshape it,
 * and advances sync_max to the end of what it has backed up (Grow.c,
 * progress_reshape). md relies on that: a crash or power cut inside a window
 * that was not backed up corrupts the array. mdadm also freezes the reshape
 * when it finds sync_max changed under it. So sync_max is left alone during
 * a reshape, while frozen, whenever reshape_position is set, and on external
 * metadata; except for a reshape that moves the data offset (it needs no
 * backup) when no mdadm runs that could be driving it.
 *
 * A numeric sync_max anywhere else (an admin's limit on a resync or a
 * recovery) is lifted as before.
 */

#include "array.h"
#include "root.h"

typedef enum syncmax_verdict {
        SYNCMAX_NOTHING,       /* sync_max is max, absent or unreadable: not Boost's to write */
        SYNCMAX_LIFT,          /* a numeric sync_max Boost may set to max */
        SYNCMAX_HELD_MDADM,    /* a reshape an mdadm may be driving (or /proc could not tell) */
        SYNCMAX_HELD_BACKUP,   /* a reshape in place: mdadm's backup decides how far it may go */
        SYNCMAX_HELD_EXTERNAL, /* external metadata: user space drives the array */
        _SYNCMAX_VERDICT_MAX,
} syncmax_verdict;

/*
 * Pure. @mdadm is what syncmax_mdadm_running() found: 1 an mdadm that may
 * drive an operation runs, 0 none, negative when it could not be told.
 * @a needs MD_ATTR_METADATA and MD_ATTR_MEMBER_OFFSETS read.
 */
syncmax_verdict syncmax_judge(const md_array *a, int mdadm);

/* Why @v leaves sync_max of @a alone, one sentence for the reply, the log and the page; "" for the others. */
void syncmax_explain(syncmax_verdict v, const md_array *a, char *buf, size_t size);

/*
 * Whether a process named mdadm runs under @r's proc/, other than one that
 * only monitors (--monitor, -F, --follow): 1, 0, or a negative errno when
 * proc/ cannot be listed.
 */
int syncmax_mdadm_running(const md_root *r);

/*
 * A reshape whose position has reached sync_max and stays there with
 * nothing driving it (mdadm was killed, crashed, or the machine rebooted
 * before mdadm-grow-continue ran) is stuck: md waits at sync_max for ever.
 * Only mdadm, with the reshape's backup, may move it on safely.
 */
#define SYNCMAX_STUCK_MAX 512

typedef struct syncmax_watch {
        bool at_limit;                 /* seen at its limit on the last read */
        uint64_t position;             /* where it stands there */
        uint64_t since_usec;           /* since when */
        char stuck[SYNCMAX_STUCK_MAX]; /* "" or why it is stuck and the command that resumes it */
} syncmax_watch;

/*
 * Whether @a could be stuck now: a reshape (or a frozen one) held at a
 * numeric sync_max. Only then is it worth asking who runs.
 */
bool syncmax_at_limit(const md_array *a);

/*
 * Pure. Updates @w from @a as read at @now_usec; @mdadm as
 * syncmax_mdadm_running() found it (only asked when syncmax_at_limit());
 * @backup_file the reshape's backup as mdadm recorded it, or NULL. After
 * @after_usec at the limit with no mdadm, @w->stuck says so with the
 * command. Returns true when @w->stuck changed.
 */
bool syncmax_watch_update(syncmax_watch *w, const md_array *a, int mdadm, const char *backup_file, uint64_t now_usec,
                          uint64_t after_usec);

/*
 * The backup file mdadm --grow recorded for @name (the link
 * run/mdadm/backup_file-NAME under @r), into @buf; -ENOENT when none.
 */
int syncmax_backup_file(const md_root *r, const char *name, char *buf, size_t size);
