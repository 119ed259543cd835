/* SPDX-License-Identifier: MIT */
/* <root>/proc/meminfo, read (meminfo.h). */
#include <errno.h>
#include <string.h>

#include "meminfo.h"
#include "parse.h"

int meminfo_read_total(const md_root *r, uint64_t *ret_bytes) {
        char buf[MD_ATTR_MAX * 2];
        ssize_t n;

        n = md_root_read(r, "proc/meminfo", buf, sizeof(buf));
        if (n < 0)
                return (int)n;
        return meminfo_parse_total(buf, (size_t)n, ret_bytes);
}
