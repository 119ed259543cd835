/* SPDX-License-Identifier: MIT */
/*
 * Attribute files kept open between reads of a set.
 *
 * Opening and closing a file is most of what reading a sysfs attribute costs
 * (kernfs allocates a file, an open-file record and a seq_file each time);
 * the read itself formats a few bytes. An open attribute is read again from
 * the start with pread at offset 0: seq_read_iter then restarts and the
 * kernel calls the show method afresh, which is how sysfs documents re-reading
 * an attribute. So the md/ attributes of the first arrays of a set stay open
 * between reads, within a fixed budget of descriptors (MD_SET_FD_BUDGET):
 * collectd runs with 1024 and shares them with every plugin, and kernfs pins
 * a page per open file.
 *
 * A kept file is used only while it is provably what a fresh open would
 * open: for an attribute directly in md/, the listing shows the same name as
 * a regular file with the same inode number on the same filesystem; for a
 * file in a sub-folder (a member's state, queue/read_ahead_kb), fstatat of
 * its path finds that same inode. An inode's number is not reused while a
 * file on it is open, so a file replaced, removed, or recreated with its
 * array is opened anew. An attribute the kernel removed after that check
 * fails the pread (ENODEV) and is opened anew as well.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* At most this many descriptors held per set: the files of the first arrays. */
#define MD_FD_BUDGET MD_SET_FD_BUDGET

/* Files in sub-folders kept per array: size, read-ahead, bitmap, and 3 per member. */
#define MD_KEPT_PATHS 32

typedef struct kept_path {
        char rel[64]; /* below the array's folder: "md/dev-vda/state" */
        int fd;
        dev_t dev;
        ino_t ino;
        bool used; /* read since md_kept_begin */
} kept_path;

struct md_kept {
        char name[MD_NAME_MAX + 1]; /* the array */
        bool seen;                  /* read by the current md_read_arrays */
        dev_t dev;                  /* filesystem of its md/ folder */
        int fd[MD_LISTING_NAMES];   /* -1 when not kept */
        ino_t ino[MD_LISTING_NAMES];
        kept_path path[MD_KEPT_PATHS];
        unsigned n_paths;
};

struct md_fd_cache {
        md_kept *v;
        unsigned n, cap;
        unsigned open; /* descriptors held, at most MD_FD_BUDGET */
};

static void kept_close(md_fd_cache *c, md_kept *k, unsigned i) {
        if (k->fd[i] < 0)
                return;
        close(k->fd[i]);
        k->fd[i] = -1;
        c->open--;
}

static void path_close(md_fd_cache *c, kept_path *p) {
        if (p->fd < 0)
                return;
        close(p->fd);
        p->fd = -1;
        c->open--;
}

static void kept_close_all(md_fd_cache *c, md_kept *k) {
        for (unsigned i = 0; i < MD_LISTING_NAMES; i++)
                kept_close(c, k, i);
        for (unsigned i = 0; i < k->n_paths; i++)
                path_close(c, &k->path[i]);
        k->n_paths = 0;
}

void md_fd_cache_begin(md_fd_cache *c) {
        if (!c)
                return;
        for (unsigned i = 0; i < c->n; i++)
                c->v[i].seen = false;
}

static int cache_grow(md_fd_cache **pc) {
        md_fd_cache *c = *pc;
        unsigned cap;
        md_kept *v;

        if (!c) {
                c = calloc(1, sizeof(*c));
                if (!c)
                        return -ENOMEM;
                *pc = c;
        }
        if (c->n < c->cap)
                return 0;
        cap = c->cap ? c->cap * 2 : 4;
        v = realloc(c->v, cap * sizeof(*v));
        if (!v)
                return -ENOMEM;
        c->v = v;
        c->cap = cap;
        return 0;
}

md_kept *md_fd_cache_get(md_fd_cache **pc, const char *name) {
        md_kept *k;

        for (unsigned i = 0; *pc && i < (*pc)->n; i++)
                if (strcmp((*pc)->v[i].name, name) == 0) {
                        (*pc)->v[i].seen = true;
                        return &(*pc)->v[i];
                }
        /* Nothing more could be kept: the array is read with plain opens. */
        if ((*pc && (*pc)->open >= MD_FD_BUDGET) || cache_grow(pc) < 0)
                return NULL;
        k = &(*pc)->v[(*pc)->n++];
        memset(k, 0, sizeof(*k));
        snprintf(k->name, sizeof(k->name), "%s", name);
        k->seen = true;
        for (unsigned i = 0; i < MD_LISTING_NAMES; i++)
                k->fd[i] = -1;
        return k;
}

/* Arrays that are gone (or were not arrays) give their descriptors back. */
void md_fd_cache_end(md_fd_cache *c) {
        unsigned out = 0;

        if (!c)
                return;
        for (unsigned i = 0; i < c->n; i++) {
                if (!c->v[i].seen) {
                        kept_close_all(c, &c->v[i]);
                        continue;
                }
                if (out != i)
                        c->v[out] = c->v[i];
                out++;
        }
        c->n = out;
}

void md_fd_cache_free(md_fd_cache **pc) {
        md_fd_cache *c = *pc;

        if (!c)
                return;
        for (unsigned i = 0; i < c->n; i++)
                kept_close_all(c, &c->v[i]);
        free(c->v);
        free(c);
        *pc = NULL;
}

