/* SPDX-License-Identifier: MIT */
/*
 * collectd read plugin "mdraid": md rebuild metrics.
 *
 * Every interval it reads every md array through the md model library and
 * dispatches, per array (plugin_instance = kernel name, "md0", "md_home"):
 * progress, time left, sync speed with the floor and ceiling in effect,
 * which operation runs or waits, member counts, mismatch count, stripe
 * cache and read-ahead; and once, with an empty plugin_instance, the global
 * speed limits. docs/metrics.md lists every identifier.
 *
 * Every value is a gauge of a stock types.db type. Speeds use "bytes" (a
 * gauge with no upper bound) in bytes per second: "bitrate" is bits and
 * capped at 2^32-1 (4 Gbit/s, below what a local floor can be set to), and
 * "io_octets"/"disk_octets" are DERIVE counters, which would turn a speed
 * into its rate of change.
 *
 * Members come from /proc/mdstat, which lists every array's members with
 * their flags in one read, where sysfs needs two files per member; when it
 * cannot be read, from the member folders in sysfs. The rest comes from
 * sysfs.
 *
 * The kernel's sysfs and /proc/mdstat are world-readable, so the plugin
 * needs no privilege.
 * An attribute that cannot be read or parsed is skipped and logged once,
 * until it reads well again; the other attributes and arrays go on.
 */

#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>
#include <collectd/core/utils/common/common.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "mdstat.h"
#include "root.h"
#include "tunables.h"

#define MDRAID_PLUGIN "mdraid"

/* What the plugin remembers about an array between two reads. */
typedef struct mdraid_seen {
        char name[MD_NAME_MAX + 1];
        uint64_t warned;        /* md_attr bits already logged as unreadable */
        bool selected;          /* passes the Array / IgnoreSelected selection */
        cdtime_t exposed_since; /* first read with no redundancy left; 0 while it has some */
        md_sync_action running; /* the operation the read found running, MD_SYNC_IDLE when none */
        int down;               /* md_array_slots_down() then, -1 unknown */
} mdraid_seen;

/* Configuration. */
static char *mdraid_root_dir;   /* RootDir; NULL is "/" */
static char **mdraid_selection; /* Array entries: name, /dev path or UUID */
static size_t mdraid_selection_n;
static bool mdraid_ignore_selected;

/* State, reused across reads. */
static md_root mdraid_root = MD_ROOT_NULL;
static md_array_set mdraid_set;
static md_mdstat mdraid_mdstat;
static bool mdraid_mdstat_ok;         /* this read's mdstat was read and parsed */
static int mdraid_mdstat_warned;      /* the errno last logged, 0 when none */
static mdraid_seen *mdraid_seen_now;  /* one per entry of mdraid_set, same order */
static mdraid_seen *mdraid_seen_prev; /* last read's, sorted by name */
static size_t mdraid_seen_now_n, mdraid_seen_prev_n, mdraid_seen_cap;
static bool mdraid_first_read = true;
static bool mdraid_list_warned;
static bool mdraid_globals_warned[2]; /* speed_limit_min, speed_limit_max */

/* Files behind md_attr bits, named as under sys/block/<array>/. */
static const char *const mdraid_attr_files[MD_ATTR_TUNABLES] = {
        [MD_ATTR_LEVEL] = "md/level",
        [MD_ATTR_ARRAY_STATE] = "md/array_state",
        [MD_ATTR_UUID] = "md/uuid",
        [MD_ATTR_SIZE] = "size",
        [MD_ATTR_COMPONENT_SIZE] = "md/component_size",
        [MD_ATTR_RAID_DISKS] = "md/raid_disks",
        [MD_ATTR_CHUNK_SIZE] = "md/chunk_size",
        [MD_ATTR_DEGRADED] = "md/degraded",
        [MD_ATTR_SYNC_ACTION] = "md/sync_action",
        [MD_ATTR_LAST_SYNC_ACTION] = "md/last_sync_action",
        [MD_ATTR_SYNC_COMPLETED] = "md/sync_completed",
        [MD_ATTR_SYNC_SPEED] = "md/sync_speed",
        [MD_ATTR_MISMATCH_CNT] = "md/mismatch_cnt",
        [MD_ATTR_RESHAPE_POSITION] = "md/reshape_position",
        [MD_ATTR_BITMAP] = "md/bitmap/location",
        [MD_ATTR_IO] = "stat",
        [MD_ATTR_MEMBERS] = "md/dev-*",
        [MD_ATTR_METADATA] = "md/metadata_version",
        [MD_ATTR_MEMBER_OFFSETS] = "md/dev-*/offset",
        [MD_ATTR_RESYNC_START] = "md/resync_start",
        [MD_ATTR_LAYOUT] = "md/layout",
};

