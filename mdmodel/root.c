/* SPDX-License-Identifier: MIT */
/*
 * Root-prefixed reader and writer.
 *
 * sysfs attributes are produced whole by the kernel on the first read(2) of
 * an open file (kernfs fills one page per open), so one read of one page is
 * the complete value. Fixture trees are ordinary files and behave the same
 * for files below a page.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

bool md_name_valid(const char *name) {
        size_t n;

        if (!name || strncmp(name, "md", 2) != 0)
                return false;
        n = strnlen(name, MD_NAME_MAX + 1);
        if (n < 3 || n > MD_NAME_MAX)
                return false;
        for (size_t i = 2; i < n; i++) {
                char c = name[i];

                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
                        return false;
        }
        return true;
}

/* The path the kernel gives for @fd, through /proc; -errno when /proc cannot tell. */
static int fd_path(int fd, char *buf, size_t size) {
        char self[64];
        ssize_t n;

        snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
        n = readlink(self, buf, size - 1);
        if (n < 0)
                return -errno;
        if ((size_t)n >= size - 1)
                return -ENAMETOOLONG;
        buf[n] = '\0';
        return 0;
}

/*
 * Without openat2 (Linux before 5.6, an old valgrind, a seccomp filter that
 * does not know it): open as openat() does, then make sure the file reached
 * lies below @dir_fd. Escapes are refused with EXDEV, as openat2 does.
 */
static int openat_checked(int dir_fd, const char *rel, int flags) {
        char top[PATH_MAX], got[PATH_MAX];
        size_t len;
        int fd, k;

        fd = openat(dir_fd, rel, flags);
        if (fd < 0)
                return -errno;
        k = fd_path(dir_fd, top, sizeof(top));
        if (k == 0 && strcmp(top, "/") == 0)
                return fd;
        if (k == 0)
                k = fd_path(fd, got, sizeof(got));
        len = strlen(top);
        if (k == 0 && (strncmp(got, top, len) != 0 || (got[len] != '/' && got[len] != '\0')))
                k = -EXDEV;
        if (k < 0) {
                close(fd);
                return k;
        }
        return fd;
}

