/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup.h"

static const char *const array_files[] = { "md/sync_action", "md/degraded" };

static wakeup_entry *find(wakeup_set *n, const char *rel) {
        for (unsigned i = 0; i < n->n; i++)
                if (strcmp(n->entries[i].rel, rel) == 0)
                        return &n->entries[i];
        return NULL;
}

/* Wants @rel: keeps it open, or opens it (counted in @opened). False when it cannot be waited on. */
static bool want(wakeup_set *n, const md_root *r, const char *rel, unsigned *opened) {
        wakeup_entry *e = find(n, rel);

        if (!e) {
                if (n->n == n->cap) {
                        unsigned cap = n->cap ? n->cap * 2 : 8;
                        wakeup_entry *grown = reallocarray(n->entries, cap, sizeof(*grown));

                        if (!grown)
                                return false;
                        n->entries = grown;
                        n->cap = cap;
                }
                e = &n->entries[n->n++];
                *e = (wakeup_entry){ .file = MD_NOTIFY_FILE_NULL };
                snprintf(e->rel, sizeof(e->rel), "%s", rel);
        }
        e->wanted = true;
        if (e->file.fd < 0 && md_notify_open(r, rel, &e->file) == 0)
                (*opened)++;
        return e->file.fd >= 0 && e->file.kernel;
}

int wakeup_sync(wakeup_set *n, const md_root *r, const md_array_set *arrays) {
        unsigned k = 0, opened = 0;
        bool complete;

        for (unsigned i = 0; i < n->n; i++)
                n->entries[i].wanted = false;
        complete = want(n, r, "proc/mdstat", &opened);
        for (unsigned i = 0; i < arrays->n; i++)
                for (size_t j = 0; j < sizeof(array_files) / sizeof(array_files[0]); j++) {
                        const md_array *a = &arrays->arrays[i];
                        char rel[64];

                        /* raid0 and linear have neither file: nothing runs there to wait for. */
                        if (!md_array_has_redundancy(a))
                                continue;
                        snprintf(rel, sizeof(rel), "sys/block/%s/%s", a->name, array_files[j]);
                        complete = want(n, r, rel, &opened) && complete;
                }
        for (unsigned i = 0; i < n->n; i++) {
                if (!n->entries[i].wanted) {
                        md_notify_close(&n->entries[i].file);
                        continue;
                }
                n->entries[k++] = n->entries[i];
        }
        n->n = k;
        n->complete = complete;
        return (int)opened;
}

unsigned wakeup_count(const wakeup_set *n) {
        unsigned k = 0;

        for (unsigned i = 0; i < n->n; i++)
                k += n->entries[i].file.fd >= 0 && n->entries[i].file.kernel;
        return k;
}

void wakeup_fill(const wakeup_set *n, struct pollfd *fds) {
        unsigned k = 0;

        for (unsigned i = 0; i < n->n; i++)
                if (n->entries[i].file.fd >= 0 && n->entries[i].file.kernel)
                        fds[k++] = (struct pollfd){ .fd = n->entries[i].file.fd, .events = POLLPRI };
}

bool wakeup_take(wakeup_set *n, const struct pollfd *fds) {
        bool any = false;
        unsigned k = 0;

        for (unsigned i = 0; i < n->n; i++) {
                wakeup_entry *e = &n->entries[i];

                if (e->file.fd < 0 || !e->file.kernel)
                        continue;
                if (fds[k++].revents & (POLLPRI | POLLERR | POLLHUP | POLLNVAL)) {
                        any = true;
                        /* Gone with its array or level: open again by the next wakeup_sync, if wanted. */
                        if (md_notify_rearm(&e->file) < 0) {
                                md_notify_close(&e->file);
                                n->complete = false;
                        }
                }
        }
        return any;
}

void wakeup_free(wakeup_set *n) {
        for (unsigned i = 0; i < n->n; i++)
                md_notify_close(&n->entries[i].file);
        free(n->entries);
        *n = (wakeup_set){};
}
