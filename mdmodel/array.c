/* SPDX-License-Identifier: MIT */
/* Questions asked of an array that has been read: no I/O here. */

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "array.h"

/*
 * Reduces a UUID in sysfs form (8-4-4-4-12, dashes) or mdadm's form
 * (8:8:8:8, colons) to its 32 hex digits in lower case. -EINVAL otherwise.
 */
static int uuid_digits(const char *s, char ret[static 33]) {
        size_t len = strlen(s), out = 0;
        const char sep = len == 36 ? '-' : ':';

        if (len != 36 && len != 35)
                return -EINVAL;
        for (size_t i = 0; i < len; i++) {
                bool at_sep = len == 36 ? (i == 8 || i == 13 || i == 18 || i == 23) : (i == 8 || i == 17 || i == 26);
                char c = s[i];

                if (at_sep) {
                        if (c != sep)
                                return -EINVAL;
                        continue;
                }
                if (c >= 'A' && c <= 'F')
                        c = (char)(c - 'A' + 'a');
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                        return -EINVAL;
                ret[out++] = c;
        }
        ret[out] = '\0';
        return 0;
}

const md_array *md_array_set_find(const md_array_set *set, const char *spec) {
        char want[33], have[33];
        bool by_uuid;

        if (!set || !spec)
                return NULL;
        if (strncmp(spec, "/dev/", 5) == 0)
                spec += 5;
        by_uuid = uuid_digits(spec, want) == 0;

        for (unsigned i = 0; i < set->n; i++) {
                const md_array *a = &set->arrays[i];

                if (strcmp(a->name, spec) == 0)
                        return a;
                if (by_uuid && a->uuid[0] && uuid_digits(a->uuid, have) == 0 && strcmp(want, have) == 0)
                        return a;
        }
        return NULL;
}

static bool slot_seen(const md_array *a, unsigned upto, int64_t slot) {
        for (unsigned i = 0; i < upto; i++)
                if (a->members[i].slot == slot)
                        return true;
        return false;
}

/*
 * As collectd's md plugin counts them (missing = raid_disks - devices
 * present), except that a disk being rebuilt is not a spare: it holds a slot.
 * A replacement shares its original's slot, so slots are counted once.
 */
void md_array_disk_counts(const md_array *a, md_disk_counts *ret) {
        md_disk_counts c = { 0 };
        unsigned held = 0;

        if (!a || !ret)
                return;
        for (unsigned i = 0; i < a->n_members; i++) {
                const md_member *m = &a->members[i];

                switch (m->role) {
                case MD_ROLE_IN_SYNC:
                        c.active++;
                        break;
                case MD_ROLE_REBUILDING:
                        c.rebuilding++;
                        break;
                case MD_ROLE_SPARE:
                        c.spare++;
                        break;
                case MD_ROLE_FAULTY:
                        c.failed++;
                        break;
                default:
                        break;
                }
                if (m->slot >= 0 && !slot_seen(a, i, m->slot))
                        held++;
        }
        if (a->raid_disks.kind == MD_V_NUMBER && a->raid_disks.value > held)
                c.missing = (unsigned)(a->raid_disks.value - held);
        *ret = c;
}

bool md_array_moves_data_offset(const md_array *a) {
        unsigned holders = 0;

        if (!a)
                return false;
        for (unsigned i = 0; i < a->n_members; i++) {
                const md_member *m = &a->members[i];

                if (m->slot < 0)
                        continue;
                if (m->offset.kind != MD_V_NUMBER || m->new_offset.kind != MD_V_NUMBER ||
                    m->offset.value == m->new_offset.value)
                        return false;
                holders++;
        }
        return holders > 0;
}

bool md_array_has_redundancy(const md_array *a) {
        if (!a || a->level < 0 || a->level >= _MD_LEVEL_MAX)
                return false;
        return (MD_LEVELS_SYNCING & MD_LEVEL_BIT(a->level)) != 0;
}

/* Copies of each block in a raid10 layout: near x far; md's default is two near. */
static unsigned raid10_copies(uint64_t layout) {
        unsigned near = (unsigned)(layout & 0xff), far = (unsigned)((layout >> 8) & 0xff);

        return near && far ? near * far : 2;
}

int md_array_slots_down(const md_array *a, const md_disk_counts *c, unsigned *ret) {
        uint64_t slots;

        if (!a || !c || !ret)
                return -EINVAL;
        if (!md_array_has_redundancy(a) || a->raid_disks.kind != MD_V_NUMBER)
                return -ENODATA;
        /* During a reshape raid_disks reads "new (old)"; md runs on the old until it is over. */
        slots = a->raid_disks.old_value < a->raid_disks.value ? a->raid_disks.old_value : a->raid_disks.value;
        if (slots > UINT_MAX)
                return -ENODATA;
        *ret = slots > c->active ? (unsigned)slots - c->active : 0;
        return 0;
}

