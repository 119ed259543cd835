/* SPDX-License-Identifier: MIT */
/*
 * An array's md/ folder, listed once per read.
 *
 * Opening a file is what a read of sysfs costs: the kernel allocates a file
 * and, for kernfs, an open-file record and a seq_file buffer, then frees
 * them on close, while the read itself only formats a few bytes. A failed
 * open of a missing attribute costs a path lookup too. The md/ folder has to
 * be listed anyway to find the dev-* member folders, and that one listing
 * also says which attributes this kernel and level have and of what type
 * (kernfs reports DT_REG for an attribute, DT_DIR for a group, DT_LNK for
 * rdN), so a missing one is known without trying it and a regular one needs
 * no fstat. The inode numbers it reports also tell whether a file kept open
 * since the last read (fdcache.c) is still the one a fresh open would find.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Names directly under md/ that the model reads, in strcmp order for bsearch. */
/* One per line, to keep the order plain. */
/* clang-format off */
static const char *const names[] = {
        "array_state",
        "bitmap",
        "bitmap_type",
        "chunk_size",
        "component_size",
        "degraded",
        "group_thread_cnt",
        "last_sync_action",
        "layout",
        "level",
        "metadata_version",
        "mismatch_cnt",
        "raid_disks",
        "reshape_position",
        "resync_start",
        "stripe_cache_active",
        "stripe_cache_size",
        "sync_action",
        "sync_completed",
        "sync_io_depth",
        "sync_max",
        "sync_min",
        "sync_speed",
        "sync_speed_max",
        "sync_speed_min",
        "uuid",
};
/* clang-format on */

_Static_assert(sizeof(names) / sizeof(names[0]) <= MD_LISTING_NAMES, "raise MD_LISTING_NAMES");

static int name_cmp(const void *key, const void *elem) {
        return strcmp(key, *(const char *const *)elem);
}

/* Index of @name in names[], or -1. */
static int name_index(const char *name) {
        const char *const *p;

        p = bsearch(name, names, sizeof(names) / sizeof(names[0]), sizeof(names[0]), name_cmp);
        return p ? (int)(p - names) : -1;
}

bool md_listing_knows(const char *name) {
        return name && name_index(name) >= 0;
}

static int grow_members(md_array *a) {
        unsigned cap = a->members_cap ? a->members_cap * 2 : 4;
        md_member *m;

        if (cap > 65536)
                return -E2BIG;
        m = realloc(a->members, cap * sizeof(*m));
        if (!m)
                return -ENOMEM;
        a->members = m;
        a->members_cap = cap;
        return 0;
}

/*
 * The member folder @entry ("dev-vda") goes into @a with its name only; any
 * other entry is not the listing's business. 0, or -ENOMEM / -E2BIG when the
 * buffer cannot grow.
 */
static int add_member(md_array *a, const char *entry) {
        const char *name;
        md_member *m;
        int k;

        if (strncmp(entry, MD_MEMBER_PREFIX, strlen(MD_MEMBER_PREFIX)) != 0)
                return 0;
        name = entry + strlen(MD_MEMBER_PREFIX);
        /* The kernel's names fit BDEVNAME_SIZE; anything else is not a member folder it made. */
        if (name[0] == '\0' || strlen(name) > MD_NAME_MAX) {
                a->bad |= UINT64_C(1) << MD_ATTR_MEMBERS;
                return 0;
        }
        if (a->n_members >= a->members_cap) {
                k = grow_members(a);
                if (k < 0)
                        return k;
        }
        m = &a->members[a->n_members++];
        memset(m, 0, sizeof(*m));
        snprintf(m->name, sizeof(m->name), "%s", name);
        return 0;
}

typedef struct listing_scan {
        md_listing *l;
        md_array *a;
} listing_scan;

static int listing_entry(const char *name, unsigned char type, ino_t ino, void *userdata) {
        listing_scan *s = userdata;
        int i;

        i = name_index(name);
        if (i >= 0) {
                s->l->type[i] = type;
                s->l->ino[i] = ino;
                return 0;
        }
        return add_member(s->a, name);
}

/*
 * md/ is opened for reading so it can be listed. Listing needs read
 * permission where the attributes below only need search permission, so a
 * folder that refuses it is opened as a path only and read without a listing.
 */
