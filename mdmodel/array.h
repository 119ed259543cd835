/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The md array model: everything mdboost knows about one array and the
 * global limits, read from sysfs under a root.
 *
 * Reading all arrays runs every collectd interval and every service poll, so
 * it allocates only when the number of arrays or of members grows: a set is
 * reused across reads and keeps its buffers. A set also keeps the attribute
 * files of its first arrays open between reads (at most MD_SET_FD_BUDGET
 * descriptors, O_CLOEXEC), as reading an open sysfs attribute again costs a
 * fraction of opening it; md_array_set_free() closes them.
 *
 * A file that a kernel or a level does not have is reported as absent
 * (MD_V_ABSENT, MD_PROGRESS_ABSENT, ...), not as an error. A file that exists
 * but cannot be read or parsed is reported as unknown and its bit is set in
 * md_array.bad, so a caller can warn once per problem.
 */

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "root.h"
#include "tunables.h"

/*
 * Descriptors a set keeps open at most: a quarter of the 1024 that systemd
 * gives a service by default (collectd shares them with every plugin); each
 * pins a page of kernel memory for its seq_file buffer, 1 MiB in all.
 */
#define MD_SET_FD_BUDGET 256

/* Attributes that can be unreadable, one bit each in md_array.bad. */
typedef enum md_attr {
        MD_ATTR_LEVEL,
        MD_ATTR_ARRAY_STATE,
        MD_ATTR_UUID,
        MD_ATTR_SIZE,
        MD_ATTR_COMPONENT_SIZE,
        MD_ATTR_RAID_DISKS,
        MD_ATTR_CHUNK_SIZE,
        MD_ATTR_DEGRADED,
        MD_ATTR_SYNC_ACTION,
        MD_ATTR_LAST_SYNC_ACTION,
        MD_ATTR_SYNC_COMPLETED,
        MD_ATTR_SYNC_SPEED,
        MD_ATTR_MISMATCH_CNT,
        MD_ATTR_RESHAPE_POSITION,
        MD_ATTR_BITMAP,         /* never unreadable: a bit only so that it can be left unread */
        MD_ATTR_IO,             /* sys/block/<name>/stat */
        MD_ATTR_MEMBERS,        /* a member folder or its state/slot was unreadable */
        MD_ATTR_METADATA,       /* md/metadata_version */
        MD_ATTR_MEMBER_OFFSETS, /* each member's offset and new_offset (read with MD_ATTR_MEMBERS) */
        MD_ATTR_RESYNC_START,   /* md/resync_start */
        MD_ATTR_LAYOUT,         /* md/layout, read for raid10 only */
        MD_ATTR_TUNABLES,       /* first of _MD_T_ARRAY_MAX bits, one per array tunable */
        _MD_ATTR_MAX = MD_ATTR_TUNABLES + _MD_T_ARRAY_MAX,
} md_attr;

#define MD_ATTR_BIT(a) (UINT64_C(1) << (a))
#define MD_ATTR_TUNABLE_BIT(t) MD_ATTR_BIT(MD_ATTR_TUNABLES + (t))
#define MD_ATTRS_ALL (MD_ATTR_BIT(_MD_ATTR_MAX) - 1)

/* What a member is doing, derived from its state flags, slot and recovery_start. */
typedef enum md_member_role {
        MD_ROLE_IN_SYNC,    /* active and in sync */
        MD_ROLE_REBUILDING, /* has a slot but is not in sync yet: being recovered onto */
        MD_ROLE_SPARE,      /* hot spare: no slot */
        MD_ROLE_FAULTY,     /* failed */
        MD_ROLE_JOURNAL,    /* raid4/5/6 write journal */
        MD_ROLE_UNKNOWN,    /* no readable state */
        _MD_ROLE_MAX,
} md_member_role;

typedef struct md_member {
        char name[MD_NAME_MAX + 1]; /* "vda", "sdb1": dev-NAME without "dev-" */
        unsigned flags;             /* md_member_flag bits */
        int64_t slot;               /* -1 for "none" or unreadable */
        md_tval recovery_start;     /* sectors, NONE when not recovering */
        md_tval offset;             /* where the data starts on the member, sectors */
        md_tval new_offset;         /* where a reshape puts it; == offset unless it moves */
        md_member_role role;
} md_member;

/*
 * md's sync_speed, the rate md_do_sync() compares with the floor and the
 * ceiling, is its progress since the oldest of ten marks taken 3 s apart:
 * an average over up to this long.
 */
#define MD_SYNC_SPEED_SPAN_USEC (30ull * 1000000ull)

