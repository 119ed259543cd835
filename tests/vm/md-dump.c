/* SPDX-License-Identifier: MIT */
/*
 * md-dump: prints what the md model library reads, one "KEY VALUE" line per
 * fact, so the real-kernel suite can compare it with the kernel's own files.
 *
 *   md-dump [ROOT]     (ROOT defaults to /)
 *
 *   speed_limit_min 1000
 *   md0.level raid5
 *   md0.progress running
 *   md0.sync_done 2048
 *   md0.member.vdd rebuilding 3
 *   md0.tunable.sync_speed_min 1000 (system)
 *   md0.mdstat.op recovery
 *   md0.mdstat.done_kib 1024
 *   md0.mdstat.counts active=3 failed=0 spare=0 missing=0 rebuilding=1
 *   md0.mdstat.slots_down 1
 *   md0.mdstat.failures_tolerated 0
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "mdstat.h"
#include "root.h"
#include "tunables.h"

static const char *progress_kind_name(md_progress_kind k) {
        static const char *const names[] = {
                [MD_PROGRESS_ABSENT] = "absent",   [MD_PROGRESS_UNKNOWN] = "unknown", [MD_PROGRESS_NONE] = "none",
                [MD_PROGRESS_DELAYED] = "delayed", [MD_PROGRESS_RUNNING] = "running", [MD_PROGRESS_BETWEEN] = "between",
        };
        return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "invalid";
}

static const char *mdstat_op_name(md_mdstat_op op) {
        static const char *const names[] = {
                [MD_MDSTAT_IDLE] = "idle",       [MD_MDSTAT_RESYNC] = "resync",   [MD_MDSTAT_RECOVERY] = "recovery",
                [MD_MDSTAT_CHECK] = "check",     [MD_MDSTAT_RESHAPE] = "reshape", [MD_MDSTAT_DELAYED] = "delayed",
                [MD_MDSTAT_PENDING] = "pending",
        };
        return (unsigned)op < _MD_MDSTAT_OP_MAX ? names[op] : "invalid";
}

static const char *or_dash(const char *s) {
        return s && *s ? s : "-";
}

static void print_tval(const char *array, const char *key, const md_tval *v) {
        char buf[64];

        if (v->kind == MD_V_ABSENT)
                snprintf(buf, sizeof(buf), "absent");
        else if (md_tval_format(v, buf, sizeof(buf)) < 0)
                snprintf(buf, sizeof(buf), "unknown");
        printf("%s.%s %s\n", array, key, buf);
}

static void print_counts(const char *key, const md_disk_counts *c) {
        printf("%s active=%u failed=%u spare=%u missing=%u rebuilding=%u\n", key, c->active, c->failed, c->spare,
               c->missing, c->rebuilding);
}

/* What the plugin derives from the counts: md's degraded and the failures the array can take. */
static void print_redundancy(const char *key, const md_array *a, const md_disk_counts *c) {
        unsigned n;

        if (md_array_slots_down(a, c, &n) == 0)
                printf("%s.slots_down %u\n", key, n);
        if (md_array_failures_tolerated(a, c, &n) == 0)
                printf("%s.failures_tolerated %u\n", key, n);
}

static void print_members(const md_array *a) {
        char key[MD_NAME_MAX + 16];
        md_disk_counts c;

        for (unsigned i = 0; i < a->n_members; i++) {
                const md_member *m = &a->members[i];
                printf("%s.member.%s %s %" PRId64 "\n", a->name, m->name, or_dash(md_member_role_to_string(m->role)),
                       m->slot);
        }
        md_array_disk_counts(a, &c);
        snprintf(key, sizeof(key), "%s.counts", a->name);
        print_counts(key, &c);
        print_redundancy(a->name, a, &c);
}

static void print_tunables(const md_array *a) {
        for (int t = 0; t < _MD_T_ARRAY_MAX; t++) {
                const md_tunable_info *info = md_tunable_get((md_tunable)t);
                char key[64];

                snprintf(key, sizeof(key), "tunable.%s", info->name);
                print_tval(a->name, key, &a->tunables[t]);
        }
}

