/* SPDX-License-Identifier: MIT */
/*
 * Reading arrays from sys/block/<name>/.
 *
 * An md device has a sys/block entry from the moment it is opened, even
 * before it has members; its md/ folder is what makes it an array. Levels
 * that cannot sync (raid0, linear) and inactive arrays have no sync files,
 * which is reported as absent, never as an error.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BIT(a) MD_ATTR_BIT(a)

/* The folders of one array being read. */
typedef struct array_dirs {
        md_root dir;   /* sys/block/<name> */
        md_listing md; /* its md/, listed */
        uint64_t want; /* MD_ATTR_BIT()s to read; the rest reads as absent */
} array_dirs;

static bool wanted(const array_dirs *d, unsigned attr) {
        return (d->want & BIT(attr)) != 0;
}

/* Reads an attribute below the array's folder: length, or negative errno. */
static ssize_t read_attr(const array_dirs *d, const char *rel, char *buf, size_t size) {
        if (strncmp(rel, "md/", 3) == 0)
                return md_listing_read(&d->md, rel + 3, buf, size);
        return md_listing_read_path(&d->md, rel, buf, size);
}

/* A value attribute: absent when missing, unknown (and marked bad) when unreadable. */
static md_tval read_tval(const array_dirs *d, const char *rel, md_array *a, unsigned attr) {
        char buf[MD_ATTR_MAX];
        ssize_t n;
        md_tval v;

        if (!wanted(d, attr))
                return (md_tval){ .kind = MD_V_ABSENT };
        n = read_attr(d, rel, buf, sizeof(buf));
        if (n == -ENOENT)
                return (md_tval){ .kind = MD_V_ABSENT };
        if (n < 0 || md_parse_tval(buf, (size_t)n, &v) < 0) {
                a->bad |= BIT(attr);
                return (md_tval){ .kind = MD_V_UNKNOWN };
        }
        return v;
}

static md_newold read_newold(const array_dirs *d, const char *rel, md_array *a, md_attr attr) {
        char buf[MD_ATTR_MAX];
        md_newold v;
        ssize_t n;

        if (!wanted(d, attr))
                return (md_newold){ .kind = MD_V_ABSENT };
        n = read_attr(d, rel, buf, sizeof(buf));
        if (n == -ENOENT)
                return (md_newold){ .kind = MD_V_ABSENT };
        if (n < 0 || md_parse_newold(buf, (size_t)n, &v) < 0) {
                a->bad |= BIT(attr);
                return (md_newold){ .kind = MD_V_UNKNOWN };
        }
        return v;
}

static void read_level_state(const array_dirs *d, md_array *a) {
        char buf[MD_ATTR_MAX];
        ssize_t n;

        a->level = _MD_LEVEL_INVALID;
        n = read_attr(d, "md/level", buf, sizeof(buf));
        if (n != -ENOENT && (n < 0 || md_parse_level(buf, (size_t)n, &a->level) < 0))
                a->bad |= BIT(MD_ATTR_LEVEL);

        a->state = _MD_ARRAY_STATE_INVALID;
        n = read_attr(d, "md/array_state", buf, sizeof(buf));
        if (n != -ENOENT && (n < 0 || md_parse_array_state(buf, (size_t)n, &a->state) < 0))
                a->bad |= BIT(MD_ATTR_ARRAY_STATE);
}

static void read_metadata(const array_dirs *d, md_array *a) {
        char buf[MD_ATTR_MAX];
        ssize_t n;

        a->metadata = _MD_METADATA_INVALID;
        if (!wanted(d, MD_ATTR_METADATA))
                return;
        n = read_attr(d, "md/metadata_version", buf, sizeof(buf));
        if (n != -ENOENT && (n < 0 || md_parse_metadata(buf, (size_t)n, &a->metadata) < 0))
                a->bad |= BIT(MD_ATTR_METADATA);
}

static void read_uuid(const array_dirs *d, md_array *a) {
        char buf[MD_ATTR_MAX];
        ssize_t n;

        a->uuid[0] = '\0';
        if (!wanted(d, MD_ATTR_UUID))
                return;
        n = read_attr(d, "md/uuid", buf, sizeof(buf));
        if (n != -ENOENT && (n < 0 || md_parse_uuid(buf, (size_t)n, a->uuid) < 0))
                a->bad |= BIT(MD_ATTR_UUID);
}

/* sys/block/<name>/size is in 512-byte sectors whatever the device's block size. */
static void read_size(const array_dirs *d, md_array *a) {
        md_tval v = read_tval(d, "size", a, MD_ATTR_SIZE);

        a->size_bytes = 0;
        if (v.kind == MD_V_ABSENT || v.kind == MD_V_UNKNOWN)
                return;
        if (v.kind != MD_V_NUMBER || v.value > UINT64_MAX / 512) {
                a->bad |= BIT(MD_ATTR_SIZE);
                return;
        }
        a->size_bytes = v.value * 512;
}

