/* SPDX-License-Identifier: MIT */
/* The journal on disk: loaded, saved atomically, set aside when bad (journal.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "file-io.h"
#include "journal.h"

#define JOURNAL_MAX_BYTES (4u << 20)

/* ---- files ---- */

/*
 * A free name <base>-<unix seconds>[.N] in @dir_fd for a set-aside copy, put
 * into @buf; @take makes it exist without replacing anything that is there
 * (rename with RENAME_NOREPLACE, or create with O_EXCL) and returns 0, -EEXIST
 * to try the next name, or another error.
 */
static int take_free_name(int dir_fd, const char *base, char *buf, size_t size,
                          int (*take)(int dir_fd, const char *name, void *userdata), void *userdata) {
        long long now = (long long)time(NULL);

        for (unsigned n = 0; n < 1000; n++) {
                int k, r;

                if (n == 0)
                        k = snprintf(buf, size, "%s-%lld", base, now);
                else
                        k = snprintf(buf, size, "%s-%lld.%u", base, now, n);
                if (k < 0 || (size_t)k >= size)
                        return -ENAMETOOLONG; /* never a name cut short: it could be another file's */
                r = take(dir_fd, buf, userdata);
                if (r != -EEXIST)
                        return r;
        }
        return -EEXIST;
}

/* Moves the file @userdata names to @name. */
static int take_by_rename(int dir_fd, const char *name, void *userdata) {
        const char *from = userdata;

        if (renameat2(dir_fd, from, dir_fd, name, RENAME_NOREPLACE) == 0)
                return 0;
        if (errno != EINVAL && errno != ENOSYS)
                return -errno;
        /* A file system without RENAME_NOREPLACE: a hard link never replaces either. */
        if (linkat(dir_fd, from, dir_fd, name, 0) < 0)
                return -errno;
        return unlinkat(dir_fd, from, 0) < 0 ? -errno : 0;
}

typedef struct bytes {
        const char *text;
        size_t len;
} bytes;

static int take_by_copy(int dir_fd, const char *name, void *userdata) {
        const bytes *b = userdata;
        int fd, r;

        fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
                return -errno;
        r = file_write_all(fd, b->text, b->len);
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r < 0)
                unlinkat(dir_fd, name, 0);
        return r;
}

int journal_load_file(int dir_fd, const char *name, const char *section, journal *ret, journal_load_report *report) {
        journal_load_report rep = {};
        _cleanup_free_ char *text = NULL;
        char base[32];
        size_t len = 0;
        journal j;
        int r;

        r = file_read_at(dir_fd, name, JOURNAL_MAX_BYTES, &text, &len);
        if (r == -ENOENT) {
                *ret = (journal){ .clean = true };
                *report = rep;
                return 0;
        }
        if (r < 0)
                return r;
        /* A NUL inside is no JSON journal: json-c would stop reading there. */
        r = strlen(text) == len ? journal_parse_section(text, section, &j, &rep) : -EINVAL;
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                rep = (journal_load_report){ .corrupt = true };
                snprintf(base, sizeof(base), "%s.corrupt", name);
                r = take_free_name(dir_fd, base, rep.aside, sizeof(rep.aside), take_by_rename, (void *)name);
                if (r < 0)
                        return r;
                *ret = (journal){ .clean = true };
                *report = rep;
                return 0;
        }
        if (rep.n_rejected > 0) {
                /* The copy keeps the bad entries byte for byte; the journal goes on without them. */
                bytes b = { text, len };

                snprintf(base, sizeof(base), "%s.rejected", name);
                r = take_free_name(dir_fd, base, rep.aside, sizeof(rep.aside), take_by_copy, &b);
                if (r < 0) {
                        journal_free(&j);
                        return r;
                }
        }
        *ret = j;
        *report = rep;
        return 0;
}

int journal_load(int dir_fd, journal *ret, journal_load_report *report) {
        return journal_load_file(dir_fd, JOURNAL_FILE, JOURNAL_SECTION, ret, report);
}

int journal_save_file(int dir_fd, const char *name, const char *section, const journal *j) {
        _cleanup_free_ char *text = journal_format_section(j, section);

        if (!text)
                return -ENOMEM;
        return file_replace_at(dir_fd, name, text, 0600);
}

int journal_save(int dir_fd, const journal *j) {
        return journal_save_file(dir_fd, JOURNAL_FILE, JOURNAL_SECTION, j);
}

static int mkdir_parents(const char *path) {
        char buf[4096];
        size_t len = strlen(path);

        if (len == 0 || len >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, path, len + 1);
        for (char *p = buf + 1; *p; p++) {
                if (*p != '/')
                        continue;
                *p = 0;
                if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *p = '/';
        }
        if (mkdir(buf, 0700) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

int journal_open_dir(const char *path, int *ret_fd) {
        struct stat st;
        int fd, r;

        r = mkdir_parents(path);
        if (r < 0)
                return r;
        /* The folder itself, never where a symlink in its place points. */
        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOTDIR || errno == ELOOP ? -ELOOP : -errno;
        if (fstat(fd, &st) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        /* Anyone else who could write here could plant originals for Restore to write back. */
        if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
                close(fd);
                return -EPERM;
        }
        *ret_fd = fd;
        return 0;
}
