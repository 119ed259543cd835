/* SPDX-License-Identifier: MIT */
/*
 * /proc/mdstat parser; the grammar is in mdstat.h. Only the array header
 * lines and the progress line matter; every other line of an array block
 * (blocks, bitmap, the trailing blank) is skipped.
 */

#include <errno.h>
#include <string.h>

#include "mdstat.h"

typedef struct cursor {
        const char *p;
        const char *end;
} cursor;

static bool starts_with(const char *p, const char *end, const char *prefix) {
        size_t n = strlen(prefix);

        return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

static void skip_blanks(cursor *c) {
        while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
                c->p++;
}

static bool expect(cursor *c, const char *s) {
        if (!starts_with(c->p, c->end, s))
                return false;
        c->p += strlen(s);
        return true;
}

static int number(cursor *c, uint64_t *ret) {
        const char *start = c->p;
        uint64_t v = 0;

        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
                unsigned d = (unsigned)(*c->p - '0');

                if (v > (UINT64_MAX - d) / 10)
                        return -ERANGE;
                v = v * 10 + d;
                c->p++;
        }
        if (c->p == start)
                return -EINVAL;
        *ret = v;
        return 0;
}

/* status_resync's action word; a repair prints "resync". */
static int action_word(cursor *c, md_mdstat_op *ret) {
        static const struct {
                const char *word;
                md_mdstat_op op;
        } words[] = {
                { "resync", MD_MDSTAT_RESYNC },
                { "recovery", MD_MDSTAT_RECOVERY },
                { "check", MD_MDSTAT_CHECK },
                { "reshape", MD_MDSTAT_RESHAPE },
        };

        for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
                size_t n = strlen(words[i].word);

                if (starts_with(c->p, c->end, words[i].word) &&
                    (c->p + n == c->end || c->p[n] == ' ' || c->p[n] == '=')) {
                        c->p += n;
                        *ret = words[i].op;
                        return 0;
                }
        }
        return -EINVAL;
}

/* "[bar]  ACTION = PCT% (DONE/TOTAL) finish=Fmin speed=SK/sec", from the '['. */
static int progress_line(cursor c, md_mdstat_entry *e) {
        const char *close = memchr(c.p, ']', (size_t)(c.end - c.p));
        uint64_t pct;
        int k;

        if (!close)
                return -EINVAL;
        c.p = close + 1;
        skip_blanks(&c);
        k = action_word(&c, &e->op);
        if (k < 0)
                return k;
        skip_blanks(&c);
        if (!expect(&c, "="))
                return -EINVAL;
        /* "%3u.%u": padded with spaces below 10 %. */
        skip_blanks(&c);
        if (number(&c, &pct) < 0 || !expect(&c, ".") || number(&c, &pct) < 0 || !expect(&c, "%"))
                return -EINVAL;
        skip_blanks(&c);
        if (!expect(&c, "(") || number(&c, &e->done_kib) < 0 || !expect(&c, "/") || number(&c, &e->total_kib) < 0 ||
            !expect(&c, ")"))
                return -EINVAL;
        if (e->done_kib > e->total_kib)
                return -EINVAL;

        e->speed_kib = 0;
        const char *speed = memmem(c.p, (size_t)(c.end - c.p), "speed=", 6);
        if (speed) {
                c.p = speed + 6;
                if (number(&c, &e->speed_kib) < 0 || !expect(&c, "K/sec"))
                        return -EINVAL;
        }
        return 0;
}

/* "[n/m] [UU_]" at @c, as the personalities' status methods print it. */
static bool slot_map(cursor c, md_mdstat_disks *d) {
        uint64_t n, m;
        unsigned in_sync = 0, len = 0;

        if (!expect(&c, "[") || number(&c, &n) < 0 || !expect(&c, "/") || number(&c, &m) < 0 || !expect(&c, "] ["))
                return false;
        for (; c.p < c.end && (*c.p == 'U' || *c.p == '_'); c.p++, len++)
                in_sync += *c.p == 'U';
        if (!expect(&c, "]") || len != n || m > n)
                return false;
        d->has_map = true;
        d->slots = (unsigned)n;
        d->in_sync = in_sync;
        return true;
}

/* The line after the header: "BLOCKS blocks ..." ending, for most levels, in the map. */
static void blocks_line(cursor c, md_mdstat_entry *e) {
        for (const char *p = c.p; (p = memchr(p, '[', (size_t)(c.end - p))); p++)
                if (slot_map((cursor){ p, c.end }, &e->disks))
                        return;
}

/* A line inside an array block: the progress line or a waiting marker set the op. */
static int block_line(cursor c, md_mdstat_entry *e) {
        skip_blanks(&c);
        if (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
                blocks_line(c, e);
                return 0;
        }
        if (starts_with(c.p, c.end, "resync=DELAYED")) {
                e->op = MD_MDSTAT_DELAYED;
                return 0;
        }
        if (starts_with(c.p, c.end, "resync=PENDING")) {
                e->op = MD_MDSTAT_PENDING;
                return 0;
        }
        if (starts_with(c.p, c.end, "["))
                return progress_line(c, e);
        return 0;
}