/* A ".." component: the library's own paths never climb, so any that does is refused. */
static bool climbs(const char *rel) {
        for (const char *p = rel; *p; p++)
                if ((p == rel || p[-1] == '/') && p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
                        return true;
        return false;
}

int md_openat_beneath(int dir_fd, const char *rel, int flags) {
        struct open_how how = {
                .flags = (uint64_t)flags,
                .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
        };
        long fd;

        if (climbs(rel))
                return -EXDEV;
        fd = syscall(SYS_openat2, dir_fd, rel, &how, sizeof(how));
        if (fd >= 0)
                return (int)fd;
        if (errno != ENOSYS)
                return -errno;
        return openat_checked(dir_fd, rel, flags);
}

static int mode_error(mode_t mode) {
        if (S_ISDIR(mode))
                return -EISDIR;
        return S_ISREG(mode) ? 0 : -EINVAL;
}

int md_open_regular_beneath(int dir_fd, const char *rel, int flags, struct stat *ret_st) {
        char self[64];
        struct stat st, again;
        int path_fd, fd, k;

        path_fd = md_openat_beneath(dir_fd, rel, O_PATH | O_CLOEXEC);
        if (path_fd < 0)
                return path_fd;
        if (fstat(path_fd, &st) < 0) {
                k = -errno;
                close(path_fd);
                return k;
        }
        k = mode_error(st.st_mode);
        if (k < 0) {
                close(path_fd);
                return k;
        }
        /*
         * Reopen exactly the inode that was checked through its magic link;
         * without /proc, open the path again and make sure it is the same.
         */
        snprintf(self, sizeof(self), "/proc/self/fd/%d", path_fd);
        fd = open(self, flags);
        if (fd < 0 && errno == ENOENT) {
                fd = md_openat_beneath(dir_fd, rel, flags | O_NOFOLLOW);
                if (fd >= 0 && (fstat(fd, &again) < 0 || again.st_ino != st.st_ino || again.st_dev != st.st_dev)) {
                        close(fd);
                        fd = -ESTALE;
                }
        } else if (fd < 0)
                fd = -errno;
        close(path_fd);
        if (fd >= 0 && ret_st)
                *ret_st = st;
        return fd;
}

int md_root_open(const char *path, md_root *ret) {
        int fd;

        if (!ret)
                return -EINVAL;
        fd = open(path ? path : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        ret->fd = fd;
        return 0;
}

void md_root_close(md_root *r) {
        if (!r || r->fd < 0)
                return;
        close(r->fd);
        r->fd = -1;
}

/* Paths are always relative: an absolute one would make openat() ignore the root. */
static int rel_valid(const md_root *r, const char *rel) {
        if (!r || r->fd < 0 || !rel || rel[0] == '\0' || rel[0] == '/')
                return -EINVAL;
        return 0;
}

/*
 * Refuses anything but a regular file. sysfs and procfs attributes are
 * regular files; a FIFO or a device here means a hostile or broken tree.
 */
static int check_regular(int fd) {
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        return mode_error(st.st_mode);
}

/* A read of @rel into @size bytes can be tried: 0, or -EINVAL. */
static int read_args_valid(const md_root *r, const char *rel, size_t size) {
        int k = rel_valid(r, rel);

        if (k < 0)
                return k;
        return size == 0 || size > SSIZE_MAX ? -EINVAL : 0;
}

/* Validates the arguments and opens @rel for reading; the fd, or negative errno. */
static int open_attr(const md_root *r, const char *rel, size_t size) {
        int k = read_args_valid(r, rel, size);

        if (k < 0)
                return k;
        /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer. */
        return md_openat_beneath(r->fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

/*
 * One read of the whole buffer: filling it means the file is longer than
 * size - 1. Closes @fd. EAGAIN only comes from something that is not a
 * file (a FIFO or a terminal with nothing to read under O_NONBLOCK).
 */
static ssize_t read_close(int fd, char *buf, size_t size, bool check_empty) {
        ssize_t n;
        int k = 0;

        n = read(fd, buf, size);
        if (n < 0)
                k = errno == EAGAIN ? -EINVAL : -errno;
        else if (n == 0 && check_empty)
                k = check_regular(fd);
        close(fd);
        if (k < 0)
                return k;
        if ((size_t)n >= size)
                return -EFBIG;
        buf[n] = '\0';
        return n;
}

/* As open_attr, for a regular file only, checked before it is opened; the fd, or negative errno. */
static int open_regular(const md_root *r, const char *rel, char *buf, size_t size) {
        int k;

        if (!buf)
                return -EINVAL;
        k = read_args_valid(r, rel, size);
        if (k < 0)
                return k;
        return md_open_regular_beneath(r->fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, NULL);
}

/* sysfs and procfs attributes take a write whole; only a test tree's copy is emptied first. */
static bool is_kernel_fs(int fd) {
        struct statfs sf;

        return fstatfs(fd, &sf) == 0 && (sf.f_type == SYSFS_MAGIC || sf.f_type == PROC_SUPER_MAGIC);
}

ssize_t md_root_read(const md_root *r, const char *rel, char *buf, size_t size) {
        int fd = open_regular(r, rel, buf, size);

        if (fd < 0)
                return fd;
        return read_close(fd, buf, size, false);
}

/*
 * The listing said "regular file", so the fstat is left out. Should the entry
 * have been swapped since, it is still refused: a directory fails the read
 * with EISDIR, O_NONBLOCK keeps a FIFO or terminal from waiting (EAGAIN, or
 * an empty read that is then checked), and a device that pours out bytes
 * fills the buffer and gives -EFBIG.
 */
ssize_t md_root_read_listed(const md_root *r, const char *rel, char *buf, size_t size) {
        int fd;

        if (!buf)
                return -EINVAL;
        fd = open_attr(r, rel, size);
        if (fd < 0)
                return fd;
        return read_close(fd, buf, size, true);
}

ssize_t md_root_read_file(const md_root *r, const char *rel, char *buf, size_t size) {
        size_t len = 0;
        ssize_t n;
        int fd, k = 0;

        fd = open_regular(r, rel, buf, size);
        if (fd < 0)
                return fd;
        for (;;) {
                if (len == size - 1) {
                        /* Full: fine only if the file ends exactly here. */
                        char probe;

                        n = read(fd, &probe, 1);
                        k = n < 0 ? -errno : n > 0 ? -EFBIG : 0;
                        break;
                }
                n = read(fd, buf + len, size - 1 - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        k = errno == EAGAIN ? -EINVAL : -errno;
                if (n <= 0)
                        break;
                len += (size_t)n;
        }
        close(fd);
        if (k < 0)
                return k;
        buf[len] = '\0';
        return (ssize_t)len;
}

int md_root_write(const md_root *r, const char *rel, const char *value) {
        size_t len;
        ssize_t n;
        int fd, k;

        k = rel_valid(r, rel);
        if (k < 0)
                return k;
        if (!value)
                return -EINVAL;
        len = strlen(value);
        if (len == 0 || len >= MD_ATTR_MAX)
                return -EINVAL;

        /*
         * Only a regular file beneath the root is opened, and only once it is
         * known to be one is a test tree's copy emptied, so that it then
         * holds exactly the value written, as the kernel's would.
         */
        fd = md_open_regular_beneath(r->fd, rel, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, NULL);
        if (fd < 0)
                return fd;
        if (!is_kernel_fs(fd) && ftruncate(fd, 0) < 0) {
                k = -errno;
                close(fd);
                return k;
        }

        /* The kernel's store method sees exactly one write; it refuses with the write's errno. */
        n = write(fd, value, len);
        k = n < 0 ? -errno : 0;
        if (close(fd) < 0 && k == 0)
                k = -errno;
        if (k < 0)
                return k;
        if ((size_t)n != len)
                return -EIO;
        return 0;
}

int md_root_is_dir(const md_root *r, const char *rel) {
        struct stat st;
        int fd, k;

        k = rel_valid(r, rel);
        if (k < 0)
                return k;
        /* Follows symlinks beneath the root: on a real kernel sys/block/mdX is one. */
        fd = md_openat_beneath(r->fd, rel, O_PATH | O_CLOEXEC);
        if (fd == -ENOENT || fd == -ENOTDIR)
                return 0;
        if (fd < 0)
                return fd;
        k = fstat(fd, &st) < 0 ? -errno : 0;
        close(fd);
        if (k < 0)
                return k;
        return S_ISDIR(st.st_mode) ? 1 : 0;
}
