/* SPDX-License-Identifier: MIT */
/* The rules set over D-Bus, in their own file (policy.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "policy.h"

int policy_file_load(const char *path, policy_set *ret, char *errbuf, size_t errlen) {
        config tmp = CONFIG_DEFAULT;
        int r;

        /* Only what the file says: no built-in default comes with it. */
        tmp.policies = (policy_set){};
        r = config_load(path, 0, &tmp, errbuf, errlen);
        if (r < 0)
                return r;
        *ret = tmp.policies;
        return 0;
}

static int write_all(int fd, const char *text, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, text, len);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                text += n;
                len -= (size_t)n;
        }
        return 0;
}

int policy_file_save(const char *path, const policy_set *s) {
        static const char head[] = "# Written by mdboostd (SetPolicy): the rules set over D-Bus.\n";
        char text[16384], copy[4096], dir[4096], tmp[4200];
        int fd, dfd, r;

        r = policy_format_lines(s, text, sizeof(text));
        if (r < 0)
                return r;
        if (strlen(path) >= sizeof(copy))
                return -ENAMETOOLONG;
        /* dirname() may write into its argument and return a pointer into it. */
        snprintf(copy, sizeof(copy), "%s", path);
        snprintf(dir, sizeof(dir), "%s", dirname(copy));
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
                return -errno;
        r = write_all(fd, head, sizeof(head) - 1);
        if (r == 0)
                r = write_all(fd, text, strlen(text));
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0) {
                unlink(tmp);
                return r;
        }
        /* The rename is durable only once the folder itself is synced. */
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                return -errno;
        r = fsync(dfd) < 0 ? -errno : 0;
        close(dfd);
        return r;
}
