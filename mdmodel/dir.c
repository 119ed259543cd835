/* SPDX-License-Identifier: MIT */
/*
 * Directory listing without allocation. sysfs directories are listed on
 * every poll, so this reads raw getdents64 records into a stack buffer
 * instead of going through opendir()'s heap buffer.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int md_root_open_at(const md_root *r, const char *rel, md_root *ret) {
        int fd;

        if (!r || r->fd < 0 || !rel || rel[0] == '/' || !ret)
                return -EINVAL;
        fd = md_openat_beneath(r->fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return fd;
        ret->fd = fd;
        return 0;
}

static bool is_dot(const char *name) {
        return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

static int scan_buffer(const char *buf, ssize_t n, md_dir_cb cb, void *userdata) {
        ssize_t off = 0;

        while (off < n) {
                const struct dirent64 *d = (const struct dirent64 *)(const void *)(buf + off);
                int k;

                if (d->d_reclen == 0)
                        return -EIO;
                off += d->d_reclen;
                if (is_dot(d->d_name))
                        continue;
                k = cb(d->d_name, d->d_type, (ino_t)d->d_ino, userdata);
                if (k < 0)
                        return k;
        }
        return 0;
}

int md_dir_scan_fd(int fd, md_dir_cb cb, void *userdata) {
        _Alignas(struct dirent64) char buf[8192];

        if (fd < 0 || !cb)
                return -EINVAL;
        for (;;) {
                ssize_t n = getdents64(fd, buf, sizeof(buf));
                int k;

                if (n < 0)
                        return -errno;
                if (n == 0)
                        return 0;
                k = scan_buffer(buf, n, cb, userdata);
                if (k < 0)
                        return k;
        }
}

int md_dir_scan(const md_root *r, const char *rel, md_dir_cb cb, void *userdata) {
        int fd, k;

        if (!r || r->fd < 0 || !rel || rel[0] == '/' || !cb)
                return -EINVAL;
        fd = md_openat_beneath(r->fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return fd;
        k = md_dir_scan_fd(fd, cb, userdata);
        close(fd);
        return k;
}
