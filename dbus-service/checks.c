/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

static const char *const why_words[_CHECK_WHY_MAX] = {
        [CHECK_WHY_NONE] = "",           [CHECK_WHY_WINDOW] = "window", [CHECK_WHY_DEGRADED] = "degraded",
        [CHECK_WHY_REBUILD] = "rebuild", [CHECK_WHY_BUSY] = "busy",
};

const char *check_why_to_string(check_why w) {
        if (w < 0 || w >= _CHECK_WHY_MAX)
                return NULL;
        return why_words[w];
}

check_why check_why_from_string(const char *s) {
        for (int w = 1; s && w < _CHECK_WHY_MAX; w++)
                if (strcmp(s, why_words[w]) == 0)
                        return (check_why)w;
        return CHECK_WHY_NONE;
}

check_record *check_book_find(const check_book *b, const char *uuid) {
        for (unsigned i = 0; uuid && i < b->n; i++)
                if (strcmp(b->records[i].uuid, uuid) == 0)
                        return (check_record *)&b->records[i];
        return NULL;
}

int check_book_put(check_book *b, const check_record *r) {
        check_record *old = check_book_find(b, r->uuid);

        if (old) {
                *old = *r;
                return 0;
        }
        if (b->n >= CHECKS_MAX)
                return -ENOSPC;
        b->records[b->n++] = *r;
        return 0;
}

void check_book_remove(check_book *b, const char *uuid) {
        check_record *r = check_book_find(b, uuid);

        if (r)
                *r = b->records[--b->n];
}

int check_book_format(const check_book *b, char *buf, size_t size) {
        size_t len = 0;

        if (size == 0)
                return -ENOBUFS;
        buf[0] = '\0';
        for (unsigned i = 0; i < b->n; i++) {
                const check_record *r = &b->records[i];
                const char *why = r->why == CHECK_WHY_NONE ? "running" : check_why_to_string(r->why);
                int n = snprintf(buf + len, size - len, "%s %s %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                                 r->uuid, md_sync_action_to_string(r->action), why, r->position, r->total,
                                 r->mismatches, r->paused_usec);

                if (n < 0 || (size_t)n >= size - len)
                        return -ENOBUFS;
                len += (size_t)n;
        }
        return 0;
}

static int parse_u64(const char *s, uint64_t *ret) {
        char *end;
        unsigned long long v;

        if (*s < '0' || *s > '9')
                return -EINVAL;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || *end)
                return -EINVAL;
        *ret = v;
        return 0;
}

static int parse_line(char *line, check_record *ret) {
        char *f[7], *save = NULL;
        check_record r = {};
        unsigned n = 0;

        for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
                if (n == 7)
                        return -EINVAL;
                f[n++] = t;
        }
        if (n != 7 || md_parse_uuid(f[0], strlen(f[0]), r.uuid) < 0)
                return -EINVAL;
        if (strcmp(f[1], "check") == 0)
                r.action = MD_SYNC_CHECK;
        else if (strcmp(f[1], "repair") == 0)
                r.action = MD_SYNC_REPAIR;
        else
                return -EINVAL;
        r.why = check_why_from_string(f[2]);
        if (r.why == CHECK_WHY_NONE && strcmp(f[2], "running") != 0)
                return -EINVAL;
        if (parse_u64(f[3], &r.position) < 0 || parse_u64(f[4], &r.total) < 0 || parse_u64(f[5], &r.mismatches) < 0 ||
            parse_u64(f[6], &r.paused_usec) < 0)
                return -EINVAL;
        *ret = r;
        return 0;
}

int check_book_parse(const char *text, check_book *ret, unsigned *ret_line) {
        check_book b = {};
        unsigned lineno = 0;
        char *copy = strdup(text ? text : "");

        if (!copy)
                return -ENOMEM;
        /* strtok_r skips empty lines, so count them by hand. */
        for (char *p = copy, *next; p && *p; p = next) {
                check_record r;

                next = strchr(p, '\n');
                if (next)
                        *next++ = '\0';
                lineno++;
                if (*p == '\0' || *p == '#')
                        continue;
                if (parse_line(p, &r) < 0 || check_book_put(&b, &r) < 0) {
                        free(copy);
                        if (ret_line)
                                *ret_line = lineno;
                        return -EINVAL;
                }
        }
        free(copy);
        *ret = b;
        return 0;
}

uint64_t check_earlier_mismatches(const check_record *r, uint64_t done) {
        return r && done >= r->position ? r->mismatches : 0;
}

check_step check_decide(const check_view *v, check_why *ret_why) {
        const check_record *r = v->have_record ? v->record : NULL;
        check_why why = CHECK_WHY_NONE;

        if (v->degraded > 0)
                why = CHECK_WHY_DEGRADED;
        else if (v->windowed && !v->window_open)
                why = CHECK_WHY_WINDOW;
        else if (v->pause_when_busy && (v->users_busy || (r && r->why == CHECK_WHY_BUSY && !v->users_quiet)))
                why = CHECK_WHY_BUSY;
        *ret_why = why;

        /* md stops a check itself when a member fails (7.3 does, 6.1 not always): it waits to go on once whole. */
        if (!r && v->degraded > 0 && (v->was == MD_SYNC_CHECK || (v->was == MD_SYNC_REPAIR && v->repair_pauses)) &&
            v->action != MD_SYNC_CHECK && v->action != MD_SYNC_REPAIR && v->action != MD_SYNC_FROZEN) {
                *ret_why = CHECK_WHY_DEGRADED;
                return CHECK_STEP_KEEP;
        }
        switch (v->action) {
        case MD_SYNC_CHECK:
        case MD_SYNC_REPAIR:
                if (v->action == MD_SYNC_REPAIR && !v->repair_pauses)
                        return r ? CHECK_STEP_FORGET : CHECK_STEP_NOTHING;
                if (why != CHECK_WHY_NONE)
                        return CHECK_STEP_PAUSE;
                /* It runs again: resumed, or started by someone in the window. */
                if (r && r->why != CHECK_WHY_NONE)
                        return CHECK_STEP_NOTE;
                return CHECK_STEP_NOTHING;
        case MD_SYNC_IDLE:
                if (!r)
                        return CHECK_STEP_NOTHING;
                if (r->why == CHECK_WHY_NONE) {
                        /* It stopped without the service: md, for a failed member, or it ended, or someone stopped it. */
                        if (v->degraded > 0) {
                                *ret_why = CHECK_WHY_DEGRADED;
                                return CHECK_STEP_NOTE;
                        }
                        return CHECK_STEP_FORGET;
                }
                if (why == CHECK_WHY_NONE)
                        return CHECK_STEP_RESUME;
                return why != r->why ? CHECK_STEP_NOTE : CHECK_STEP_NOTHING;
        case MD_SYNC_RESYNC:
        case MD_SYNC_RECOVER:
        case MD_SYNC_RESHAPE:
                /* Redundancy first: never paused, and the check waits for it. */
                *ret_why = CHECK_WHY_REBUILD;
                return r && r->why != CHECK_WHY_REBUILD ? CHECK_STEP_NOTE : CHECK_STEP_NOTHING;
        default:
                /* Frozen by someone, or unreadable: nothing is decided. */
                return CHECK_STEP_NOTHING;
        }
}