void md_kept_begin(md_fd_cache *c, md_kept *k, dev_t dev, const unsigned char *type, const ino_t *ino) {
        if (k->dev != dev)
                kept_close_all(c, k);
        k->dev = dev;
        /* An attribute the level no longer has (or replaced) is let go now, not at exit. */
        for (unsigned i = 0; i < MD_LISTING_NAMES; i++)
                if (k->fd[i] >= 0 && (type[i] != DT_REG || ino[i] != k->ino[i]))
                        kept_close(c, k, i);
        for (unsigned i = 0; i < k->n_paths; i++)
                k->path[i].used = false;
}

/* Member folders that are gone give their files back. */
void md_kept_end(md_fd_cache *c, md_kept *k) {
        unsigned out = 0;

        for (unsigned i = 0; i < k->n_paths; i++) {
                if (!k->path[i].used) {
                        path_close(c, &k->path[i]);
                        continue;
                }
                if (out != i)
                        k->path[out] = k->path[i];
                out++;
        }
        k->n_paths = out;
}

/* NUL-terminates what a read of the whole buffer returned; -EFBIG when it filled it. */
static ssize_t finish(char *buf, ssize_t n, size_t size) {
        if ((size_t)n >= size)
                return -EFBIG;
        buf[n] = '\0';
        return n;
}

/*
 * Opens @rel below @dir_fd as md_root_read does, refusing anything but a
 * regular file, and reads it; returns the open fd in *ret_fd and its inode
 * in *ret_st for the caller to keep or close.
 */
static ssize_t open_read(int dir_fd, const char *rel, char *buf, size_t size, int *ret_fd, struct stat *ret_st) {
        struct stat st;
        ssize_t n;
        int fd, e;

        /* Swapped since the listing: refused as the plain reader would, unopened. */
        fd = md_open_regular_beneath(dir_fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, &st);
        if (fd < 0)
                return fd;
        n = pread(fd, buf, size, 0);
        if (n < 0) {
                e = errno;
                close(fd);
                return -e;
        }
        *ret_fd = fd;
        *ret_st = st;
        return n;
}

/* Reads @name below md/ anew and keeps it if it is the listed inode and the budget allows. */
static ssize_t open_read_keep(md_fd_cache *c, md_kept *k, int md_fd, unsigned i, const char *name, ino_t listed_ino,
                              char *buf, size_t size) {
        struct stat st;
        ssize_t n;
        int fd;

        n = open_read(md_fd, name, buf, size, &fd, &st);
        if (n < 0)
                return n;
        if (st.st_ino == listed_ino && st.st_dev == k->dev && c->open < MD_FD_BUDGET) {
                k->fd[i] = fd;
                k->ino[i] = listed_ino;
                c->open++;
        } else {
                close(fd);
        }
        return finish(buf, n, size);
}

ssize_t md_kept_read(md_fd_cache *c, md_kept *k, int md_fd, unsigned i, const char *name, ino_t listed_ino, char *buf,
                     size_t size) {
        ssize_t n;

        if (!c || !k || i >= MD_LISTING_NAMES || !buf || size == 0 || size > SSIZE_MAX)
                return -EINVAL;
        if (k->fd[i] >= 0 && k->ino[i] == listed_ino) {
                n = pread(k->fd[i], buf, size, 0);
                if (n >= 0)
                        return finish(buf, n, size);
        }
        /* Not kept, replaced, or failing (ENODEV once kernfs removed it): open it anew. */
        kept_close(c, k, i);
        return open_read_keep(c, k, md_fd, i, name, listed_ino, buf, size);
}

static kept_path *path_find(md_kept *k, const char *rel) {
        for (unsigned i = 0; i < k->n_paths; i++)
                if (strcmp(k->path[i].rel, rel) == 0)
                        return &k->path[i];
        return NULL;
}

/* A slot for @rel, or NULL when the array's slots are all taken or the name does not fit. */
static kept_path *path_add(md_kept *k, const char *rel) {
        kept_path *p;

        if (k->n_paths >= MD_KEPT_PATHS || strlen(rel) >= sizeof(p->rel))
                return NULL;
        p = &k->path[k->n_paths++];
        memset(p, 0, sizeof(*p));
        snprintf(p->rel, sizeof(p->rel), "%s", rel);
        p->fd = -1;
        return p;
}

/* The kept file still is what @rel leads to: same regular inode on the same filesystem. */
static bool path_current(int dir_fd, const kept_path *p) {
        struct stat st;

        if (p->fd < 0 || fstatat(dir_fd, p->rel, &st, 0) < 0)
                return false;
        return S_ISREG(st.st_mode) && st.st_dev == p->dev && st.st_ino == p->ino;
}

ssize_t md_kept_read_path(md_fd_cache *c, md_kept *k, int dir_fd, const char *rel, char *buf, size_t size) {
        kept_path *p;
        struct stat st;
        ssize_t n;
        int fd;

        if (!c || !k || !rel || !buf || size == 0 || size > SSIZE_MAX)
                return -EINVAL;
        p = path_find(k, rel);
        if (p) {
                p->used = true;
                if (path_current(dir_fd, p)) {
                        n = pread(p->fd, buf, size, 0);
                        if (n >= 0)
                                return finish(buf, n, size);
                }
                path_close(c, p);
        }
        n = open_read(dir_fd, rel, buf, size, &fd, &st);
        if (n < 0)
                return n;
        if (!p && c->open < MD_FD_BUDGET)
                p = path_add(k, rel);
        if (p && c->open < MD_FD_BUDGET) {
                p->fd = fd;
                p->dev = st.st_dev;
                p->ino = st.st_ino;
                p->used = true;
                c->open++;
        } else {
                close(fd);
        }
        return finish(buf, n, size);
}
