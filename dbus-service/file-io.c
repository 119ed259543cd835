/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "file-io.h"

int file_write_all(int fd, const char *text, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, text, len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                text += n;
                len -= (size_t)n;
        }
        return 0;
}

int file_replace_at(int dir_fd, const char *name, const char *text, mode_t mode) {
        char tmp[256];
        int fd, r;

        if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", name, (int)getpid()) >= sizeof(tmp))
                return -ENAMETOOLONG;
        fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
        if (fd < 0)
                return -errno;
        r = file_write_all(fd, text, strlen(text));
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0 && renameat(dir_fd, tmp, dir_fd, name) < 0)
                r = -errno;
        if (r < 0) {
                unlinkat(dir_fd, tmp, 0);
                return r;
        }
        /* The rename is durable only once the folder itself is synced. */
        if (fsync(dir_fd) < 0)
                return -errno;
        return 0;
}

int file_replace(const char *path, const char *text, mode_t mode) {
        char copy[4096], dir[4096], name[256];
        int dfd, r;

        if (strlen(path) >= sizeof(copy))
                return -ENAMETOOLONG;
        /* dirname() and basename() may write into their argument and return a pointer into it. */
        snprintf(copy, sizeof(copy), "%s", path);
        snprintf(dir, sizeof(dir), "%s", dirname(copy));
        snprintf(copy, sizeof(copy), "%s", path);
        if ((size_t)snprintf(name, sizeof(name), "%s", basename(copy)) >= sizeof(name))
                return -ENAMETOOLONG;
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                return -errno;
        r = file_replace_at(dfd, name, text, mode);
        close(dfd);
        return r;
}

int file_read_at(int dir_fd, const char *name, size_t max, char **ret, size_t *ret_len) {
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        size_t len = 0;

        /* O_NONBLOCK: a FIFO in its place must not hang the start. */
        fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
                return errno == ELOOP ? -EINVAL : -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max)
                return S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
        buf = malloc((size_t)st.st_size + 1);
        if (!buf)
                return -ENOMEM;
        while (len < (size_t)st.st_size) {
                ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        break;
                len += (size_t)n;
        }
        buf[len] = 0;
        *ret = TAKE_PTR(buf);
        *ret_len = len;
        return 0;
}