typedef struct md_array {
        char name[MD_NAME_MAX + 1]; /* kernel name: "md0", "md127", "md_home" */
        md_level level;
        md_array_state state;
        char uuid[37];          /* empty when absent (no superblock) */
        uint64_t size_bytes;    /* from sys/block/<name>/size (sectors) x 512 */
        md_tval component_size; /* KiB per member */
        md_newold raid_disks;
        md_newold chunk_size; /* bytes */
        /* md/layout of a raid10 (absent for other levels): near copies in bits 0-7, far
         * copies in bits 8-15, the "offset" flag in bit 16 (mdadm's n2, f2, o2). */
        md_newold layout;
        md_tval degraded;         /* number of missing members */
        md_tval reshape_position; /* sectors or NONE */
        md_metadata metadata;     /* _MD_METADATA_INVALID when absent or unreadable */
        md_tval resync_start;     /* sectors in sync from the start; NONE when all of it is */
        bool has_bitmap;
        /* md/bitmap_type's current choice ("none", "bitmap", "llbitmap" for the lockless
         * bitmap), "" where the kernel has no such file (before 7.x) or it is unreadable. */
        char bitmap_type[16];

        md_member *members; /* n_members valid entries, sorted by slot then name */
        unsigned n_members;
        unsigned members_cap; /* private: allocated entries */

        md_sync_action sync_action; /* _MD_SYNC_ACTION_INVALID when absent or unknown */
        md_sync_action last_sync_action;
        md_progress progress;
        md_tval sync_speed; /* KiB/s or NONE */
        md_tval mismatch_cnt;
        md_tval io_sectors;   /* sectors the array's users read and wrote since it started */
        md_tval io_requests;  /* the users' requests completed since it started */
        md_tval io_wait_ms;   /* the milliseconds those requests took, summed; ABSENT when stat has no such counter */
        md_tval io_in_flight; /* the users' requests submitted and not yet completed, now; ABSENT as above */
        md_tval io_stats;     /* queue/iostats: 1 when io_sectors counts them, 0 when it stands still */
        md_tval tunables[_MD_T_ARRAY_MAX];

        uint64_t bad; /* 1 << md_attr for each present but unreadable attribute */
} md_array;

typedef struct md_globals {
        md_tval speed_limit_min; /* KiB/s */
        md_tval speed_limit_max; /* KiB/s */
        md_tval sync_io_depth;   /* requests; ABSENT before Linux 6.16 */
} md_globals;

typedef struct md_fd_cache md_fd_cache;

typedef struct md_array_set {
        md_array *arrays; /* n valid entries, sorted by name */
        unsigned n;
        unsigned cap;     /* private */
        md_fd_cache *fds; /* private: files kept open between reads; so a set is never copied */
} md_array_set;

/* Member counts in collectd md plugin terms, plus the disks being rebuilt. */
typedef struct md_disk_counts {
        unsigned active; /* in sync and not faulty */
        unsigned failed;
        unsigned spare;      /* hot spares only */
        unsigned missing;    /* raid_disks minus members holding a slot */
        unsigned rebuilding; /* slot held, being recovered */
} md_disk_counts;

/*
 * Lists and reads every md array under the root into @set, reusing its
 * buffers. Arrays are the sys/block/md* entries with an md/ folder, including
 * inactive ones. An array that vanishes while being read is skipped.
 */
int md_read_arrays(const md_root *r, md_array_set *set);

/*
 * As md_read_arrays, reading only the attributes in @attrs (MD_ATTR_BIT()
 * and MD_ATTR_TUNABLE_BIT() values): every file costs a read each time, and a
 * caller that polls needs few of them. The level and array_state are always
 * read; what is left out reads as absent (members: none listed).
 */
int md_read_arrays_of(const md_root *r, md_array_set *set, uint64_t attrs);

/*
 * Reads one array by kernel name into @a (whose member buffer is reused).
 * -EINVAL for an invalid name, -ENOENT when there is no such array.
 */
int md_read_array(const md_root *r, const char *name, md_array *a);

int md_read_globals(const md_root *r, md_globals *ret);

void md_array_free(md_array *a); /* frees members; the struct itself is the caller's */
void md_array_set_free(md_array_set *set);

/*
 * Finds an array in @set by kernel name ("md0"), device path ("/dev/md0") or
 * UUID, in sysfs form (7ac7b4d7-c925-6f89-525e-4caecab28aec) or mdadm's
 * (7ac7b4d7:c9256f89:525e4cae:cab28aec), any case. NULL if none matches.
 */
const md_array *md_array_set_find(const md_array_set *set, const char *spec);

void md_array_disk_counts(const md_array *a, md_disk_counts *ret);

/* The level can resync/recover (raid1/4/5/6/10). */
bool md_array_has_redundancy(const md_array *a);

