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
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        return 0;
}

/* Validates the arguments and opens @rel for reading; the fd, or negative errno. */
static int open_attr(const md_root *r, const char *rel, size_t size) {
        int fd, k;

        k = rel_valid(r, rel);
        if (k < 0)
                return k;
        if (size == 0 || size > SSIZE_MAX)
                return -EINVAL;
        /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer. */
        fd = openat(r->fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        return fd;
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
        if ((size_t) n >= size)
                return -EFBIG;
        buf[n] = '\0';
        return n;
}

/* open_attr, then refuses anything but a regular file; the fd, or negative errno. */
static int open_regular(const md_root *r, const char *rel, char *buf, size_t size) {
        int fd, k;

        if (!buf)
                return -EINVAL;
        fd = open_attr(r, rel, size);
        if (fd < 0)
                return fd;
        k = check_regular(fd);
        if (k < 0) {
                close(fd);
                return k;
        }
        return fd;
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
                len += (size_t) n;
        }
        close(fd);
        if (k < 0)
                return k;
        buf[len] = '\0';
        return (ssize_t) len;
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
         * O_TRUNC is ignored by sysfs and procfs; on a fixture tree it leaves
         * the file holding exactly the value written, as the kernel would.
         * O_NONBLOCK keeps a FIFO without reader from blocking the open.
         */
        fd = openat(r->fd, rel, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_TRUNC);
        if (fd < 0)
                return -errno;
        k = check_regular(fd);
        if (k < 0) {
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
        if ((size_t) n != len)
                return -EIO;
        return 0;
}

int md_root_is_dir(const md_root *r, const char *rel) {
        struct stat st;
        int k;

        k = rel_valid(r, rel);
        if (k < 0)
                return k;
        /* Follows symlinks: on a real kernel sys/block/mdX is one. */
        if (fstatat(r->fd, rel, &st, 0) < 0) {
                if (errno == ENOENT || errno == ENOTDIR)
                        return 0;
                return -errno;
        }
        return S_ISDIR(st.st_mode) ? 1 : 0;
}