/*
 * The kernel writes a bitmap/ group for every array (md_bitmap_group); its
 * location reads "none" when there is no bitmap, "+8" or "file" otherwise.
 */
static void read_bitmap(const array_dirs *d, md_array *a) {
        char buf[64];
        ssize_t n;

        a->has_bitmap = false;
        a->bitmap_type[0] = 0;
        if (!wanted(d, MD_ATTR_BITMAP))
                return;
        /* 7.x: which bitmap the array uses; the lockless one has no bitmap/ group. */
        n = read_attr(d, "md/bitmap_type", buf, sizeof(buf));
        if (n > 0 && md_parse_choice(buf, (size_t)n, a->bitmap_type, sizeof(a->bitmap_type)) < 0)
                a->bitmap_type[0] = 0;
        if (strcmp(a->bitmap_type, "llbitmap") == 0) {
                a->has_bitmap = true;
                return;
        }
        n = read_attr(d, "md/bitmap/location", buf, sizeof(buf));
        if (n == -ENOENT) {
                a->has_bitmap = md_listing_is_dir(&d->md, "bitmap") == 1;
                return;
        }
        a->has_bitmap = n > 0 && strcmp(buf, "none\n") != 0 && strcmp(buf, "none") != 0 && strcmp(buf, "\n") != 0;
}

static md_sync_action read_action(const array_dirs *d, const char *rel, md_array *a, md_attr attr) {
        char buf[MD_ATTR_MAX];
        md_sync_action v;
        ssize_t n;

        if (!wanted(d, attr))
                return _MD_SYNC_ACTION_INVALID;
        n = read_attr(d, rel, buf, sizeof(buf));
        if (n == -ENOENT)
                return _MD_SYNC_ACTION_INVALID;
        if (n < 0 || md_parse_sync_action(buf, (size_t)n, &v) < 0) {
                a->bad |= BIT(attr);
                return _MD_SYNC_ACTION_INVALID;
        }
        return v;
}

static void read_progress(const array_dirs *d, md_array *a) {
        char buf[MD_ATTR_MAX];
        ssize_t n;

        n = wanted(d, MD_ATTR_SYNC_COMPLETED) ? read_attr(d, "md/sync_completed", buf, sizeof(buf)) : -ENOENT;
        if (n == -ENOENT) {
                a->progress = (md_progress){ .kind = MD_PROGRESS_ABSENT };
                return;
        }
        if (n < 0 || md_parse_progress(buf, (size_t)n, &a->progress) < 0) {
                a->bad |= BIT(MD_ATTR_SYNC_COMPLETED);
                a->progress = (md_progress){ .kind = MD_PROGRESS_UNKNOWN };
        }
}

static void read_io(const array_dirs *d, md_array *a) {
        char buf[MD_ATTR_MAX];
        md_block_stat st;
        ssize_t n;

        /* md accounts a user's bio (the stat file below) only while the md
         * device's queue/iostats is 1; at 0 that count stands still. md
         * counts from the bio's submission to its completion, the time the
         * user waited, queueing behind the rebuild on the members included. */
        a->io_stats = read_tval(d, "queue/iostats", a, MD_ATTR_IO);
        a->io_sectors = a->io_requests = a->io_wait_ms = a->io_in_flight = (md_tval){ .kind = MD_V_ABSENT };
        n = wanted(d, MD_ATTR_IO) ? read_attr(d, "stat", buf, sizeof(buf)) : -ENOENT;
        if (n == -ENOENT)
                return;
        if (n < 0 || md_parse_block_stat(buf, (size_t)n, &st) < 0) {
                a->bad |= BIT(MD_ATTR_IO);
                a->io_sectors = a->io_requests = a->io_wait_ms = a->io_in_flight = (md_tval){ .kind = MD_V_UNKNOWN };
                return;
        }
        a->io_sectors = (md_tval){ .kind = MD_V_NUMBER, .value = st.sectors };
        a->io_requests = (md_tval){ .kind = MD_V_NUMBER, .value = st.requests };
        if (st.has_wait)
                a->io_wait_ms = (md_tval){ .kind = MD_V_NUMBER, .value = st.wait_ms };
        if (st.has_in_flight)
                a->io_in_flight = (md_tval){ .kind = MD_V_NUMBER, .value = st.in_flight };
}