bool md_operation_completed(const md_array *a, md_sync_action op) {
        const md_tval *sync_min = &a->tunables[MD_T_SYNC_MIN];

        switch (op) {
        case MD_SYNC_RESYNC:
                return a->resync_start.kind == MD_V_NONE;
        case MD_SYNC_RECOVER:
                for (unsigned i = 0; i < a->n_members; i++)
                        if (a->members[i].role == MD_ROLE_REBUILDING)
                                return false;
                return true;
        case MD_SYNC_CHECK:
        case MD_SYNC_REPAIR:
                return sync_min->kind == MD_V_NUMBER && sync_min->value == 0;
        case MD_SYNC_RESHAPE:
                return a->reshape_position.kind == MD_V_NONE;
        default:
                return false;
        }
}

int md_array_failures_tolerated(const md_array *a, const md_disk_counts *c, unsigned *ret) {
        unsigned down, copies;
        int r;

        r = md_array_slots_down(a, c, &down);
        if (r < 0)
                return r;
        switch (a->level) {
        case MD_LEVEL_RAID1:
                *ret = c->active > 0 ? c->active - 1 : 0;
                return 0;
        case MD_LEVEL_RAID4:
        case MD_LEVEL_RAID5:
                *ret = down > 0 ? 0 : 1;
                return 0;
        case MD_LEVEL_RAID6:
                *ret = down >= 2 ? 0 : 2 - down;
                return 0;
        case MD_LEVEL_RAID10:
                copies = 2;
                /* A reshape between layouts: the fewer copies of the two until it ends. */
                if (a->layout.kind == MD_V_NUMBER) {
                        copies = raid10_copies(a->layout.value);
                        if (raid10_copies(a->layout.old_value) < copies)
                                copies = raid10_copies(a->layout.old_value);
                }
                *ret = down + 1 >= copies ? 0 : copies - 1 - down;
                return 0;
        default:
                return -ENODATA;
        }
}

bool md_array_busy(const md_array *a) {
        return a && (a->progress.kind == MD_PROGRESS_RUNNING || a->progress.kind == MD_PROGRESS_DELAYED ||
                     a->progress.kind == MD_PROGRESS_BETWEEN);
}

md_user_io md_array_user_io(const md_array *a) {
        if (!a || a->io_stats.kind != MD_V_NUMBER)
                return MD_USER_IO_UNKNOWN;
        if (a->io_stats.value != 0)
                return MD_USER_IO_COUNTED;
        return a->tunables[MD_T_SYNC_IO_DEPTH].kind == MD_V_ABSENT ? MD_USER_IO_UNCOUNTED : MD_USER_IO_UNSEEN;
}

const char *md_user_io_to_string(md_user_io u) {
        static const char *const names[_MD_USER_IO_MAX] = {
                [MD_USER_IO_UNKNOWN] = "",
                [MD_USER_IO_COUNTED] = "counted",
                [MD_USER_IO_UNCOUNTED] = "uncounted",
                [MD_USER_IO_UNSEEN] = "unseen",
        };

        if (u < 0 || u >= _MD_USER_IO_MAX)
                return NULL;
        return names[u];
}

int md_array_progress_percent(const md_array *a, double *ret) {
        if (!a || !ret)
                return -EINVAL;
        if (a->progress.kind != MD_PROGRESS_RUNNING || a->progress.total == 0)
                return -ENODATA;
        *ret = 100.0 * (double)a->progress.done / (double)a->progress.total;
        return 0;
}

/*
 * sync_completed and sync_speed count the same thing (per-member sectors for
 * recovery and raid1/4/5/6 resync, array sectors for a raid10 resync), so
 * the remaining sectors over the speed is the time left.
 */
int md_array_seconds_left(const md_array *a, uint64_t *ret) {
        uint64_t left_kib, speed;

        if (!a || !ret)
                return -EINVAL;
        if (a->progress.kind != MD_PROGRESS_RUNNING || a->sync_speed.kind != MD_V_NUMBER || a->sync_speed.value == 0)
                return -ENODATA;
        speed = a->sync_speed.value;
        left_kib = (a->progress.total - a->progress.done) / 2;
        *ret = left_kib / speed + (left_kib % speed != 0);
        return 0;
}

const char *md_member_role_to_string(md_member_role r) {
        static const char *const names[_MD_ROLE_MAX] = {
                [MD_ROLE_IN_SYNC] = "in_sync", [MD_ROLE_REBUILDING] = "rebuilding", [MD_ROLE_SPARE] = "spare",
                [MD_ROLE_FAULTY] = "faulty",   [MD_ROLE_JOURNAL] = "journal",       [MD_ROLE_UNKNOWN] = "unknown",
        };

        if (r < 0 || r >= _MD_ROLE_MAX)
                return NULL;
        return names[r];
}
