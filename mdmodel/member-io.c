/* SPDX-License-Identifier: MIT */
/*
 * Array members: the md/dev-NAME folders.
 *
 * The kernel keeps one dev-NAME folder per member device, whatever its role.
 * Its state is a comma list (state_show), its slot is the raid_disk number
 * or "none" for a device holding no slot (a hot spare, or "journal" for a
 * write journal), and recovery_start is how far recovery onto it got, or
 * "none" once it is in sync. A disk being rebuilt reads "spare" like a hot
 * spare: only its slot tells them apart. The rdN links are not used: they
 * exist only for active slots and fixture trees store them as plain files.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Reads a member attribute; -ENOENT and unreadable files are the caller's to
 * judge. The member folders are not listed (that would cost more than the
 * three opens it could save): a kept file is checked by its path instead.
 */
static ssize_t read_member_attr(const md_listing *l, const char *member, const char *attr, char *buf, size_t size) {
        char path[MD_NAME_MAX + 64];
        int n;

        n = snprintf(path, sizeof(path), "md/" MD_MEMBER_PREFIX "%s/%s", member, attr);
        if (n < 0 || (size_t)n >= sizeof(path))
                return -ENAMETOOLONG;
        return md_listing_read_path(l, path, buf, size);
}

/* slot: a number, "none" for no slot, "journal" for a write journal. */
static int read_slot(const md_listing *dir, const char *member, int64_t *ret) {
        char buf[64];
        uint64_t v;
        ssize_t n;
        md_tval t;

        n = read_member_attr(dir, member, "slot", buf, sizeof(buf));
        if (n < 0)
                return (int)n;
        if (md_parse_tval(buf, (size_t)n, &t) == 0 && t.kind == MD_V_NONE) {
                *ret = -1;
                return 0;
        }
        if (strcmp(buf, "journal\n") == 0 || strcmp(buf, "journal") == 0) {
                *ret = -1;
                return 0;
        }
        if (md_parse_u64(buf, (size_t)n, &v) < 0 || v > INT64_MAX)
                return -EINVAL;
        *ret = (int64_t)v;
        return 0;
}

static int read_state(const md_listing *dir, const char *member, unsigned *ret) {
        char buf[256];
        ssize_t n;

        n = read_member_attr(dir, member, "state", buf, sizeof(buf));
        if (n < 0)
                return (int)n;
        return md_parse_member_state(buf, (size_t)n, ret);
}

static md_tval read_recovery_start(const md_listing *dir, const char *member, bool *bad) {
        char buf[64];
        ssize_t n;
        md_tval t;

        n = read_member_attr(dir, member, "recovery_start", buf, sizeof(buf));
        if (n == -ENOENT)
                return (md_tval){ .kind = MD_V_ABSENT };
        if (n < 0 || md_parse_tval(buf, (size_t)n, &t) < 0 || (t.kind != MD_V_NUMBER && t.kind != MD_V_NONE)) {
                *bad = true;
                return (md_tval){ .kind = MD_V_UNKNOWN };
        }
        return t;
}

/*
 * A member not in sync is being rebuilt when it holds a slot; without a slot
 * it is a hot spare. When the slot cannot be read, a recovery position
 * still shows that recovery is running onto it.
 */
static md_member_role member_role(const md_member *m, bool state_ok, bool slot_ok) {
        if (!state_ok)
                return MD_ROLE_UNKNOWN;
        if (m->flags & MD_MEMBER_FAULTY)
                return MD_ROLE_FAULTY;
        if (m->flags & MD_MEMBER_JOURNAL)
                return MD_ROLE_JOURNAL;
        if (m->flags & MD_MEMBER_IN_SYNC)
                return MD_ROLE_IN_SYNC;
        if (slot_ok)
                return m->slot >= 0 ? MD_ROLE_REBUILDING : MD_ROLE_SPARE;
        return m->recovery_start.kind == MD_V_NUMBER ? MD_ROLE_REBUILDING : MD_ROLE_SPARE;
}

/* offset, new_offset: sectors. Absent when missing, unknown (and bad) when unreadable. */
static md_tval read_offset(const md_listing *dir, const char *member, const char *attr, bool *bad) {
        char buf[64];
        md_tval v;
        ssize_t n;

        n = read_member_attr(dir, member, attr, buf, sizeof(buf));
        if (n == -ENOENT)
                return (md_tval){ .kind = MD_V_ABSENT };
        if (n < 0 || md_parse_tval(buf, (size_t)n, &v) < 0 || v.kind != MD_V_NUMBER) {
                *bad = true;
                return (md_tval){ .kind = MD_V_UNKNOWN };
        }
        return v;
}

/* Fills everything but the name, which the listing set. */
static void read_member(const md_listing *dir, md_member *m, bool offsets, bool *bad, bool *bad_offsets) {
        const char *name = m->name;
        bool state_ok, slot_ok;

        state_ok = read_state(dir, name, &m->flags) == 0;
        if (!state_ok)
                m->flags = 0;
        slot_ok = read_slot(dir, name, &m->slot) == 0;
        if (!slot_ok)
                m->slot = -1;
        /* recovery_start_show() prints "none" for an in-sync member: no need to ask. */
        if (state_ok && (m->flags & MD_MEMBER_IN_SYNC))
                m->recovery_start = (md_tval){ .kind = MD_V_NONE };
        else
                m->recovery_start = read_recovery_start(dir, name, bad);
        m->role = member_role(m, state_ok, slot_ok);
        if (offsets) {
                m->offset = read_offset(dir, name, "offset", bad_offsets);
                m->new_offset = read_offset(dir, name, "new_offset", bad_offsets);
        } else
                m->offset = m->new_offset = (md_tval){ .kind = MD_V_ABSENT };
        if (!state_ok || !slot_ok)
                *bad = true;
}

/* Slot order, members without a slot (spares, journal, unknown) last, then by name. */
static int member_cmp(const md_member *x, const md_member *y) {
        uint64_t sx = (uint64_t)x->slot, sy = (uint64_t)y->slot; /* -1 sorts last */

        if (sx != sy)
                return sx < sy ? -1 : 1;
        return strcmp(x->name, y->name);
}

/* Insertion sort: a handful of members, and qsort may allocate. */
static void sort_members(md_member *m, unsigned n) {
        for (unsigned i = 1; i < n; i++) {
                md_member cur = m[i];
                unsigned j = i;

                while (j > 0 && member_cmp(&m[j - 1], &cur) > 0) {
                        m[j] = m[j - 1];
                        j--;
                }
                m[j] = cur;
        }
}

void md_members_read(const md_listing *l, md_array *a, bool offsets) {
        for (unsigned i = 0; i < a->n_members; i++) {
                bool bad = false, bad_offsets = false;

                read_member(l, &a->members[i], offsets, &bad, &bad_offsets);
                if (bad)
                        a->bad |= UINT64_C(1) << MD_ATTR_MEMBERS;
                if (bad_offsets)
                        a->bad |= UINT64_C(1) << MD_ATTR_MEMBER_OFFSETS;
        }
        sort_members(a->members, a->n_members);
}
