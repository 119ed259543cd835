/* SPDX-License-Identifier: MIT */
/* Who drives a reshape and where its backup is, read from /proc and /run/mdadm (syncmax.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "syncmax.h"

/* Monitors watch arrays and never drive an operation. */
static bool only_monitors(const char *cmdline, size_t len) {
        for (size_t i = 0; i < len; i += strlen(cmdline + i) + 1) {
                const char *arg = cmdline + i;

                if (strcmp(arg, "--monitor") == 0 || strcmp(arg, "-F") == 0 || strcmp(arg, "--follow") == 0)
                        return true;
        }
        return false;
}

/* One entry of proc/: -EEXIST stops the listing at an mdadm that may drive. */
static int mdadm_entry(const char *name, unsigned char type, ino_t ino, void *userdata) {
        const md_root *r = userdata;
        char rel[300], buf[4096];
        ssize_t n;

        (void)type;
        (void)ino;
        if (name[0] < '1' || name[0] > '9' || strspn(name, "0123456789") != strlen(name) || strlen(name) > 20)
                return 0;
        snprintf(rel, sizeof(rel), "proc/%s/comm", name);
        n = md_root_read(r, rel, buf, sizeof(buf));
        if (n < 0 || strcmp(buf, "mdadm\n") != 0)
                return 0;
        snprintf(rel, sizeof(rel), "proc/%s/cmdline", name);
        n = md_root_read_file(r, rel, buf, sizeof(buf));
        /* Gone meanwhile: not running. Unreadable or too long: it may drive. */
        if (n == -ENOENT)
                return 0;
        return n < 0 || !only_monitors(buf, (size_t)n) ? -EEXIST : 0;
}

int syncmax_mdadm_running(const md_root *r) {
        int k = md_dir_scan(r, "proc", mdadm_entry, (void *)r);

        if (k == -EEXIST)
                return 1;
        return k < 0 ? k : 0;
}

int syncmax_backup_file(const md_root *r, const char *name, char *buf, size_t size) {
        char rel[MD_NAME_MAX + 32];
        ssize_t n;

        if (size == 0)
                return -EINVAL;
        snprintf(rel, sizeof(rel), "run/mdadm/backup_file-%s", name);
        n = readlinkat(r->fd, rel, buf, size - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        return 0;
}