/* ---- config ---------------------------------------------------------- */

static int mdraid_config_array(const oconfig_item_t *ci) {
        char *spec = NULL;
        char **grown;

        if (cf_util_get_string(ci, &spec) != 0)
                return -1;
        grown = realloc(mdraid_selection, (mdraid_selection_n + 1) * sizeof(*grown));
        if (!grown) {
                ERROR("mdraid: out of memory for Array \"%s\"", spec);
                free(spec);
                return -1;
        }
        mdraid_selection = grown;
        mdraid_selection[mdraid_selection_n++] = spec;
        return 0;
}

static int mdraid_config_root(const oconfig_item_t *ci) {
        char *dir = NULL;

        if (cf_util_get_string(ci, &dir) != 0)
                return -1;
        free(mdraid_root_dir);
        mdraid_root_dir = dir;
        return 0;
}

static int mdraid_config(oconfig_item_t *ci) {
        int r;

        for (int i = 0; i < ci->children_num; i++) {
                const oconfig_item_t *child = &ci->children[i];

                if (strcasecmp(child->key, "Array") == 0)
                        r = mdraid_config_array(child);
                else if (strcasecmp(child->key, "IgnoreSelected") == 0)
                        r = cf_util_get_boolean(child, &mdraid_ignore_selected);
                else if (strcasecmp(child->key, "RootDir") == 0)
                        r = mdraid_config_root(child);
                else {
                        ERROR("mdraid: unknown option \"%s\" (known: Array, IgnoreSelected, RootDir)", child->key);
                        r = -1;
                }
                if (r != 0)
                        return -1;
        }
        return 0;
}

/* ---- init ------------------------------------------------------------ */

static int mdraid_init(void) {
        int r;

        if (mdraid_root.fd >= 0)
                return 0;
        r = md_root_open(mdraid_root_dir, &mdraid_root);
        if (r < 0) {
                ERROR("mdraid: cannot open RootDir \"%s\": %s", mdraid_root_dir ? mdraid_root_dir : "/", STRERROR(-r));
                return -1;
        }
        return 0;
}

/* ---- read ------------------------------------------------------------ */

static void mdraid_submit(const char *plugin_instance, const char *type, const char *type_instance, gauge_t value) {
        value_list_t vl = VALUE_LIST_INIT;

        vl.values = &(value_t){ .gauge = value };
        vl.values_len = 1;
        sstrncpy(vl.plugin, MDRAID_PLUGIN, sizeof(vl.plugin));
        sstrncpy(vl.plugin_instance, plugin_instance, sizeof(vl.plugin_instance));
        sstrncpy(vl.type, type, sizeof(vl.type));
        sstrncpy(vl.type_instance, type_instance, sizeof(vl.type_instance));
        plugin_dispatch_values(&vl);
}

/* A number in any of the kernel's spellings: "N", "N (system)", "N (local)". */
static bool mdraid_tval_number(const md_tval *v, uint64_t *ret) {
        if (!md_tval_has_number(v))
                return false;
        *ret = v->value;
        return true;
}

