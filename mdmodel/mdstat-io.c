/* SPDX-License-Identifier: MIT */
/* Reading /proc/mdstat whole, into buffers that grow with the number of arrays. */

#include <errno.h>
#include <stdlib.h>

#include "mdstat.h"

/* A line per member and about four per array: 16 MiB is thousands of arrays. */
#define MDSTAT_MAX (16u << 20)

static int read_text(const md_root *r, md_mdstat *m, size_t *ret_len) {
        ssize_t n;

        for (;;) {
                if (!m->buf) {
                        size_t size = m->buf_size ? m->buf_size : 16384;

                        m->buf = malloc(size);
                        if (!m->buf)
                                return -ENOMEM;
                        m->buf_size = size;
                }
                n = md_root_read_file(r, "proc/mdstat", m->buf, m->buf_size);
                if (n != -EFBIG)
                        break;
                if (m->buf_size >= MDSTAT_MAX)
                        return -EFBIG;
                free(m->buf);
                m->buf = NULL;
                m->buf_size *= 2;
        }
        if (n < 0)
                return (int)n;
        *ret_len = (size_t)n;
        return 0;
}

int md_read_mdstat(const md_root *r, md_mdstat *m) {
        size_t len = 0;
        int k;

        if (!m)
                return -EINVAL;
        m->n = 0;
        k = read_text(r, m, &len);
        if (k < 0)
                return k;
        for (;;) {
                k = md_mdstat_parse(m->buf, len, m->entries, m->cap);
                if (k < 0)
                        return k;
                if ((unsigned)k <= m->cap)
                        break;
                /* More arrays than entries: grow to fit and parse again. */
                md_mdstat_entry *grown = realloc(m->entries, (size_t)k * sizeof(*grown));

                if (!grown)
                        return -ENOMEM;
                m->entries = grown;
                m->cap = (unsigned)k;
        }
        m->n = (unsigned)k;
        return 0;
}

void md_mdstat_free(md_mdstat *m) {
        if (!m)
                return;
        free(m->entries);
        free(m->buf);
        *m = (md_mdstat){ 0 };
}
