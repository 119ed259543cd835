/* SPDX-License-Identifier: MIT */
/* Fixture trees for unit tests; see md-fixture.h. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "md-fixture.h"

/* Where tests/fixtures/ is: set by the build, overridable for an installed test. */
#ifndef MD_SRCDIR
#define MD_SRCDIR "."
#endif

static int join(const char *root, const char *rel, char *buf, size_t size) {
        int n = snprintf(buf, size, "%s/%s", root, rel);

        if (n < 0 || (size_t)n >= size)
                return -ENAMETOOLONG;
        return 0;
}

static int mkdir_p(const char *path) {
        char tmp[PATH_MAX];
        size_t len = strlen(path);

        if (len == 0 || len >= sizeof(tmp))
                return -ENAMETOOLONG;
        memcpy(tmp, path, len + 1);
        for (char *p = tmp + 1; *p; p++) {
                if (*p != '/')
                        continue;
                *p = '\0';
                if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *p = '/';
        }
        if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

static int make_parents(const char *path) {
        char tmp[PATH_MAX];
        char *slash;

        snprintf(tmp, sizeof(tmp), "%s", path);
        slash = strrchr(tmp, '/');
        if (!slash || slash == tmp)
                return 0;
        *slash = '\0';
        return mkdir_p(tmp);
}

int md_fixture_new(char **ret_root) {
        const char *tmpdir = getenv("TMPDIR");
        char *path;

        if (!ret_root)
                return -EINVAL;
        if (asprintf(&path, "%s/mdboost-fixture.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
                return -ENOMEM;
        if (!mkdtemp(path)) {
                int k = -errno;

                free(path);
                return k;
        }
        *ret_root = path;
        return 0;
}

static int write_all(int fd, const char *content, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, content, len);

                if (n < 0)
                        return -errno;
                content += n;
                len -= (size_t)n;
        }
        return 0;
}

int md_fixture_write(const char *root, const char *rel, const char *content) {
        char path[PATH_MAX];
        int fd, k;

        if (!root || !rel || !content)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        k = make_parents(path);
        if (k < 0)
                return k;
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
                return -errno;
        k = write_all(fd, content, strlen(content));
        if (close(fd) < 0 && k == 0)
                k = -errno;
        return k;
}

int md_fixture_replace(const char *root, const char *rel, const char *content) {
        char tmp[PATH_MAX];
        int k;

        if (!root || !rel || !content)
                return -EINVAL;
        if (snprintf(tmp, sizeof(tmp), "%s.new", rel) >= (int)sizeof(tmp))
                return -ENAMETOOLONG;
        k = md_fixture_write(root, tmp, content);
        if (k == 0)
                k = md_fixture_rename(root, tmp, rel);
        if (k < 0)
                (void)md_fixture_remove(root, tmp);
        return k;
}

int md_fixture_rename(const char *root, const char *from, const char *to) {
        char a[PATH_MAX], b[PATH_MAX];
        int k;

        if (!root || !from || !to)
                return -EINVAL;
        k = join(root, from, a, sizeof(a));
        if (k == 0)
                k = join(root, to, b, sizeof(b));
        if (k < 0)
                return k;
        return rename(a, b) < 0 ? -errno : 0;
}

int md_fixture_mkdir(const char *root, const char *rel) {
        char path[PATH_MAX];
        int k;

        if (!root || !rel)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        return mkdir_p(path);
}

int md_fixture_symlink(const char *root, const char *rel, const char *target) {
        char path[PATH_MAX];
        int k;

        if (!root || !rel || !target)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        k = make_parents(path);
        if (k < 0)
                return k;
        if (symlink(target, path) < 0)
                return -errno;
        return 0;
}

/* A FIFO or a device node at @root/@rel, its parents created. */
static int make_node(const char *root, const char *rel, mode_t mode, dev_t dev) {
        char path[PATH_MAX];
        int k;

        if (!root || !rel)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        k = make_parents(path);
        if (k < 0)
                return k;
        if (mknod(path, mode, dev) < 0)
                return -errno;
        return 0;
}

int md_fixture_device(const char *root, const char *rel, unsigned major, unsigned minor) {
        return make_node(root, rel, S_IFCHR | 0666, makedev(major, minor));
}

int md_fixture_fifo(const char *root, const char *rel) {
        return make_node(root, rel, S_IFIFO | 0644, 0);
}

ssize_t md_fixture_read(const char *root, const char *rel, char *buf, size_t size) {
        char path[PATH_MAX];
        ssize_t n;
        int fd, k;

        if (!root || !rel || !buf || size == 0)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, size - 1);
        k = n < 0 ? -errno : 0;
        close(fd);
        if (k < 0)
                return k;
        buf[n] = '\0';
        return n;
}

static int copy_file(const char *src, const char *dst, mode_t mode) {
        char buf[65536];
        int in, out, k = 0;

        in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (in < 0)
                return -errno;
        out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode & 07777);
        if (out < 0) {
                k = -errno;
                close(in);
                return k;
        }
        for (;;) {
                ssize_t n = read(in, buf, sizeof(buf));

                if (n < 0)
                        k = -errno;
                if (n <= 0)
                        break;
                k = write_all(out, buf, (size_t)n);
                if (k < 0)
                        break;
        }
        close(in);
        if (close(out) < 0 && k == 0)
                k = -errno;
        return k;
}