/* Speeds are KiB/s in sysfs and procfs; they are dispatched in bytes/s. */
static void mdraid_report_kib(const char *plugin_instance, const char *type, const char *type_instance,
                              const md_tval *v) {
        uint64_t n;

        if (mdraid_tval_number(v, &n))
                mdraid_submit(plugin_instance, type, type_instance, (gauge_t)n * 1024.0);
}

static void mdraid_report_count(const char *plugin_instance, const char *type_instance, const md_tval *v) {
        uint64_t n;

        if (mdraid_tval_number(v, &n))
                mdraid_submit(plugin_instance, "count", type_instance, (gauge_t)n);
}

/* An inactive array has members but no personality: nothing syncs. */
static bool mdraid_array_running(const md_array *a) {
        return a->state != MD_ARRAY_INACTIVE && a->state != MD_ARRAY_CLEAR;
}

/*
 * How long the array has had no redundancy left, counted from the first read
 * that found it so (collectd's start, at the earliest): the time one more
 * failed disk would have lost it. 0 while it has redundancy.
 */
static void mdraid_report_exposed(const md_array *a, mdraid_seen *s, bool exposed) {
        cdtime_t now = cdtime();

        if (!exposed) {
                s->exposed_since = 0;
                mdraid_submit(a->name, "duration", "no_redundancy", 0);
                return;
        }
        if (s->exposed_since == 0 || s->exposed_since > now)
                s->exposed_since = now;
        mdraid_submit(a->name, "duration", "no_redundancy", CDTIME_T_TO_DOUBLE(now - s->exposed_since));
}

/*
 * From mdstat's entry @e when there is one, else from the member folders
 * read; the counts in @ret_dc, the slots down in @ret_down (-1 unknown).
 */
static void mdraid_report_disks(const md_array *a, const md_mdstat_entry *e, mdraid_seen *s, md_disk_counts *ret_dc,
                                int *ret_down) {
        md_disk_counts dc;
        unsigned down, tolerated;

        *ret_down = -1;
        if (e)
                md_mdstat_disk_counts(e, a->raid_disks.kind == MD_V_NUMBER ? (int64_t)a->raid_disks.value : -1, &dc);
        else
                md_array_disk_counts(a, &dc);
        *ret_dc = dc;
        mdraid_submit(a->name, "md_disks", "active", dc.active);
        mdraid_submit(a->name, "md_disks", "failed", dc.failed);
        mdraid_submit(a->name, "md_disks", "spare", dc.spare);
        mdraid_submit(a->name, "md_disks", "missing", dc.missing);
        mdraid_submit(a->name, "md_disks", "rebuilding", dc.rebuilding);
        if (!mdraid_array_running(a))
                return;
        if (md_array_slots_down(a, &dc, &down) == 0) {
                mdraid_submit(a->name, "count", "degraded", down);
                *ret_down = (int)down;
        }
        /* 0: the array has no redundancy left, and one more failure loses data. */
        if (md_array_failures_tolerated(a, &dc, &tolerated) == 0) {
                mdraid_submit(a->name, "count", "failures_tolerated", tolerated);
                mdraid_report_exposed(a, s, tolerated == 0);
        }
}

/*
 * sync_action names the operation that runs, or that waits: a resync held
 * back because another array shares the disks reads "resync" while
 * sync_completed reads "delayed".
 */
static void mdraid_report_action(const md_array *a) {
        static const struct {
                md_sync_action action;
                const char *name;
        } actions[] = {
                { MD_SYNC_RESYNC, "action_resync" },   { MD_SYNC_RECOVER, "action_recover" },
                { MD_SYNC_CHECK, "action_check" },     { MD_SYNC_REPAIR, "action_repair" },
                { MD_SYNC_RESHAPE, "action_reshape" },
        };

        if (a->sync_action >= 0)
                for (size_t i = 0; i < STATIC_ARRAY_SIZE(actions); i++)
                        mdraid_submit(a->name, "bool", actions[i].name, a->sync_action == actions[i].action);

        if (a->progress.kind == MD_PROGRESS_DELAYED)
                mdraid_submit(a->name, "bool", "sync_delayed", 1);
        else if (a->progress.kind == MD_PROGRESS_NONE || a->progress.kind == MD_PROGRESS_RUNNING ||
                 a->progress.kind == MD_PROGRESS_BETWEEN)
                mdraid_submit(a->name, "bool", "sync_delayed", 0);
}