/*
 * The slots whose member is missing or not in sync yet, as md's own
 * md/degraded counts them, from raid_disks and @c (md_array_disk_counts() or
 * md_mdstat_disk_counts()): a replacement being rebuilt beside the member it
 * replaces leaves the array whole. During a reshape, of the smaller of the
 * new and old raid_disks. -ENODATA for a level without redundancy or an
 * unknown raid_disks.
 */
int md_array_slots_down(const md_array *a, const md_disk_counts *c, unsigned *ret);

/*
 * How many more members the array can lose and still hold every block, from
 * its level, raid_disks, raid10 layout and @c (md_array_disk_counts() or
 * md_mdstat_disk_counts(): a slot counts only while its member is in sync,
 * so a member being rebuilt holds nothing yet). raid1: in-sync members minus
 * one; raid4/5: one, or none once a slot is down; raid6: two minus the slots
 * down; raid10: its copies of each block minus one, minus the slots down.
 * For raid10 with more than two copies that is a lower bound: two slots down
 * in different mirror sets take one copy each from two sets, yet count as
 * two here. 0 means one more failure loses data. -ENODATA for a level
 * without redundancy or an unknown raid_disks.
 */
int md_array_failures_tolerated(const md_array *a, const md_disk_counts *c, unsigned *ret);

/*
 * Whether @op, now over on @a (sync_action reads idle), ran to its end. md
 * forgets sync_min and sync_max only then ("we completed so min/max setting
 * can be forgotten", md_do_sync): after an interrupted operation (written
 * idle or frozen, a member failed, the array stopped) they keep their
 * values, and an original number must come back. What each operation leaves
 * when interrupted: a resync, resync_start at its checkpoint; a recovery, a
 * member still being rebuilt; a check or repair, sync_min at its checkpoint;
 * a reshape, reshape_position. Needs MD_ATTR_RESYNC_START and the members.
 */
bool md_operation_completed(const md_array *a, md_sync_action op);

/*
 * A reshape that moves the data offset (each member's new_offset differs
 * from its offset) writes the new layout into space nothing reads yet, so it
 * needs no backup: mdadm leaves sync_max at max for it. Every other reshape
 * (in-place level, layout or chunk changes, shrinks, grows without room)
 * rewrites stripes in place, and mdadm steps sync_max to what it has backed
 * up. True only when every member holding a slot has both offsets read and
 * they differ; needs MD_ATTR_MEMBER_OFFSETS.
 */
bool md_array_moves_data_offset(const md_array *a);

/*
 * Who can see the array's users. md accounts a user's bio on the md device
 * (its stat file, its in-flight count) only while queue/iostats is 1. Before
 * 6.16 md's rebuild throttle (is_mddev_idle) judges the members' own counts
 * less its sync I/O, so it still yields to users with accounting off; only
 * the md device's stat, which mdboost's governor reads, stands still. From
 * 6.16 (where md/sync_io_depth appeared with it) the throttle asks the md
 * device for I/O completed and in flight, and with accounting off it sees an
 * idle array: the rebuild runs at its ceiling whatever the users do
 * (measured on 7.3.4 at sync_io_depth 1, a reader streaming 1 MiB requests
 * from a resyncing raid1 on 4 MB/s disks kept 3390 KiB/s with accounting on,
 * 1344 with it off; on 6.1 it kept 3222-3353 KiB/s either way).
 */
typedef enum md_user_io {
        MD_USER_IO_UNKNOWN,   /* no queue/iostats read (not asked for, absent, unreadable) */
        MD_USER_IO_COUNTED,   /* iostats 1 */
        MD_USER_IO_UNCOUNTED, /* iostats 0 before 6.16: md sees users, the md device's stat does not */
        MD_USER_IO_UNSEEN,    /* iostats 0 from 6.16: md's throttle sees no users either */
        _MD_USER_IO_MAX,
} md_user_io;

/* Needs MD_ATTR_IO, and MD_ATTR_TUNABLE_BIT(MD_T_SYNC_IO_DEPTH) to tell UNSEEN from UNCOUNTED. */
md_user_io md_array_user_io(const md_array *a);
const char *md_user_io_to_string(md_user_io u); /* "", "counted", "uncounted", "unseen" */

/* An operation runs (progress RUNNING), waits (DELAYED), starts or ends (BETWEEN). */
bool md_array_busy(const md_array *a);

/* Percent 0..100 of the running operation; -ENODATA when none runs. */
int md_array_progress_percent(const md_array *a, double *ret);

/* Seconds left at the current sync_speed; -ENODATA when unknown. */
int md_array_seconds_left(const md_array *a, uint64_t *ret);

const char *md_member_role_to_string(md_member_role r);