static int open_md(const md_root *dir, bool *ret_listable) {
        int fd;

        fd = md_openat_beneath(dir->fd, "md", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
                *ret_listable = true;
                return fd;
        }
        errno = -fd;
        if (errno == EACCES) {
                fd = md_openat_beneath(dir->fd, "md", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (fd >= 0) {
                        *ret_listable = false;
                        return fd;
                }
                errno = -fd;
        }
        /* A file named md, or none: this block device is not an array. */
        if (errno == ENOENT || errno == ENOTDIR)
                return -ENOENT;
        return -errno;
}

/* Ties the listing to the kept files of its array, on the filesystem md/ is on now. */
static void attach_kept(md_listing *l, md_fd_cache *cache, md_kept *k) {
        struct stat st;

        if (!cache || !k || fstat(l->md.fd, &st) < 0)
                return;
        md_kept_begin(cache, k, st.st_dev, l->type, l->ino);
        l->cache = cache;
        l->kept = k;
}

int md_listing_open(const md_root *dir, md_array *a, md_listing *ret) {
        return md_listing_open_kept(dir, a, NULL, NULL, ret);
}

int md_listing_open_kept(const md_root *dir, md_array *a, md_fd_cache *cache, md_kept *kept, md_listing *ret) {
        md_listing l = { .md = MD_ROOT_NULL, .dir_fd = dir ? dir->fd : -1 };
        listing_scan s = { .l = &l, .a = a };
        bool listable = false;
        int fd, k = -EACCES;

        if (!dir || dir->fd < 0 || !a || !ret)
                return -EINVAL;
        fd = open_md(dir, &listable);
        if (fd < 0)
                return fd;
        l.md.fd = fd;
        memset(l.type, MD_LISTING_ABSENT, sizeof(l.type));
        a->n_members = 0;
        if (listable)
                k = md_dir_scan_fd(fd, listing_entry, &s);
        if (k == -ENOMEM || k == -E2BIG) {
                md_listing_close(&l);
                return k;
        }
        /* Members listed before a failure are kept; the rest is unknown. */
        if (k < 0)
                a->bad |= UINT64_C(1) << MD_ATTR_MEMBERS;
        l.listed = k == 0;
        if (l.listed)
                attach_kept(&l, cache, kept);
        *ret = l;
        return 0;
}

void md_listing_close(md_listing *l) {
        if (!l)
                return;
        if (l->kept)
                md_kept_end(l->cache, l->kept);
        l->kept = NULL;
        md_root_close(&l->md);
}

ssize_t md_listing_read_path(const md_listing *l, const char *rel, char *buf, size_t size) {
        if (!l || !rel)
                return -EINVAL;
        if (l->kept)
                return md_kept_read_path(l->cache, l->kept, l->dir_fd, rel, buf, size);
        return md_root_read(&(const md_root){ .fd = l->dir_fd }, rel, buf, size);
}

/* Below md/ but not vouched for by the listing: read by path from the array's folder. */
static ssize_t read_below_md(const md_listing *l, const char *rel, char *buf, size_t size) {
        char path[64];
        int n;

        if (!l->kept)
                return md_root_read(&l->md, rel, buf, size);
        n = snprintf(path, sizeof(path), "md/%s", rel);
        if (n < 0 || (size_t)n >= sizeof(path))
                return md_root_read(&l->md, rel, buf, size);
        return md_listing_read_path(l, path, buf, size);
}

/* Index in names[] of @rel's first component, or -1 when the listing cannot tell. */
static int listed_index(const md_listing *l, const char *rel) {
        char first[32];
        size_t n = strcspn(rel, "/");

        if (!l->listed || n >= sizeof(first))
                return -1;
        memcpy(first, rel, n);
        first[n] = '\0';
        return name_index(first);
}

/* The listed d_type of @rel's first component, or -1 when the listing cannot tell. */
static int listed_type(const md_listing *l, const char *rel) {
        int i = listed_index(l, rel);

        return i < 0 ? -1 : l->type[i];
}

ssize_t md_listing_read(const md_listing *l, const char *rel, char *buf, size_t size) {
        int i, type;

        if (!l || !rel)
                return -EINVAL;
        i = listed_index(l, rel);
        type = i < 0 ? -1 : l->type[i];
        if (type == MD_LISTING_ABSENT)
                return -ENOENT;
        /* Below a listed folder ("bitmap/location"), or a symlink: checked by path. */
        if (i < 0 || strchr(rel, '/') || type == DT_LNK || type == DT_UNKNOWN)
                return read_below_md(l, rel, buf, size);
        if (type == DT_REG && l->kept)
                return md_kept_read(l->cache, l->kept, l->md.fd, (unsigned)i, rel, l->ino[i], buf, size);
        if (type == DT_REG)
                return md_root_read_listed(&l->md, rel, buf, size);
        if (type == DT_DIR)
                return -EISDIR;
        /* A FIFO, device or socket is not an attribute: refused without opening it. */
        return -EINVAL;
}

int md_listing_is_dir(const md_listing *l, const char *name) {
        int type;

        if (!l || !name)
                return -EINVAL;
        type = listed_type(l, name);
        if (type < 0 || strchr(name, '/') || type == DT_LNK || type == DT_UNKNOWN)
                return md_root_is_dir(&l->md, name);
        return type == DT_DIR ? 1 : 0;
}