/*
 * Progress and time left exist only while an operation runs: a gap, not a 0.
 * With mdstat read (@e), a checkpoint the kernel left from the previous
 * operation is not reported as this one's progress.
 */
static void mdraid_report_progress(const md_array *a, const md_mdstat_entry *e) {
        double percent;
        uint64_t seconds;
        int r;

        r = e ? md_mdstat_progress_percent(a, e, &percent) : md_array_progress_percent(a, &percent);
        if (r == 0)
                mdraid_submit(a->name, "percent", "sync_progress", percent);
        if (md_array_seconds_left(a, &seconds) == 0)
                mdraid_submit(a->name, "duration", "sync_remaining", (gauge_t)seconds);
}

/*
 * md drops an operation's progress the moment the operation ends, so the
 * last value graphed is the one read an interval before, short of 100 %.
 * A read that finds the operation the last read saw running over, and run
 * to its end, reports 100 % once: a finished rebuild's line reaches the
 * top, an interrupted one's stops where md stopped. A recovery ran to its
 * end when no member is being rebuilt any more and fewer slots are down (a
 * member that failed while being rebuilt leaves none rebuilding either);
 * the other operations as md_operation_completed() tells.
 */
static void mdraid_report_finish(const md_array *a, const mdraid_seen *prev, const md_disk_counts *dc, int down) {
        bool completed;

        if (prev->running == MD_SYNC_IDLE || a->sync_action != MD_SYNC_IDLE)
                return;
        if (prev->running == MD_SYNC_RECOVER)
                completed = dc->rebuilding == 0 && down >= 0 && prev->down >= 0 && down < prev->down;
        else
                completed = md_operation_completed(a, prev->running);
        if (completed)
                mdraid_submit(a->name, "percent", "sync_progress", 100);
}

static void mdraid_report_sync(const md_array *a, const md_mdstat_entry *e) {
        mdraid_report_progress(a, e);
        mdraid_report_kib(a->name, "bytes", "sync_speed", &a->sync_speed);
        mdraid_report_kib(a->name, "bytes", "sync_speed_min", &a->tunables[MD_T_SYNC_SPEED_MIN]);
        mdraid_report_kib(a->name, "bytes", "sync_speed_max", &a->tunables[MD_T_SYNC_SPEED_MAX]);
        mdraid_report_action(a);
        mdraid_report_count(a->name, "mismatch_cnt", &a->mismatch_cnt);
        /* raid4/5/6 only: other levels have no such file, so the value is absent. */
        mdraid_report_count(a->name, "stripe_cache_size", &a->tunables[MD_T_STRIPE_CACHE_SIZE]);
        mdraid_report_count(a->name, "stripe_cache_active", &a->tunables[MD_T_STRIPE_CACHE_ACTIVE]);
        mdraid_report_kib(a->name, "bytes", "read_ahead", &a->tunables[MD_T_READ_AHEAD_KB]);
        /* Linux 6.16+: sync requests md lets in flight while the array has users. */
        mdraid_report_count(a->name, "sync_io_depth", &a->tunables[MD_T_SYNC_IO_DEPTH]);
}

/*
 * md_seq_show lists every array that has a personality, a member or a
 * raid_disks count, so with mdstat read, an array missing from it has no
 * members: zero of each. A running one missing from it was assembled after
 * mdstat was read; it is reported from the next read on.
 */
