/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "syncmax.h"

static bool reshape_under_way(const md_array *a) {
        return a->sync_action == MD_SYNC_RESHAPE || a->sync_action == MD_SYNC_FROZEN ||
               a->reshape_position.kind == MD_V_NUMBER || a->reshape_position.kind == MD_V_UNKNOWN;
}

syncmax_verdict syncmax_judge(const md_array *a, int mdadm) {
        if (a->tunables[MD_T_SYNC_MAX].kind != MD_V_NUMBER)
                return SYNCMAX_NOTHING;
        if (a->metadata != MD_METADATA_NATIVE && a->metadata != MD_METADATA_NONE)
                return SYNCMAX_HELD_EXTERNAL;
        if (!reshape_under_way(a))
                return SYNCMAX_LIFT;
        if (mdadm != 0)
                return SYNCMAX_HELD_MDADM;
        if (!md_array_moves_data_offset(a))
                return SYNCMAX_HELD_BACKUP;
        return SYNCMAX_LIFT;
}

void syncmax_explain(syncmax_verdict v, const md_array *a, char *buf, size_t size) {
        uint64_t at = a->tunables[MD_T_SYNC_MAX].value;

        switch (v) {
        case SYNCMAX_HELD_EXTERNAL:
                if (a->metadata == MD_METADATA_EXTERNAL)
                        snprintf(buf, size,
                                 "sync_max stays at %" PRIu64 ": %s has external metadata, whose user space "
                                 "(mdmon, mdadm) moves it; lifting it could corrupt data.",
                                 at, a->name);
                else
                        snprintf(buf, size,
                                 "sync_max stays at %" PRIu64 ": the metadata_version of %s could not be read, "
                                 "so it may be external metadata, whose user space (mdmon, mdadm) moves it; "
                                 "lifting it could corrupt data.",
                                 at, a->name);
                break;
        case SYNCMAX_HELD_MDADM:
                snprintf(buf, size,
                         "sync_max stays at %" PRIu64 ": %s is reshaping and mdadm may be driving it, "
                         "advancing sync_max as it backs the data up; lifting it could corrupt data "
                         "on a crash.",
                         at, a->name);
                break;
        case SYNCMAX_HELD_BACKUP:
                snprintf(buf, size,
                         "sync_max stays at %" PRIu64 ": the reshape of %s rewrites stripes in place "
                         "and needs mdadm's backup to pass it (mdadm --grow --continue /dev/%s "
                         "--backup-file=FILE, the file given to mdadm --grow).",
                         at, a->name, a->name);
                break;
        default:
                if (size)
                        buf[0] = '\0';
                break;
        }
}

bool syncmax_at_limit(const md_array *a) {
        const md_tval *max = &a->tunables[MD_T_SYNC_MAX];

        if (max->kind != MD_V_NUMBER || !reshape_under_way(a))
                return false;
        if (a->sync_action == MD_SYNC_FROZEN)
                return true;
        return a->progress.kind == MD_PROGRESS_RUNNING && a->progress.done >= max->value;
}

static uint64_t reshape_position_of(const md_array *a) {
        if (a->reshape_position.kind == MD_V_NUMBER)
                return a->reshape_position.value;
        return a->progress.kind == MD_PROGRESS_RUNNING ? a->progress.done : 0;
}

bool syncmax_watch_update(syncmax_watch *w, const md_array *a, int mdadm, const char *backup_file, uint64_t now_usec,
                          uint64_t after_usec) {
        char was[SYNCMAX_STUCK_MAX];
        uint64_t pos = reshape_position_of(a);

        snprintf(was, sizeof(was), "%s", w->stuck);
        if (!syncmax_at_limit(a) || mdadm != 0) {
                w->at_limit = false;
                w->stuck[0] = '\0';
        } else if (!w->at_limit || pos != w->position) {
                w->at_limit = true;
                w->position = pos;
                w->since_usec = now_usec;
                w->stuck[0] = '\0';
        } else if (now_usec - w->since_usec >= after_usec && !w->stuck[0]) {
                char resume[320];

                /* A longer path is cut at 200 characters: the admin sees it is cut. */
                if (backup_file)
                        snprintf(resume, sizeof(resume), "mdadm --grow --continue /dev/%s --backup-file=%.200s",
                                 a->name, backup_file);
                else if (md_array_moves_data_offset(a))
                        /*
                         * A reshape that moves the data offset writes each
                         * stripe to new space and needs no backup; mdadm
                         * --grow --continue returns at once for it and lifts
                         * nothing. Lifting sync_max (and unfreezing) is all
                         * it takes, and is safe.
                         */
                        snprintf(resume, sizeof(resume),
                                 "echo max > /sys/block/%s/md/sync_max%s%s%s (it moves "
                                 "the data offset, so it needs no backup)",
                                 a->name, a->sync_action == MD_SYNC_FROZEN ? " && echo idle > /sys/block/" : "",
                                 a->sync_action == MD_SYNC_FROZEN ? a->name : "",
                                 a->sync_action == MD_SYNC_FROZEN ? "/md/sync_action" : "");
                else
                        snprintf(resume, sizeof(resume),
                                 "mdadm --grow --continue /dev/%s --backup-file=FILE (the backup file given to "
                                 "mdadm --grow)",
                                 a->name);
                snprintf(w->stuck, sizeof(w->stuck),
                         "The reshape of %s has stopped at sync_max (sector %" PRIu64 ") and nothing drives it. "
                         "Resume it safely with: %s",
                         a->name, a->tunables[MD_T_SYNC_MAX].value, resume);
        }
        return strcmp(was, w->stuck) != 0;
}
