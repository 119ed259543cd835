/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The files md wakes the service with: /proc/mdstat, and each array's
 * md/sync_action and md/degraded. With nothing running the service sleeps
 * until one of them changes instead of reading every array on a timer.
 *
 * md/array_state is left out on purpose: md notifies it on every
 * clean/active flip, which a written array makes several times a second,
 * and what matters of it (an array started or stopped) /proc/mdstat says.
 * sync_completed notifies only while an operation runs, when the service
 * reads on its timer anyway.
 */

#include <poll.h>
#include <stdbool.h>

#include "array.h"
#include "notify.h"
#include "root.h"

typedef struct wakeup_entry {
        char rel[64]; /* "proc/mdstat", "sys/block/md0/md/sync_action" */
        md_notify_file file;
        bool wanted; /* still wanted by the last wakeup_sync */
} wakeup_entry;

typedef struct wakeup_set {
        wakeup_entry *entries;
        unsigned n, cap;
        bool complete; /* every wanted file is open and the kernel notifies it */
} wakeup_set;

/*
 * Opens the files for @arrays that are not open yet and closes those of
 * arrays that are gone; returns how many it opened. Afterwards
 * @n->complete says whether sleeping until a notification can miss nothing
 * the files stand for.
 */
int wakeup_sync(wakeup_set *n, const md_root *r, const md_array_set *arrays);

/* The number of descriptors wakeup_fill() fills. */
unsigned wakeup_count(const wakeup_set *n);
void wakeup_fill(const wakeup_set *n, struct pollfd *fds);

/*
 * Takes the events poll() reported in @fds (as filled): each file is read
 * again to arm it, a removed one is closed until the next wakeup_sync.
 * Returns true when any reported a change.
 */
bool wakeup_take(wakeup_set *n, const struct pollfd *fds);

void wakeup_free(wakeup_set *n);
