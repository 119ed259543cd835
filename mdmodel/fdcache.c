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
 * between reads, within a fixed budget of descriptors: collectd runs with 1024
 * and shares them with every plugin, and kernfs pins a page per open file.
 *
 * A kept file is used only while it is provably the entry the listing shows:
 * same name, regular, and the same inode number on the same filesystem as
 * md/. An inode's number is not reused while a file on it is open, so a file
 * replaced, removed, or recreated with its array shows up as a different or
 * missing entry and is opened anew. An attribute the kernel removed after the
 * listing fails the pread (ENODEV) and is opened anew as well.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* At most this many descriptors held per set: a few arrays' md/ attributes. */
#define MD_FD_BUDGET 128

struct md_kept {
        char name[MD_NAME_MAX + 1];  /* the array */
        bool seen;                   /* read by the current md_read_arrays */
        dev_t dev;                   /* filesystem of its md/ folder */
        int fd[MD_LISTING_NAMES];    /* -1 when not kept */
        ino_t ino[MD_LISTING_NAMES];
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

static void kept_close_all(md_fd_cache *c, md_kept *k) {
        for (unsigned i = 0; i < MD_LISTING_NAMES; i++)
                kept_close(c, k, i);
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

void md_kept_set_dev(md_fd_cache *c, md_kept *k, dev_t dev) {
        if (k->dev != dev)
                kept_close_all(c, k);
        k->dev = dev;
}

/* NUL-terminates what a read of the whole buffer returned; -EFBIG when it filled it. */
static ssize_t finish(char *buf, ssize_t n, size_t size) {
        if ((size_t) n >= size)
                return -EFBIG;
        buf[n] = '\0';
        return n;
}

/* Opens @name below md/, refuses anything but a regular file, reads it, and keeps it if it may. */
static ssize_t open_read_keep(md_fd_cache *c, md_kept *k, int md_fd, unsigned i, const char *name,
                              ino_t listed_ino, char *buf, size_t size) {
        struct stat st;
        ssize_t n;
        int fd, e;

        fd = openat(md_fd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0) {
                e = errno;
                close(fd);
                return -e;
        }
        /* Swapped since the listing: refused as the plain reader would. */
        if (!S_ISREG(st.st_mode)) {
                close(fd);
                return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
        }
        n = pread(fd, buf, size, 0);
        if (n < 0) {
                e = errno;
                close(fd);
                return -e;
        }
        if (st.st_ino == listed_ino && st.st_dev == k->dev && c->open < MD_FD_BUDGET) {
                k->fd[i] = fd;
                k->ino[i] = listed_ino;
                c->open++;
        } else {
                close(fd);
        }
        return finish(buf, n, size);
}

ssize_t md_kept_read(md_fd_cache *c, md_kept *k, int md_fd, unsigned i, const char *name,
                     ino_t listed_ino, char *buf, size_t size) {
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
