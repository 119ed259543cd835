/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Files whose readers md wakes when they change.
 *
 * md calls sysfs_notify() on some attributes of an array: sync_action when
 * an operation starts or ends (and at its checkpoints), degraded when a
 * member fails or has been rebuilt. It wakes the readers of /proc/mdstat
 * when an array starts or stops, a member fails, is added or removed, and
 * when an operation starts or ends. A reader opens the file, reads it, and
 * waits in poll() for POLLPRI (kernfs sets POLLERR with it); the next read
 * from offset 0 takes the event and arms the file again. A removed sysfs
 * attribute reports POLLPRI for ever, and its read fails with ENODEV.
 *
 * A regular file (a test tree under --root) never notifies: poll() never
 * reports POLLPRI on one, so whoever waits must still read on a timer.
 */

#include <stdbool.h>

#include "root.h"

typedef struct md_notify_file {
        int fd;      /* -1 when closed */
        bool kernel; /* on sysfs or procfs, so the kernel notifies it */
} md_notify_file;

#define MD_NOTIFY_FILE_NULL ((md_notify_file){ .fd = -1 })

/* Opens the regular file @rel below @r and reads it once, which arms it. */
int md_notify_open(const md_root *r, const char *rel, md_notify_file *ret);

/* Reads @f from offset 0 (taking its event and arming it again): 0, or -errno (-ENODEV: removed). */
int md_notify_rearm(const md_notify_file *f);

void md_notify_close(md_notify_file *f);
