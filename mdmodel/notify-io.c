/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"
#include "notify.h"

int md_notify_open(const md_root *r, const char *rel, md_notify_file *ret) {
        md_notify_file f = MD_NOTIFY_FILE_NULL;
        struct statfs sf;
        int k;

        if (!r || r->fd < 0 || !rel || !*rel || rel[0] == '/' || !ret)
                return -EINVAL;
        f.fd = md_open_regular_beneath(r->fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, NULL);
        if (f.fd < 0)
                return f.fd;
        f.kernel = fstatfs(f.fd, &sf) == 0 && (sf.f_type == SYSFS_MAGIC || sf.f_type == PROC_SUPER_MAGIC);
        k = md_notify_rearm(&f);
        if (k < 0) {
                md_notify_close(&f);
                return k;
        }
        *ret = f;
        return 0;
}

int md_notify_rearm(const md_notify_file *f) {
        /*
         * One page is enough: kernfs takes the event when it shows the
         * attribute, and /proc/mdstat when it shows its first line.
         */
        char buf[4096];

        if (!f || f->fd < 0)
                return -EBADF;
        if (pread(f->fd, buf, sizeof(buf), 0) < 0)
                return -errno;
        return 0;
}

void md_notify_close(md_notify_file *f) {
        if (f->fd >= 0)
                close(f->fd);
        *f = MD_NOTIFY_FILE_NULL;
}