static void mdraid_report_array(const md_array *a, mdraid_seen *s) {
        static const md_mdstat_entry no_members;
        const md_mdstat_entry *e = NULL;
        md_disk_counts dc;
        int down;

        if (mdraid_mdstat_ok) {
                e = md_mdstat_find(mdraid_mdstat.entries, mdraid_mdstat.n, a->name);
                if (!e && mdraid_array_running(a))
                        return;
                if (!e)
                        e = &no_members;
        }
        mdraid_report_disks(a, e, s, &dc, &down);
        if (md_array_has_redundancy(a) && mdraid_array_running(a)) {
                mdraid_report_sync(a, e);
                mdraid_report_finish(a, s, &dc, down);
        }
        s->running = a->sync_action > MD_SYNC_IDLE && a->sync_action < MD_SYNC_FROZEN &&
                                     a->progress.kind == MD_PROGRESS_RUNNING
                             ? a->sync_action
                             : MD_SYNC_IDLE;
        s->down = down;
}

/* Logs an unreadable global limit once, and once more when it reads well again. */
static bool mdraid_report_global(md_tunable t, const md_tval *v, bool *warned) {
        const md_tunable_info *info = md_tunable_get(t);
        uint64_t n;

        if (v->kind == MD_V_UNKNOWN) {
                if (!*warned)
                        WARNING("mdraid: cannot read or parse %s; not reporting it", info->path);
                *warned = true;
                return false;
        }
        if (*warned)
                NOTICE("mdraid: %s is readable again", info->path);
        *warned = false;
        if (!mdraid_tval_number(v, &n))
                return false; /* absent: no md driver loaded */
        mdraid_submit("", "bytes", info->name, (gauge_t)n * 1024.0);
        return true;
}

/* Returns false when neither global limit was dispatched. */
static bool mdraid_report_globals(void) {
        md_globals g;
        bool min_ok, max_ok;
        int r;

        r = md_read_globals(&mdraid_root, &g);
        if (r < 0) {
                g.speed_limit_min = (md_tval){ .kind = MD_V_UNKNOWN };
                g.speed_limit_max = g.sync_io_depth = g.speed_limit_min;
        }
        min_ok = mdraid_report_global(MD_T_SPEED_LIMIT_MIN, &g.speed_limit_min, &mdraid_globals_warned[0]);
        max_ok = mdraid_report_global(MD_T_SPEED_LIMIT_MAX, &g.speed_limit_max, &mdraid_globals_warned[1]);
        /* Linux 6.16+: the default an array's sync_io_depth follows in "(system)" mode. */
        mdraid_report_count("", "sync_io_depth", &g.sync_io_depth);
        return min_ok || max_ok;
}

static const char *mdraid_attr_file(unsigned bit) {
        const md_tunable_info *t;

        if (bit < MD_ATTR_TUNABLES)
                return mdraid_attr_files[bit];
        t = md_tunable_get((md_tunable)(bit - MD_ATTR_TUNABLES));
        return t ? t->path : "?";
}

/* Logs each unreadable attribute once, and once more when it reads well again. */
static void mdraid_warn_bad(const md_array *a, mdraid_seen *s) {
        uint64_t fresh = a->bad & ~s->warned;
        uint64_t healed = s->warned & ~a->bad;

        for (unsigned bit = 0; bit < _MD_ATTR_MAX; bit++) {
                if (fresh & (UINT64_C(1) << bit))
                        WARNING("mdraid: %s: cannot read or parse %s; not reporting it", a->name,
                                mdraid_attr_file(bit));
                if (healed & (UINT64_C(1) << bit))
                        NOTICE("mdraid: %s: %s is readable again", a->name, mdraid_attr_file(bit));
        }
        s->warned = a->bad;
}

static int mdraid_seen_reserve(size_t n) {
        mdraid_seen *now, *prev;

        if (n <= mdraid_seen_cap)
                return 0;
        now = realloc(mdraid_seen_now, n * sizeof(*now));
        if (!now)
                return -ENOMEM;
        mdraid_seen_now = now;
        prev = realloc(mdraid_seen_prev, n * sizeof(*prev));
        if (!prev)
                return -ENOMEM;
        mdraid_seen_prev = prev;
        mdraid_seen_cap = n;
        return 0;
}