static void read_operation(const array_dirs *d, md_array *a) {
        a->sync_action = read_action(d, "md/sync_action", a, MD_ATTR_SYNC_ACTION);
        a->last_sync_action = read_action(d, "md/last_sync_action", a, MD_ATTR_LAST_SYNC_ACTION);
        /* sync_speed first: its "none" dates the checkpoint read after it. */
        a->sync_speed = read_tval(d, "md/sync_speed", a, MD_ATTR_SYNC_SPEED);
        read_progress(d, a);
        if (a->progress.kind == MD_PROGRESS_RUNNING && a->sync_speed.kind == MD_V_NONE)
                a->progress.kind = MD_PROGRESS_BETWEEN;
        a->mismatch_cnt = read_tval(d, "md/mismatch_cnt", a, MD_ATTR_MISMATCH_CNT);
        a->reshape_position = read_tval(d, "md/reshape_position", a, MD_ATTR_RESHAPE_POSITION);
        a->resync_start = read_tval(d, "md/resync_start", a, MD_ATTR_RESYNC_START);
        read_io(d, a);
}

static void read_geometry(const array_dirs *d, md_array *a) {
        read_size(d, a);
        a->component_size = read_tval(d, "md/component_size", a, MD_ATTR_COMPONENT_SIZE);
        a->raid_disks = read_newold(d, "md/raid_disks", a, MD_ATTR_RAID_DISKS);
        a->chunk_size = read_newold(d, "md/chunk_size", a, MD_ATTR_CHUNK_SIZE);
        /* raid10's copies of each block; the other levels' layouts say nothing about them. */
        if (a->level == MD_LEVEL_RAID10)
                a->layout = read_newold(d, "md/layout", a, MD_ATTR_LAYOUT);
        else
                a->layout = (md_newold){ .kind = MD_V_ABSENT };
        a->degraded = read_tval(d, "md/degraded", a, MD_ATTR_DEGRADED);
        read_bitmap(d, a);
}

static void read_tunables(const array_dirs *d, md_array *a) {
        for (int t = 0; t < _MD_T_ARRAY_MAX; t++)
                a->tunables[t] = read_tval(d, md_tunable_get((md_tunable)t)->path, a, MD_ATTR_TUNABLES + (unsigned)t);
}

/*
 * Opens sys/block/<name> as a root of its own and lists its md/ folder,
 * collecting the member names into @a; -ENOENT unless it has an md/ folder.
 */
static int open_array_dirs(const md_root *r, const char *name, md_array *a, md_fd_cache *cache, md_kept *kept,
                           uint64_t want, array_dirs *ret) {
        char path[MD_NAME_MAX + 16];
        array_dirs d;
        int k;

        snprintf(path, sizeof(path), "sys/block/%s", name);
        k = md_root_open_at(r, path, &d.dir);
        if (k == -ENOTDIR)
                return -ENOENT;
        if (k < 0)
                return k;
        k = md_listing_open_kept(&d.dir, a, cache, kept, &d.md);
        if (k < 0) {
                md_root_close(&d.dir);
                return k;
        }
        d.want = want;
        *ret = d;
        return 0;
}

static void close_array_dirs(array_dirs *d) {
        md_listing_close(&d->md);
        md_root_close(&d->dir);
}

/* Fills everything but the member names, which the listing put in @a. */
static int read_into(const array_dirs *d, const char *name, md_array *a) {
        int k;

        snprintf(a->name, sizeof(a->name), "%s", name);
        read_level_state(d, a);
        read_metadata(d, a);
        read_uuid(d, a);
        read_geometry(d, a);
        read_operation(d, a);
        read_tunables(d, a);
        if (wanted(d, MD_ATTR_MEMBERS))
                md_members_read(&d->md, a, wanted(d, MD_ATTR_MEMBER_OFFSETS));
        else {
                a->n_members = 0;
                a->bad &= ~BIT(MD_ATTR_MEMBERS);
        }
        /* Stopped while we read: every file after that read as absent. */
        k = md_root_is_dir(&d->dir, "md");
        if (k < 0)
                return k;
        return k == 1 ? 0 : -ENOENT;
}

/* md_read_array, reading through the kept files @kept of @cache when they are not NULL. */
static int read_array(const md_root *r, const char *name, md_array *a, md_fd_cache *cache, md_kept *kept,
                      uint64_t want) {
        char nm[MD_NAME_MAX + 1];
        array_dirs dirs;
        md_array tmp;
        int k;

        if (!r || !a)
                return -EINVAL;
        if (!md_name_valid(name))
                return -EINVAL;
        /* @name may point into @a itself (md_read_arrays does that). */
        snprintf(nm, sizeof(nm), "%s", name);

        tmp = *a;
        tmp.bad = 0;
        k = open_array_dirs(r, nm, &tmp, cache, kept, want, &dirs);
        if (k == 0) {
                k = read_into(&dirs, nm, &tmp);
                close_array_dirs(&dirs);
        }
        /* The member buffer may have moved: keep it even on failure, so nothing leaks. */
        a->members = tmp.members;
        a->members_cap = tmp.members_cap;
        if (k < 0)
                return k;
        *a = tmp;
        return 0;
}

