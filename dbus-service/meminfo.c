/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "meminfo.h"
#include "parse.h"

int meminfo_parse_total(const char *text, size_t len, uint64_t *ret_bytes) {
        const char *end = text + len, *p = text;

        while (p < end) {
                const char *eol = memchr(p, '\n', (size_t)(end - p));
                const char *num, *unit;
                uint64_t kib;

                if (!eol)
                        eol = end;
                if ((size_t)(eol - p) > 9 && memcmp(p, "MemTotal:", 9) == 0) {
                        num = p + 9;
                        while (num < eol && *num == ' ')
                                num++;
                        unit = memchr(num, ' ', (size_t)(eol - num));
                        /* The kernel always prints the size in kB ("%8lu kB"). */
                        if (!unit || (size_t)(eol - unit) != 3 || memcmp(unit, " kB", 3) != 0)
                                return -EINVAL;
                        if (md_parse_u64(num, (size_t)(unit - num), &kib) < 0 || kib > UINT64_MAX / 1024)
                                return -EINVAL;
                        *ret_bytes = kib * 1024;
                        return 0;
                }
                p = eol + 1;
        }
        return -ENOENT;
}
