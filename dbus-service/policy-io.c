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
#include "file-io.h"
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

int policy_file_save(const char *path, const policy_set *s) {
        static const char head[] = "# Written by mdboostd (SetPolicy): the rules set over D-Bus.\n";
        char text[16384], copy[4096], dir[4096], name[256];
        int dfd, r;

        memcpy(text, head, sizeof(head));
        r = policy_format_lines(s, text + sizeof(head) - 1, sizeof(text) - sizeof(head) + 1);
        if (r < 0)
                return r;
        if (strlen(path) >= sizeof(copy))
                return -ENAMETOOLONG;
        /* dirname() and basename() may write into their argument and return a pointer into it. */
        snprintf(copy, sizeof(copy), "%s", path);
        snprintf(dir, sizeof(dir), "%s", dirname(copy));
        snprintf(copy, sizeof(copy), "%s", path);
        snprintf(name, sizeof(name), "%s", basename(copy));
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                return -errno;
        r = file_replace_at(dfd, name, text, 0644);
        close(dfd);
        return r;
}
