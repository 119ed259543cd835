/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>

#include "caller.h"
#include "parse.h"

/* The kernel's "no login": (uid_t)-1, printed unsigned. */
#define LOGINUID_UNSET 4294967295u

int caller_parse_loginuid(const char *text, size_t len, uint32_t *ret) {
        uint64_t v;
        int r;

        r = md_parse_u64(text, len, &v);
        if (r < 0)
                return -EINVAL;
        if (v == LOGINUID_UNSET)
                return -ENODATA;
        if (v > LOGINUID_UNSET)
                return -EINVAL;
        *ret = (uint32_t)v;
        return 0;
}

void caller_describe(const caller *who, char *buf, size_t size) {
        int n = snprintf(buf, size, "uid %u pid %u bus %s", who->uid, who->pid, who->bus_name);

        if (n < 0 || (size_t)n >= size || !who->has_login || who->login_uid == who->uid)
                return;
        if (who->login_name[0])
                snprintf(buf + n, size - (size_t)n, " for login %s (uid %u)", who->login_name, who->login_uid);
        else
                snprintf(buf + n, size - (size_t)n, " for login uid %u", who->login_uid);
}