int md_read_array(const md_root *r, const char *name, md_array *a) {
        return read_array(r, name, a, NULL, NULL, MD_ATTRS_ALL);
}

typedef struct name_scan {
        md_array_set *set;
        unsigned n;
} name_scan;

static int grow_set(md_array_set *set) {
        unsigned cap = set->cap ? set->cap * 2 : 4;
        md_array *v;

        if (cap > 65536)
                return -E2BIG;
        v = realloc(set->arrays, cap * sizeof(*v));
        if (!v)
                return -ENOMEM;
        memset(v + set->cap, 0, (cap - set->cap) * sizeof(*v));
        set->arrays = v;
        set->cap = cap;
        return 0;
}

/* Collects sys/block entry names that could be arrays; md/ is checked when each is read. */
static int name_entry(const char *entry, unsigned char type, ino_t ino, void *userdata) {
        name_scan *s = userdata;
        int k;

        /* sys/block entries are symlinks on a real kernel: md/ decides. */
        (void)type;
        (void)ino;

        if (!md_name_valid(entry))
                return 0;
        if (s->n >= s->set->cap) {
                k = grow_set(s->set);
                if (k < 0)
                        return k;
        }
        snprintf(s->set->arrays[s->n].name, sizeof(s->set->arrays[s->n].name), "%s", entry);
        s->n++;
        return 0;
}

static void swap_arrays(md_array *x, md_array *y) {
        md_array t = *x;

        *x = *y;
        *y = t;
}

/*
 * Sorts the listed names only: each slot keeps its member buffer, so a tree
 * that did not change reads into the same buffers every time.
 */
static void sort_by_name(md_array *v, unsigned n) {
        for (unsigned i = 1; i < n; i++)
                for (unsigned j = i; j > 0 && strcmp(v[j - 1].name, v[j].name) > 0; j--) {
                        char t[sizeof(v->name)];

                        memcpy(t, v[j - 1].name, sizeof(t));
                        memcpy(v[j - 1].name, v[j].name, sizeof(t));
                        memcpy(v[j].name, t, sizeof(t));
                }
}

int md_read_arrays_of(const md_root *r, md_array_set *set, uint64_t attrs) {
        name_scan s;
        unsigned out = 0;
        int k;

        if (!r || !set)
                return -EINVAL;
        s = (name_scan){ .set = set };
        set->n = 0;
        k = md_dir_scan(r, "sys/block", name_entry, &s);
        if (k < 0)
                return k;
        sort_by_name(set->arrays, s.n);

        md_fd_cache_begin(set->fds);
        for (unsigned i = 0; i < s.n; i++) {
                md_array *a = &set->arrays[i];
                md_kept *kept = md_fd_cache_get(&set->fds, a->name);

                k = read_array(r, a->name, a, set->fds, kept, attrs);
                /* Running out of memory is the only failure that is not about one entry. */
                if (k == -ENOMEM || k == -E2BIG)
                        break;
                /*
                 * Not an array (no md/), stopped since the listing, or an entry
                 * that cannot be opened (a symlink loop): skip it.
                 */
                if (k < 0)
                        continue;
                if (out != i)
                        swap_arrays(&set->arrays[out], a);
                out++;
        }
        md_fd_cache_end(set->fds);
        if (k == -ENOMEM || k == -E2BIG)
                return k;
        set->n = out;
        return 0;
}

int md_read_arrays(const md_root *r, md_array_set *set) {
        return md_read_arrays_of(r, set, MD_ATTRS_ALL);
}

int md_read_globals(const md_root *r, md_globals *ret) {
        md_globals g;

        if (!r || !ret)
                return -EINVAL;
        if (md_tunable_read(r, NULL, MD_T_SPEED_LIMIT_MIN, &g.speed_limit_min) < 0)
                g.speed_limit_min = (md_tval){ .kind = MD_V_UNKNOWN };
        if (md_tunable_read(r, NULL, MD_T_SPEED_LIMIT_MAX, &g.speed_limit_max) < 0)
                g.speed_limit_max = (md_tval){ .kind = MD_V_UNKNOWN };
        if (md_tunable_read(r, NULL, MD_T_SYNC_IO_DEPTH_DEFAULT, &g.sync_io_depth) < 0)
                g.sync_io_depth = (md_tval){ .kind = MD_V_UNKNOWN };
        *ret = g;
        return 0;
}

void md_array_free(md_array *a) {
        if (!a)
                return;
        free(a->members);
        a->members = NULL;
        a->n_members = 0;
        a->members_cap = 0;
}

void md_array_set_free(md_array_set *set) {
        if (!set)
                return;
        for (unsigned i = 0; i < set->cap; i++)
                md_array_free(&set->arrays[i]);
        free(set->arrays);
        md_fd_cache_free(&set->fds);
        *set = (md_array_set){ 0 };
}
