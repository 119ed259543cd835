/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Pure parsers for the md sysfs attribute formats: bytes in, struct out.
 * No I/O, no logging, no allocation. Each takes the attribute's bytes and
 * their length (a trailing "\n" is accepted, as the kernel always adds one)
 * and returns 0 or a negative errno (-EINVAL for garbage, -ERANGE for numbers
 * that overflow 64 bits). Output parameters are written only on success.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum md_level {
        MD_LEVEL_LINEAR,
        MD_LEVEL_RAID0,
        MD_LEVEL_RAID1,
        MD_LEVEL_RAID4,
        MD_LEVEL_RAID5,
        MD_LEVEL_RAID6,
        MD_LEVEL_RAID10,
        MD_LEVEL_MULTIPATH,
        MD_LEVEL_FAULTY,
        MD_LEVEL_CONTAINER,
        MD_LEVEL_NONE, /* empty "level": inactive or still assembling */
        _MD_LEVEL_MAX,
        _MD_LEVEL_INVALID = -EINVAL, /* unknown or unreadable */
} md_level;

/* Bit for a level, for the tunables table's level masks. */
#define MD_LEVEL_BIT(l) (1u << (l))
#define MD_LEVELS_SYNCING                                                                                              \
        (MD_LEVEL_BIT(MD_LEVEL_RAID1) | MD_LEVEL_BIT(MD_LEVEL_RAID4) | MD_LEVEL_BIT(MD_LEVEL_RAID5) |                  \
         MD_LEVEL_BIT(MD_LEVEL_RAID6) | MD_LEVEL_BIT(MD_LEVEL_RAID10))
#define MD_LEVELS_PARITY (MD_LEVEL_BIT(MD_LEVEL_RAID4) | MD_LEVEL_BIT(MD_LEVEL_RAID5) | MD_LEVEL_BIT(MD_LEVEL_RAID6))

typedef enum md_array_state {
        MD_ARRAY_CLEAR,
        MD_ARRAY_INACTIVE,
        MD_ARRAY_SUSPENDED,
        MD_ARRAY_READONLY,
        MD_ARRAY_READ_AUTO,
        MD_ARRAY_CLEAN,
        MD_ARRAY_ACTIVE,
        MD_ARRAY_WRITE_PENDING,
        MD_ARRAY_ACTIVE_IDLE,
        MD_ARRAY_BROKEN,
        _MD_ARRAY_STATE_MAX,
        _MD_ARRAY_STATE_INVALID = -EINVAL,
} md_array_state;

typedef enum md_sync_action {
        MD_SYNC_IDLE,
        MD_SYNC_RESYNC,
        MD_SYNC_RECOVER,
        MD_SYNC_CHECK,
        MD_SYNC_REPAIR,
        MD_SYNC_RESHAPE,
        MD_SYNC_FROZEN,
        _MD_SYNC_ACTION_MAX,
        _MD_SYNC_ACTION_INVALID = -EINVAL,
} md_sync_action;

/*
 * md/metadata_version: "none" (no superblock), a native version ("1.2",
 * "0.90"), or "external:NAME" when user space keeps the metadata (IMSM, DDF:
 * mdmon, and mdadm during a reshape, drive the array then).
 */
typedef enum md_metadata {
        MD_METADATA_NONE,
        MD_METADATA_NATIVE,
        MD_METADATA_EXTERNAL,
        _MD_METADATA_MAX,
        _MD_METADATA_INVALID = -EINVAL,
} md_metadata;

/* Member state flags, one bit per word of dev-NAME/state. */
typedef enum md_member_flag {
        MD_MEMBER_FAULTY = 1u << 0,
        MD_MEMBER_IN_SYNC = 1u << 1,
        MD_MEMBER_WRITE_MOSTLY = 1u << 2,
        MD_MEMBER_BLOCKED = 1u << 3,
        MD_MEMBER_SPARE = 1u << 4,
        MD_MEMBER_WRITE_ERROR = 1u << 5,
        MD_MEMBER_WANT_REPLACEMENT = 1u << 6,
        MD_MEMBER_REPLACEMENT = 1u << 7,
        MD_MEMBER_JOURNAL = 1u << 8,
        MD_MEMBER_FAILFAST = 1u << 9,
        MD_MEMBER_EXTERNAL_BBL = 1u << 10,
        MD_MEMBER_CLUSTER_ADD = 1u << 11,
        MD_MEMBER_OTHER = 1u << 31, /* a word this parser does not know */
} md_member_flag;

/*
 * How a value reads. Most tunables are plain numbers; sync_speed_min/max read
 * "N (system)" or "N (local)"; sync_max reads "max" or a number; sync_speed
 * and slot read "none"; sync_completed reads "none", "delayed" or "N / M".
 */
typedef enum md_vkind {
        MD_V_ABSENT,  /* the file does not exist (kernel or level lacks it) */
        MD_V_UNKNOWN, /* present but unreadable or unparsable */
        MD_V_NUMBER,  /* "N" */
        MD_V_SYSTEM,  /* "N (system)": follows the global sysctl */
        MD_V_LOCAL,   /* "N (local)": set for this array */
        MD_V_MAX,     /* "max" */
        MD_V_NONE,    /* "none" */
        _MD_VKIND_MAX,
} md_vkind;