static int copy_entry(const char *src, const char *dst);

static int copy_dir(const char *src, const char *dst) {
        char s[PATH_MAX], d[PATH_MAX];
        struct dirent *e;
        DIR *dir;
        int k = 0;

        dir = opendir(src);
        if (!dir)
                return -errno;
        while (k == 0) {
                e = readdir(dir);
                if (!e)
                        break;
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                k = join(src, e->d_name, s, sizeof(s));
                if (k == 0)
                        k = join(dst, e->d_name, d, sizeof(d));
                if (k == 0)
                        k = copy_entry(s, d);
        }
        closedir(dir);
        return k;
}

static int copy_entry(const char *src, const char *dst) {
        char target[PATH_MAX];
        struct stat st;
        ssize_t n;

        if (lstat(src, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode)) {
                if (mkdir(dst, 0755) < 0 && errno != EEXIST)
                        return -errno;
                return copy_dir(src, dst);
        }
        if (S_ISLNK(st.st_mode)) {
                n = readlink(src, target, sizeof(target) - 1);
                if (n < 0)
                        return -errno;
                target[n] = '\0';
                if (symlink(target, dst) < 0)
                        return -errno;
                return 0;
        }
        if (S_ISREG(st.st_mode))
                return copy_file(src, dst, st.st_mode);
        return -EINVAL;
}

int md_fixture_copy(const char *src, const char *dst) {
        if (!src || !dst)
                return -EINVAL;
        return copy_dir(src, dst);
}

const char *md_fixture_snapshot(const char *name, char *buf, size_t size) {
        const char *srcdir = getenv("MD_SRCDIR");
        int n;

        if (!name || !buf)
                return NULL;
        n = snprintf(buf, size, "%s/tests/fixtures/%s", srcdir && *srcdir ? srcdir : MD_SRCDIR, name);
        if (n < 0 || (size_t)n >= size)
                return NULL;
        return buf;
}

int md_fixture_new_from(const char *name, char **ret_root) {
        char src[PATH_MAX];
        char *root;
        int k;

        if (!ret_root || !md_fixture_snapshot(name, src, sizeof(src)))
                return -EINVAL;
        k = md_fixture_new(&root);
        if (k < 0)
                return k;
        k = md_fixture_copy(src, root);
        if (k < 0) {
                md_fixture_rm(root);
                free(root);
                return k;
        }
        *ret_root = root;
        return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        (void)st, (void)flag, (void)ftw;
        if (remove(path) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

int md_fixture_remove(const char *root, const char *rel) {
        char path[PATH_MAX];
        int k;

        if (!root || !rel)
                return -EINVAL;
        k = join(root, rel, path, sizeof(path));
        if (k < 0)
                return k;
        k = nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        if (k < 0)
                return -errno;
        return k;
}

int md_fixture_rm(const char *root) {
        int k;

        /* Refuse to remove anything that is not one of ours. */
        if (!root || !strstr(root, "/mdboost-fixture."))
                return -EINVAL;
        k = nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        if (k < 0)
                return -errno;
        return k;
}

static int array_path(const char *array, const char *rel, char *buf, size_t size) {
        int n = snprintf(buf, size, "sys/block/%s/%s", array, rel);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int md_fixture_write_array(const char *root, const char *array, const char *rel, const char *content) {
        char path[512];
        int r = array_path(array, rel, path, sizeof(path));

        return r < 0 ? r : md_fixture_write(root, path, content);
}

int md_fixture_remove_array(const char *root, const char *array, const char *rel) {
        char path[512];
        int r = array_path(array, rel, path, sizeof(path));

        return r < 0 ? r : md_fixture_remove(root, path);
}

int md_case_setup_size(void **state, const char *name, size_t size) {
        md_case *c;
        int k;

        if (size < sizeof(md_case))
                return -1;
        c = calloc(1, size);
        if (!c)
                return -1;
        c->root = MD_ROOT_NULL;
        k = name ? md_fixture_new_from(name, &c->dir) : md_fixture_new(&c->dir);
        if (k == 0 && !name)
                k = md_fixture_mkdir(c->dir, "sys/block");
        if (k == 0)
                k = md_root_open(c->dir, &c->root);
        if (k < 0) {
                *state = c;
                md_case_teardown(state);
                return -1;
        }
        alarm(20);
        *state = c;
        return 0;
}

int md_case_setup(void **state, const char *name) {
        return md_case_setup_size(state, name, sizeof(md_case));
}

int md_case_teardown(void **state) {
        md_case *c = *state;

        alarm(0);
        if (!c)
                return 0;
        md_array_set_free(&c->set);
        md_array_free(&c->a);
        md_root_close(&c->root);
        if (c->dir)
                md_fixture_rm(c->dir);
        free(c->dir);
        free(c);
        *state = NULL;
        return 0;
}
