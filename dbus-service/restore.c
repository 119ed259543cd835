/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "restore.h"

void restore_plan_wait_below(restore_plan *p, const journal_entry *e, md_tunable t, uint64_t need) {
        const md_tval *orig = &e->originals[t];

        if (need == 0 || orig->kind != MD_V_NUMBER || orig->value >= need)
                return;
        for (unsigned i = 0; i < p->n_writes; i++) {
                if (p->writes[i].tunable != t)
                        continue;
                memmove(&p->writes[i], &p->writes[i + 1], (p->n_writes - i - 1) * sizeof(p->writes[0]));
                p->n_writes--;
                p->waits[p->n_waits++] = (restore_wait){ .tunable = t, .need = need };
                return;
        }
}

int restore_plan_compute(const journal_entry *e, const md_tval current[_MD_T_ARRAY_MAX], bool kernel_forgot,
                         restore_plan *ret) {
        restore_plan p = {};

        /* The reverse of the boost's order: the floor comes down before the ceiling. */
        static const md_tunable order[] = {
                MD_T_SYNC_IO_DEPTH,     MD_T_READ_AHEAD_KB, MD_T_GROUP_THREAD_CNT, MD_T_STRIPE_CACHE_ACTIVE,
                MD_T_STRIPE_CACHE_SIZE, MD_T_SYNC_MAX,      MD_T_SYNC_MIN,         MD_T_SYNC_SPEED_MIN,
                MD_T_SYNC_SPEED_MAX,
        };
        _Static_assert(sizeof(order) / sizeof(order[0]) == _MD_T_ARRAY_MAX, "every array tunable once");

        for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
                md_tunable t = order[i];
                const md_tval *orig = &e->originals[t], *wrote = &e->written[t], *now = &current[t];

                if (orig->kind == MD_V_ABSENT || now->kind == MD_V_ABSENT)
                        continue;
                if (journal_tval_equal(now, orig))
                        continue;
                if (wrote->kind != MD_V_ABSENT && !journal_entry_wrote(e, t, now)) {
                        p.conflicts[p.n_conflicts++] =
                                (restore_conflict){ .tunable = t, .written = *wrote, .current = *now };
                        continue;
                }
                if (kernel_forgot && orig->kind == MD_V_NUMBER && md_tunable_get(t)->forgotten_on_completion) {
                        p.forgotten[p.n_forgotten++] = t;
                        continue;
                }
                restore_write *w = &p.writes[p.n_writes];
                *w = (restore_write){ .tunable = t, .current = *now };
                if (md_tunable_restore_text(t, orig, w->text, sizeof(w->text)) < 0)
                        return -EINVAL;
                p.n_writes++;
        }
        *ret = p;
        return 0;
}