/*
 * Carries each array's warnings over from the last read and logs arrays that
 * appeared or went away. Both lists are sorted by name, so one merge pass.
 */
static void mdraid_track_arrays(void) {
        size_t p = 0;

        for (unsigned i = 0; i < mdraid_set.n; i++) {
                const char *name = mdraid_set.arrays[i].name;
                mdraid_seen *s = &mdraid_seen_now[i];

                for (; p < mdraid_seen_prev_n && strcmp(mdraid_seen_prev[p].name, name) < 0; p++)
                        NOTICE("mdraid: %s is gone", mdraid_seen_prev[p].name);
                if (p < mdraid_seen_prev_n && strcmp(mdraid_seen_prev[p].name, name) == 0) {
                        *s = mdraid_seen_prev[p++];
                        continue;
                }
                *s = (mdraid_seen){ .down = -1 };
                sstrncpy(s->name, name, sizeof(s->name));
                if (!mdraid_first_read)
                        NOTICE("mdraid: %s appeared", name);
        }
        for (; p < mdraid_seen_prev_n; p++)
                NOTICE("mdraid: %s is gone", mdraid_seen_prev[p].name);
        mdraid_seen_now_n = mdraid_set.n;
}

/* Collectd's selection semantics: the listed arrays, or all but them. */
static void mdraid_select_arrays(void) {
        bool listed_value = !mdraid_ignore_selected;

        for (size_t i = 0; i < mdraid_seen_now_n; i++)
                mdraid_seen_now[i].selected = mdraid_selection_n == 0 || !listed_value;
        for (size_t j = 0; j < mdraid_selection_n; j++) {
                const md_array *a = md_array_set_find(&mdraid_set, mdraid_selection[j]);

                if (a)
                        mdraid_seen_now[a - mdraid_set.arrays].selected = listed_value;
        }
}

static void mdraid_seen_swap(void) {
        mdraid_seen *t = mdraid_seen_prev;

        mdraid_seen_prev = mdraid_seen_now;
        mdraid_seen_prev_n = mdraid_seen_now_n;
        mdraid_seen_now = t;
        mdraid_seen_now_n = 0;
}

/*
 * Reads /proc/mdstat for the members. A file that is missing (a RootDir
 * without proc/) is not a problem: sysfs has the members too. Any other
 * failure is logged once, and once more when it reads well again.
 */
static void mdraid_read_mdstat(void) {
        int r = md_read_mdstat(&mdraid_root, &mdraid_mdstat);

        mdraid_mdstat_ok = r >= 0;
        if (r < 0 && r != -ENOENT && r != mdraid_mdstat_warned) {
                WARNING("mdraid: cannot read or parse proc/mdstat: %s; reading members from sysfs", STRERROR(-r));
                mdraid_mdstat_warned = r;
        } else if (r >= 0 && mdraid_mdstat_warned) {
                NOTICE("mdraid: proc/mdstat is readable again");
                mdraid_mdstat_warned = 0;
        }
}

/*
 * The files behind the metrics, and the UUID when an Array entry may name
 * one: each file is a read per array per interval, so no more are asked for.
 * The member folders only when mdstat could not be read.
 */
