/* SPDX-License-Identifier: MIT */
/* The rules set over D-Bus, in their own file (policy.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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
        char text[65536];
        int r;

        memcpy(text, head, sizeof(head));
        r = policy_format_lines(s, text + sizeof(head) - 1, sizeof(text) - sizeof(head) + 1);
        if (r < 0)
                return r;
        return file_replace(path, text, 0644);
}