static void print_array(const md_array *a) {
        double pct;

        printf("%s.level %s\n", a->name, or_dash(md_level_to_string(a->level)));
        printf("%s.state %s\n", a->name, or_dash(md_array_state_to_string(a->state)));
        printf("%s.uuid %s\n", a->name, or_dash(a->uuid));
        printf("%s.size_bytes %" PRIu64 "\n", a->name, a->size_bytes);
        print_tval(a->name, "component_size", &a->component_size);
        printf("%s.raid_disks %" PRIu64 " %" PRIu64 "\n", a->name, a->raid_disks.value, a->raid_disks.old_value);
        printf("%s.chunk_size %" PRIu64 "\n", a->name, a->chunk_size.value);
        print_tval(a->name, "degraded", &a->degraded);
        printf("%s.action %s\n", a->name, or_dash(md_sync_action_to_string(a->sync_action)));
        printf("%s.last_action %s\n", a->name, or_dash(md_sync_action_to_string(a->last_sync_action)));
        printf("%s.progress %s\n", a->name, progress_kind_name(a->progress.kind));
        printf("%s.sync_done %" PRIu64 "\n", a->name, a->progress.done);
        printf("%s.sync_total %" PRIu64 "\n", a->name, a->progress.total);
        if (md_array_progress_percent(a, &pct) == 0)
                printf("%s.percent %.2f\n", a->name, pct);
        print_tval(a->name, "sync_speed", &a->sync_speed);
        print_tval(a->name, "mismatch_cnt", &a->mismatch_cnt);
        print_tval(a->name, "reshape_position", &a->reshape_position);
        printf("%s.bitmap %s\n", a->name, a->has_bitmap ? "yes" : "no");
        printf("%s.bitmap_type %s\n", a->name, a->bitmap_type[0] ? a->bitmap_type : "-");
        printf("%s.redundancy %s\n", a->name, md_array_has_redundancy(a) ? "yes" : "no");
        printf("%s.busy %s\n", a->name, md_array_busy(a) ? "yes" : "no");
        printf("%s.bad 0x%" PRIx64 "\n", a->name, a->bad);
        print_members(a);
        print_tunables(a);
}

/* The member counts come with the array's raid_disks from sysfs, as the plugin takes them. */
static void print_mdstat(const md_root *r, const md_array_set *set) {
        md_mdstat m = { 0 };
        int k;

        k = md_read_mdstat(r, &m);
        if (k < 0) {
                printf("mdstat.error %s\n", strerror(-k));
                return;
        }
        for (unsigned i = 0; i < m.n; i++) {
                const md_mdstat_entry *e = &m.entries[i];
                const md_array *a = md_array_set_find(set, e->name);
                char key[MD_NAME_MAX + 16];
                md_disk_counts c;

                printf("%s.mdstat.active %s\n", e->name, e->active ? "yes" : "no");
                printf("%s.mdstat.op %s\n", e->name, mdstat_op_name(e->op));
                printf("%s.mdstat.done_kib %" PRIu64 "\n", e->name, e->done_kib);
                printf("%s.mdstat.total_kib %" PRIu64 "\n", e->name, e->total_kib);
                printf("%s.mdstat.speed %" PRIu64 "\n", e->name, e->speed_kib);
                md_mdstat_disk_counts(e, a && a->raid_disks.kind == MD_V_NUMBER ? (int64_t)a->raid_disks.value : -1,
                                      &c);
                snprintf(key, sizeof(key), "%s.mdstat.counts", e->name);
                print_counts(key, &c);
                if (a) {
                        snprintf(key, sizeof(key), "%s.mdstat", e->name);
                        print_redundancy(key, a, &c);
                }
        }
        md_mdstat_free(&m);
}

int main(int argc, char **argv) {
        md_root root = MD_ROOT_NULL;
        md_array_set set = { 0 };
        md_globals g;
        int r;

        r = md_root_open(argc > 1 ? argv[1] : "/", &root);
        if (r < 0) {
                fprintf(stderr, "md-dump: cannot open root: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        r = md_read_globals(&root, &g);
        if (r == 0) {
                print_tval("global", "speed_limit_min", &g.speed_limit_min);
                print_tval("global", "speed_limit_max", &g.speed_limit_max);
        }
        r = md_read_arrays(&root, &set);
        if (r < 0) {
                fprintf(stderr, "md-dump: cannot read the arrays: %s\n", strerror(-r));
                md_root_close(&root);
                return EXIT_FAILURE;
        }
        printf("arrays %u\n", set.n);
        for (unsigned i = 0; i < set.n; i++)
                print_array(&set.arrays[i]);
        print_mdstat(&root, &set);
        md_array_set_free(&set);
        md_root_close(&root);
        return EXIT_SUCCESS;
}