static uint64_t mdraid_attrs(void) {
        uint64_t attrs = MD_ATTR_BIT(MD_ATTR_RAID_DISKS) | MD_ATTR_BIT(MD_ATTR_SYNC_ACTION) |
                         MD_ATTR_BIT(MD_ATTR_SYNC_COMPLETED) | MD_ATTR_BIT(MD_ATTR_SYNC_SPEED) |
                         MD_ATTR_BIT(MD_ATTR_MISMATCH_CNT) | MD_ATTR_TUNABLE_BIT(MD_T_SYNC_SPEED_MIN) |
                         MD_ATTR_TUNABLE_BIT(MD_T_SYNC_SPEED_MAX) | MD_ATTR_TUNABLE_BIT(MD_T_STRIPE_CACHE_SIZE) |
                         MD_ATTR_TUNABLE_BIT(MD_T_STRIPE_CACHE_ACTIVE) | MD_ATTR_TUNABLE_BIT(MD_T_READ_AHEAD_KB) |
                         MD_ATTR_TUNABLE_BIT(MD_T_SYNC_IO_DEPTH) | MD_ATTR_BIT(MD_ATTR_LAYOUT);

        if (mdraid_selection_n > 0)
                attrs |= MD_ATTR_BIT(MD_ATTR_UUID);
        if (!mdraid_mdstat_ok)
                attrs |= MD_ATTR_BIT(MD_ATTR_MEMBERS);
        /* What tells an operation that ended from one interrupted (mdraid_report_finish), once one ran. */
        for (size_t i = 0; i < mdraid_seen_prev_n; i++)
                if (mdraid_seen_prev[i].running != MD_SYNC_IDLE)
                        attrs |= MD_ATTR_BIT(MD_ATTR_RESYNC_START) | MD_ATTR_BIT(MD_ATTR_RESHAPE_POSITION) |
                                 MD_ATTR_TUNABLE_BIT(MD_T_SYNC_MIN);
        return attrs;
}

static int mdraid_read_list(void) {
        int r;

        r = md_read_arrays_of(&mdraid_root, &mdraid_set, mdraid_attrs());
        if (r >= 0)
                r = mdraid_seen_reserve(mdraid_set.n);
        if (r < 0) {
                if (!mdraid_list_warned)
                        WARNING("mdraid: cannot list md arrays under sys/block: %s", STRERROR(-r));
                mdraid_list_warned = true;
                return r;
        }
        if (mdraid_list_warned)
                NOTICE("mdraid: md arrays can be listed again");
        mdraid_list_warned = false;
        return 0;
}

static int mdraid_read(void) {
        bool globals_ok;
        int r;

        globals_ok = mdraid_report_globals();
        mdraid_read_mdstat();
        r = mdraid_read_list();
        if (r < 0)
                return globals_ok ? 0 : -1;

        mdraid_track_arrays();
        mdraid_select_arrays();
        for (size_t i = 0; i < mdraid_seen_now_n; i++) {
                if (!mdraid_seen_now[i].selected)
                        continue;
                mdraid_warn_bad(&mdraid_set.arrays[i], &mdraid_seen_now[i]);
                mdraid_report_array(&mdraid_set.arrays[i], &mdraid_seen_now[i]);
        }
        mdraid_seen_swap();
        mdraid_first_read = false;
        return 0;
}

/* ---- shutdown -------------------------------------------------------- */

static int mdraid_shutdown(void) {
        md_array_set_free(&mdraid_set);
        md_mdstat_free(&mdraid_mdstat);
        mdraid_mdstat_ok = false;
        mdraid_mdstat_warned = 0;
        md_root_close(&mdraid_root);
        free(mdraid_seen_now);
        free(mdraid_seen_prev);
        mdraid_seen_now = mdraid_seen_prev = NULL;
        mdraid_seen_now_n = mdraid_seen_prev_n = mdraid_seen_cap = 0;
        for (size_t i = 0; i < mdraid_selection_n; i++)
                free(mdraid_selection[i]);
        free(mdraid_selection);
        mdraid_selection = NULL;
        mdraid_selection_n = 0;
        free(mdraid_root_dir);
        mdraid_root_dir = NULL;
        mdraid_ignore_selected = false;
        mdraid_first_read = true;
        mdraid_list_warned = false;
        mdraid_globals_warned[0] = mdraid_globals_warned[1] = false;
        return 0;
}

void module_register(void) {
        plugin_register_complex_config(MDRAID_PLUGIN, mdraid_config);
        plugin_register_init(MDRAID_PLUGIN, mdraid_init);
        plugin_register_read(MDRAID_PLUGIN, mdraid_read);
        plugin_register_shutdown(MDRAID_PLUGIN, mdraid_shutdown);
}