/* "DEV[N]" then flags such as "(W)(F)"; anything else is not a member. */
static int member_word(cursor c, md_mdstat_disks *d) {
        const char *open = memchr(c.p, '[', (size_t)(c.end - c.p));
        bool faulty = false, spare = false, journal = false, replacement = false;
        uint64_t desc_nr;

        if (!open || open == c.p)
                return -EINVAL;
        c.p = open + 1;
        if (number(&c, &desc_nr) < 0 || !expect(&c, "]"))
                return -EINVAL;
        while (c.p < c.end) {
                if (c.end - c.p < 3 || c.p[0] != '(' || c.p[2] != ')')
                        return -EINVAL;
                faulty |= c.p[1] == 'F';
                spare |= c.p[1] == 'S';
                journal |= c.p[1] == 'J';
                replacement |= c.p[1] == 'R';
                c.p += 3;
        }
        d->members++;
        if (faulty)
                d->faulty++;
        else if (spare)
                d->spare++;
        else if (journal)
                d->journal++;
        else if (replacement)
                d->replacement++;
        return 0;
}

/* After "active"/"inactive": the read-only marks, the level and the members. */
static int header_words(cursor c, md_mdstat_disks *d) {
        while (c.p < c.end) {
                const char *sp;
                cursor w;
                int k;

                skip_blanks(&c);
                sp = memchr(c.p, ' ', (size_t)(c.end - c.p));
                w = (cursor){ c.p, sp ? sp : c.end };
                c.p = w.end;
                if (w.p == w.end || !memchr(w.p, '[', (size_t)(w.end - w.p)))
                        continue; /* "(read-only)", the level */
                k = member_word(w, d);
                if (k < 0)
                        return k;
        }
        return 0;
}

/* "NAME : active|inactive ..." */
static int header_line(cursor c, md_mdstat_entry *e) {
        const char *sep = memmem(c.p, (size_t)(c.end - c.p), " : ", 3);
        size_t name_len;

        if (!sep)
                return -EINVAL;
        name_len = (size_t)(sep - c.p);
        if (name_len == 0 || name_len > MD_NAME_MAX || memchr(c.p, ' ', name_len))
                return -EINVAL;
        memset(e, 0, sizeof(*e));
        memcpy(e->name, c.p, name_len);
        e->name[name_len] = '\0';
        e->op = MD_MDSTAT_IDLE;

        c.p = sep + 3;
        if (starts_with(c.p, c.end, "active") && (c.p + 6 == c.end || c.p[6] == ' ')) {
                e->active = true;
                c.p += 6;
        } else if (starts_with(c.p, c.end, "inactive") && (c.p + 8 == c.end || c.p[8] == ' ')) {
                e->active = false;
                c.p += 8;
        } else
                return -EINVAL;
        return header_words(c, &e->disks);
}

static bool next_line(cursor *all, cursor *ret_line) {
        const char *nl;

        if (all->p >= all->end)
                return false;
        nl = memchr(all->p, '\n', (size_t)(all->end - all->p));
        ret_line->p = all->p;
        ret_line->end = nl ? nl : all->end;
        all->p = nl ? nl + 1 : all->end;
        return true;
}

int md_mdstat_parse(const char *buf, size_t len, md_mdstat_entry *ret, size_t n) {
        cursor all = { buf, buf + len }, line;
        md_mdstat_entry scratch, *cur = NULL;
        size_t count = 0;
        int k;

        if (!buf || (!ret && n > 0))
                return -EINVAL;
        if (!next_line(&all, &line) || !starts_with(line.p, line.end, "Personalities :"))
                return -EINVAL;

        while (next_line(&all, &line)) {
                if (starts_with(line.p, line.end, "unused devices:"))
                        break;
                if (line.p < line.end && line.p[0] != ' ' && line.p[0] != '\t') {
                        /* Entries past @n are parsed into scratch: counted, not stored. */
                        cur = count < n ? &ret[count] : &scratch;
                        k = header_line(line, cur);
                        if (k < 0)
                                return k;
                        if (count == INT32_MAX)
                                return -E2BIG;
                        count++;
                        continue;
                }
                if (!cur)
                        continue;
                k = block_line(line, cur);
                if (k < 0)
                        return k;
        }
        return (int)count;
}

const md_mdstat_entry *md_mdstat_find(const md_mdstat_entry *e, size_t n, const char *name) {
        if (!e || !name)
                return NULL;
        for (size_t i = 0; i < n; i++)
                if (strcmp(e[i].name, name) == 0)
                        return &e[i];
        return NULL;
}

int md_mdstat_progress_percent(const md_array *a, const md_mdstat_entry *e, double *ret) {
        double checkpoint, live;
        int k;

        if (!a || !e || !ret)
                return -EINVAL;
        k = md_array_progress_percent(a, &checkpoint);
        if (k < 0)
                return k;
        if (e->op < MD_MDSTAT_RESYNC || e->op > MD_MDSTAT_RESHAPE || e->total_kib == 0)
                return -ENODATA;
        live = 100.0 * (double)e->done_kib / (double)e->total_kib;
        if (checkpoint > live + 25.0)
                return -ENODATA;
        *ret = checkpoint;
        return 0;
}

void md_mdstat_disk_counts(const md_mdstat_entry *e, int64_t raid_disks, md_disk_counts *ret) {
        const md_mdstat_disks *d;
        md_disk_counts c = { 0 };
        unsigned holders, originals;

        if (!e || !ret)
                return;
        d = &e->disks;
        holders = d->members - d->faulty - d->spare - d->journal;
        originals = holders - d->replacement;
        c.failed = d->faulty;
        c.spare = d->spare;
        if (d->has_map) {
                c.active = d->in_sync < holders ? d->in_sync : holders;
                c.rebuilding = holders - c.active;
        } else {
                c.active = originals;
                c.rebuilding = d->replacement;
        }
        if (raid_disks > (int64_t)originals)
                c.missing = (unsigned)(raid_disks - (int64_t)originals);
        *ret = c;
}