typedef struct md_tval {
        md_vkind kind;
        uint64_t value; /* meaningful for NUMBER, SYSTEM, LOCAL */
} md_tval;

/* Whether @v holds a number: "N", "N (system)" or "N (local)". */
static inline bool md_tval_has_number(const md_tval *v) {
        return v->kind == MD_V_NUMBER || v->kind == MD_V_SYSTEM || v->kind == MD_V_LOCAL;
}

/* The number a counter or size file read as a plain "N" holds; 0 when it was absent or unreadable. */
static inline uint64_t md_tval_number(const md_tval *v) {
        return v->kind == MD_V_NUMBER ? v->value : 0;
}

/* "N / M" new (old) during a reshape, for raid_disks, chunk_size and layout. */
typedef struct md_newold {
        md_vkind kind;      /* NUMBER when readable, ABSENT/UNKNOWN otherwise */
        uint64_t value;     /* the new value */
        uint64_t old_value; /* equals value unless reshaping */
        bool reshaping;     /* the "(old)" part was present */
} md_newold;

typedef enum md_progress_kind {
        MD_PROGRESS_ABSENT,  /* no sync_completed file (raid0, linear, inactive) */
        MD_PROGRESS_UNKNOWN, /* unreadable or unparsable */
        MD_PROGRESS_NONE,    /* "none": nothing running */
        MD_PROGRESS_DELAYED, /* "delayed": waiting for another array on the same disks */
        MD_PROGRESS_RUNNING, /* "N / M" */
        /*
         * "N / M" while sync_speed reads "none". sync_completed prints
         * curr_resync_completed whenever an operation is flagged running,
         * but sync_speed says "none" until md_do_sync() has begun its loop
         * and again once it has left it: while an operation is starting, N
         * is still the previous operation's last checkpoint (at a check's
         * start on 6.12 and 7.3, 94 % while mdstat said 0 %);
         * while it is finishing, the one it ends on. Neither is a position.
         * Set by the array reader when it reads both files; never parsed.
         */
        MD_PROGRESS_BETWEEN,
} md_progress_kind;

typedef struct md_progress {
        md_progress_kind kind;
        uint64_t done;  /* 512-byte sectors */
        uint64_t total; /* 512-byte sectors */
} md_progress;

/* Unsigned decimal, optional trailing newline, nothing else. -ERANGE past UINT64_MAX. */
int md_parse_u64(const char *buf, size_t len, uint64_t *ret);

int md_parse_level(const char *buf, size_t len, md_level *ret);
int md_parse_array_state(const char *buf, size_t len, md_array_state *ret);
int md_parse_sync_action(const char *buf, size_t len, md_sync_action *ret);
int md_parse_metadata(const char *buf, size_t len, md_metadata *ret);

/*
 * A choice list as md prints it ("[none] bitmap llbitmap", md/bitmap_type on
 * 7.x): the one word in brackets, into @ret (NUL-terminated). -EINVAL unless
 * exactly one word is bracketed; -ENOBUFS when it does not fit @size.
 */
int md_parse_choice(const char *buf, size_t len, char *ret, size_t size);

/* "in_sync,write_mostly" -> flags. An empty list is valid (0). */
int md_parse_member_state(const char *buf, size_t len, unsigned *ret_flags);

/* "1000 (system)", "50000 (local)", "max", "none" or "N": whatever the attribute uses. */
int md_parse_tval(const char *buf, size_t len, md_tval *ret);

/* "5 (4)" during a reshape, "4" otherwise. */
int md_parse_newold(const char *buf, size_t len, md_newold *ret);

/* "none", "delayed", "N / M". done > total is rejected (-EINVAL). */
int md_parse_progress(const char *buf, size_t len, md_progress *ret);

/* 36-char uuid "7ac7b4d7-c925-6f89-525e-4caecab28aec"; copies it into ret (>= 37 bytes). */
int md_parse_uuid(const char *buf, size_t len, char ret[37]);

/* What sys/block/<dev>/stat says of the requests read and written (not discards or flushes). */
typedef struct md_block_stat {
        uint64_t sectors;   /* sectors read plus written */
        uint64_t requests;  /* requests completed, reads plus writes */
        uint64_t wait_ms;   /* the milliseconds those requests took, summed over them */
        bool has_wait;      /* false when the file ends before the write ticks (8th counter) */
        uint64_t in_flight; /* requests submitted and not yet completed, now */
        bool has_in_flight; /* false when the file ends before it (9th counter) */
} md_block_stat;

/*
 * sys/block/<dev>/stat. At least 7 counters; -EINVAL otherwise, -ERANGE
 * when a sum overflows.
 */
int md_parse_block_stat(const char *buf, size_t len, md_block_stat *ret);

/* Names for enums, stable: they are the kernel's own words. NULL for out-of-range. */
const char *md_level_to_string(md_level l);
const char *md_array_state_to_string(md_array_state s);
const char *md_sync_action_to_string(md_sync_action a);

/* Formats a tval as the kernel would print it ("1000 (system)", "max", "256"). */
int md_tval_format(const md_tval *v, char *buf, size_t size);
