/* SPDX-License-Identifier: MIT */
/*
 * The mdraid collectd plugin, driven through its registered callbacks with a
 * mock of the daemon (collectd-mock.c) over copies of the real sysfs
 * snapshots in tests/fixtures/, edited per case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectd-mock.h"
#include "md-fixture.h"

/* ---- fixture trees (tests/unit/md-fixture.h) --------------------------- */

static char *tree; /* the test's root, a copy of a fixture; NULL before one */

/* The snapshot tests/fixtures/@name, read only. */
static const char *fixture(const char *name) {
        static char buf[PATH_MAX];

        assert_non_null(md_fixture_snapshot(name, buf, sizeof(buf)));
        return buf;
}

static void tree_copy(const char *name) {
        assert_int_equal(md_fixture_new_from(name, &tree), 0);
}

/* Removes a file or folder of the tree; one that is not there is fine. */
static void tree_remove(const char *rel) {
        int k = md_fixture_remove(tree, rel);

        assert_true(k == 0 || k == -ENOENT);
}

/* Replaces a file whole, as the kernel's attributes change: never half-written. */
static void tree_write(const char *rel, const char *text) {
        assert_int_equal(md_fixture_replace(tree, rel, text), 0);
}

static void tree_rename(const char *from, const char *to) {
        assert_int_equal(md_fixture_rename(tree, from, to), 0);
}

/* Copies one folder of the tree to another place in the same tree. */
static void tree_dup(const char *from, const char *to) {
        char src[PATH_MAX], dst[PATH_MAX];

        assert_true(snprintf(src, sizeof(src), "%s/%s", tree, from) < (int)sizeof(src));
        assert_true(snprintf(dst, sizeof(dst), "%s/%s", tree, to) < (int)sizeof(dst));
        assert_int_equal(md_fixture_mkdir(tree, to), 0);
        assert_int_equal(md_fixture_copy(src, dst), 0);
}

/*
 * Replaces proc/mdstat with these array blocks between the lines md_seq_show
 * prints first and last. A test that changes the members in sysfs writes
 * what the kernel would then print here too.
 */
static void tree_mdstat(const char *blocks) {
        char text[8192];

        assert_true(snprintf(text, sizeof(text),
                             "Personalities : [raid0] [raid1] [raid6] [raid5] [raid4] [raid10] "
                             "[linear] \n%sunused devices: <none>\n",
                             blocks) < (int)sizeof(text));
        tree_write("proc/mdstat", text);
}

/* 03-raid5-recovery's md0 header: "md0 : active raid5 MEMBERS", then its status line. */
#define RAID5_MD0(members, map)                                                                                        \
        "md0 : active raid5 " members "\n"                                                                             \
        "      3139584 blocks super 1.2 level 5, 512k chunk, algorithm 2 " map "\n"

/* The raid5 of 03-raid5-recovery after its recovery ended: nothing runs. */
static void tree_make_idle(const char *md) {
        char rel[128];

        snprintf(rel, sizeof(rel), "sys/block/%s/md/sync_action", md);
        tree_write(rel, "idle\n");
        snprintf(rel, sizeof(rel), "sys/block/%s/md/sync_completed", md);
        tree_write(rel, "none\n");
        snprintf(rel, sizeof(rel), "sys/block/%s/md/sync_speed", md);
        tree_write(rel, "none\n");
}

/* ---- plugin lifecycle ------------------------------------------------- */

static int setup(void **state) {
        (void)state;
        tree = NULL;
        mock_clear();
        mock.quiet = true;
        module_register();
        return 0;
}

static int teardown(void **state) {
        (void)state;
        if (mock.shutdown)
                mock.shutdown();
        if (tree) {
                assert_int_equal(md_fixture_rm(tree), 0);
                free(tree);
                tree = NULL;
        }
        return 0;
}

/* Configures RootDir (plus @extra keys), runs init, returns init's result. */
static int start(const char *root, mock_config_item *extra) {
        mock_config_item local;
        mock_config_item *c = extra ? extra : &local;

        if (!extra)
                mock_config_init(c, "mdraid");
        if (root)
                mock_config_add_string(c, "RootDir", root);
        assert_int_equal(mock.config(&c->block), 0);
        return mock.init();
}

static void read_once(void) {
        mock_clear();
        assert_int_equal(mock.read(), 0);
        assert_int_equal(mock.n_bad_types, 0);
}

static void assert_value(const char *inst, const char *type, const char *ti, double want) {
        const mock_value *v = mock_find(inst, type, ti);

        if (!v)
                fail_msg("%s %s-%s was not dispatched", inst, type, ti);
        if (v->value < want - 1e-6 || v->value > want + 1e-6)
                fail_msg("%s %s-%s = %f, want %f", inst, type, ti, v->value, want);
        assert_string_equal(v->plugin, "mdraid");
}

static void assert_absent(const char *inst, const char *type, const char *ti) {
        if (mock_find(inst, type, ti))
                fail_msg("%s %s-%s was dispatched", inst, type, ti);
}

static void assert_disks(const char *inst, unsigned active, unsigned failed, unsigned spare, unsigned missing,
                         unsigned rebuilding) {
        assert_value(inst, "md_disks", "active", active);
        assert_value(inst, "md_disks", "failed", failed);
        assert_value(inst, "md_disks", "spare", spare);
        assert_value(inst, "md_disks", "missing", missing);
        assert_value(inst, "md_disks", "rebuilding", rebuilding);
}

/*
 * The counts as read from mdstat, then from the member folders with mdstat
 * gone, which must agree; mdstat is back for the next read.
 */
static void assert_disks_both(const char *inst, unsigned active, unsigned failed, unsigned spare, unsigned missing,
                              unsigned rebuilding) {
        char saved[8192];
        ssize_t len;

        assert_disks(inst, active, failed, spare, missing, rebuilding);
        len = md_fixture_read(tree, "proc/mdstat", saved, sizeof(saved));
        assert_true(len > 0 && len < (ssize_t)sizeof(saved) - 1);
        tree_remove("proc/mdstat");
        read_once();
        assert_disks(inst, active, failed, spare, missing, rebuilding);
        tree_write("proc/mdstat", saved);
        read_once();
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
}

static void assert_actions(const char *inst, const char *running, int delayed) {
        static const char *const names[] = { "resync", "recover", "check", "repair", "reshape" };
        char ti[64];

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                snprintf(ti, sizeof(ti), "action_%s", names[i]);
                assert_value(inst, "bool", ti, running && strcmp(running, names[i]) == 0);
        }
        assert_value(inst, "bool", "sync_delayed", delayed);
}

/* ---- tests ------------------------------------------------------------ */

static void test_registers_every_callback(void **state) {
        (void)state;
        assert_string_equal(mock.name, "mdraid");
        assert_non_null(mock.config);
        assert_non_null(mock.init);
        assert_non_null(mock.read);
        assert_non_null(mock.shutdown);
}

static void test_raid5_recovery(void **state) {
        (void)state;
        assert_int_equal(start(fixture("03-raid5-recovery"), NULL), 0);
        read_once();

        /* sync_completed "261648 / 2093056", sync_speed 10301 KiB/s */
        assert_value("md0", "percent", "sync_progress", 100.0 * 261648 / 2093056);
        const mock_value *left = mock_find("md0", "duration", "sync_remaining");
        assert_non_null(left);
        /* (2093056 - 261648) sectors of 512 bytes at 10301 KiB/s: 88.9 s */
        assert_in_range((uint64_t)left->value, 88, 89);
        assert_value("md0", "bytes", "sync_speed", 10301.0 * 1024);
        assert_value("md0", "bytes", "sync_speed_min", 1000.0 * 1024);
        assert_value("md0", "bytes", "sync_speed_max", 10000.0 * 1024);
        assert_actions("md0", "recover", 0);
        /* vdd holds slot 3 with recovery_start 261648: being rebuilt, not a spare */
        assert_disks("md0", 3, 0, 0, 0, 1);
        /* one slot of four is still being rebuilt: one more failure loses data */
        assert_value("md0", "count", "failures_tolerated", 0);
        assert_value("md0", "count", "degraded", 1);
        assert_value("md0", "count", "mismatch_cnt", 0);
        assert_value("md0", "count", "stripe_cache_size", 256);
        assert_value("md0", "count", "stripe_cache_active", 0);
        assert_value("md0", "bytes", "read_ahead", 3072.0 * 1024);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
}

/* How long md0 has had no redundancy: from the first read that found it so. */
static void test_no_redundancy_duration(void **state) {
        const cdtime_t t0 = TIME_T_TO_CDTIME_T_STATIC(1700000000);

        (void)state;
        assert_int_equal(start(fixture("03-raid5-recovery"), NULL), 0);
        mock.now = t0;
        read_once();
        assert_value("md0", "duration", "no_redundancy", 0);
        mock.now = t0 + TIME_T_TO_CDTIME_T_STATIC(90);
        read_once();
        assert_value("md0", "duration", "no_redundancy", 90);
        mock.now = t0 + TIME_T_TO_CDTIME_T_STATIC(3600);
        read_once();
        assert_value("md0", "duration", "no_redundancy", 3600);
        mock.now = 0;
}

/* An array with redundancy left (a raid6 reshaping, two failures to go) reports 0. */
static void test_redundancy_duration_zero(void **state) {
        (void)state;
        assert_int_equal(start(fixture("09-raid6-reshape"), NULL), 0);
        read_once();
        assert_value("md0", "duration", "no_redundancy", 0);
}

static void test_globals_have_empty_instance(void **state) {
        (void)state;
        assert_int_equal(start(fixture("03-raid5-recovery"), NULL), 0);
        read_once();
        assert_value("", "bytes", "speed_limit_min", 1000.0 * 1024);
        assert_value("", "bytes", "speed_limit_max", 10000.0 * 1024);
        assert_int_equal(mock_count_instance(""), 2);
}

/* Linux 6.16+: sync_io_depth per array and its global default, absent before. */
static void test_sync_io_depth(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("sys/block/md0/md/sync_io_depth", "64 (local)\n");
        tree_write("proc/sys/dev/raid/sync_io_depth", "32\n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_value("md0", "count", "sync_io_depth", 64);
        assert_value("", "count", "sync_io_depth", 32);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
        /* On 6.1 neither is there: nothing dispatched, nothing warned. */
        tree_remove("sys/block/md0/md/sync_io_depth");
        tree_remove("proc/sys/dev/raid/sync_io_depth");
        read_once();
        assert_absent("md0", "count", "sync_io_depth");
        assert_absent("", "count", "sync_io_depth");
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
}

static void test_raid6_reshape(void **state) {
        (void)state;
        assert_int_equal(start(fixture("09-raid6-reshape"), NULL), 0);
        read_once();
        assert_value("md0", "percent", "sync_progress", 100.0 * 325632 / 2093056);
        assert_value("md0", "bytes", "sync_speed", 10146.0 * 1024);
        /* "0 (system)": a floor of 0 is a value, not a missing one */
        assert_value("md0", "bytes", "sync_speed_min", 0);
        assert_value("md0", "bytes", "sync_speed_max", 10000.0 * 1024);
        assert_actions("md0", "reshape", 0);
        assert_disks("md0", 5, 0, 0, 0, 0);
        assert_value("md0", "count", "failures_tolerated", 2);
        /* growing 4 -> 5: the new slot is written by the reshape, not missing */
        assert_value("md0", "count", "degraded", 0);
        assert_value("md0", "count", "stripe_cache_size", 513);
        assert_value("md0", "bytes", "read_ahead", 2048.0 * 1024);
}

static void test_delayed_resync(void **state) {
        (void)state;
        assert_int_equal(start(fixture("10-two-raid1-resync-delayed"), NULL), 0);
        read_once();

        assert_value("md10", "percent", "sync_progress", 100.0 * 204800 / 817152);
        assert_actions("md10", "resync", 0);

        /* md11 waits for md10: it resyncs, delayed, with no progress to draw */
        assert_actions("md11", "resync", 1);
        assert_absent("md11", "percent", "sync_progress");
        assert_absent("md11", "duration", "sync_remaining");
        assert_value("md11", "bytes", "sync_speed", 0);
        assert_disks("md11", 2, 0, 0, 0, 0);
        assert_value("md11", "count", "failures_tolerated", 1);
        assert_value("md11", "count", "degraded", 0);
        /* raid1 has no stripe cache */
        assert_absent("md11", "count", "stripe_cache_size");
        assert_absent("md11", "count", "stripe_cache_active");
        assert_value("md11", "count", "mismatch_cnt", 0);
}

static void test_idle_degraded_leaves_a_gap(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_make_idle("md0");
        tree_remove("sys/block/md0/md/rd3");
        tree_remove("sys/block/md0/md/dev-vdd");
        tree_mdstat(RAID5_MD0("vdc[2] vdb[1] vda[0]", "[4/3] [UUU_]") "      \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();

        assert_absent("md0", "percent", "sync_progress");
        assert_absent("md0", "duration", "sync_remaining");
        assert_absent("md0", "bytes", "sync_speed");
        assert_value("md0", "bytes", "sync_speed_min", 1000.0 * 1024);
        assert_value("md0", "bytes", "sync_speed_max", 10000.0 * 1024);
        assert_actions("md0", NULL, 0);
        assert_disks_both("md0", 3, 0, 0, 1, 0);
        assert_value("md0", "count", "failures_tolerated", 0);
        assert_value("md0", "count", "degraded", 1);
}

static void test_failed_member(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_make_idle("md0");
        /* md_error() marks the member faulty; the personality then drops its slot */
        tree_write("sys/block/md0/md/dev-vdd/state", "faulty\n");
        tree_write("sys/block/md0/md/dev-vdd/slot", "none\n");
        tree_write("sys/block/md0/md/dev-vdd/recovery_start", "none\n");
        tree_remove("sys/block/md0/md/rd3");
        tree_mdstat(RAID5_MD0("vdd[4](F) vdc[2] vdb[1] vda[0]", "[4/3] [UUU_]") "      \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_disks_both("md0", 3, 1, 0, 1, 0);
}

static void test_replacement_in_progress(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        /* vdd is in sync again; vde replaces vdb in slot 1 while vdb keeps serving */
        tree_write("sys/block/md0/md/dev-vdd/state", "in_sync\n");
        tree_write("sys/block/md0/md/dev-vdd/recovery_start", "none\n");
        tree_write("sys/block/md0/md/degraded", "0\n");
        tree_write("sys/block/md0/md/dev-vdb/state", "in_sync,want_replacement\n");
        tree_dup("sys/block/md0/md/dev-vdd", "sys/block/md0/md/dev-vde");
        tree_write("sys/block/md0/md/dev-vde/state", "spare,replacement\n");
        tree_write("sys/block/md0/md/dev-vde/slot", "1\n");
        tree_write("sys/block/md0/md/dev-vde/recovery_start", "261648\n");
        tree_mdstat(RAID5_MD0("vde[5](R) vdd[4] vdc[2] vdb[1] vda[0]",
                              "[4/4] [UUUU]") "      [==>..................]  recovery = 12.5% (130824/1046528) "
                                              "finish=1.4min speed=10301K/sec\n      \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_actions("md0", "recover", 0);
        assert_disks_both("md0", 4, 0, 0, 0, 1);
        /* vdb still serves its slot while vde is rebuilt to replace it */
        assert_value("md0", "count", "failures_tolerated", 1);
        /* md's own count: the replacement leaves the array whole */
        assert_value("md0", "count", "degraded", 0);
}

static void test_hot_spare(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_make_idle("md0");
        tree_write("sys/block/md0/md/dev-vdd/state", "in_sync\n");
        tree_write("sys/block/md0/md/dev-vdd/recovery_start", "none\n");
        tree_write("sys/block/md0/md/degraded", "0\n");
        tree_dup("sys/block/md0/md/dev-vdd", "sys/block/md0/md/dev-vde");
        tree_write("sys/block/md0/md/dev-vde/state", "spare\n");
        tree_write("sys/block/md0/md/dev-vde/slot", "none\n");
        tree_mdstat(RAID5_MD0("vde[5](S) vdd[4] vdc[2] vdb[1] vda[0]", "[4/4] [UUUU]") "      \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_disks_both("md0", 4, 0, 1, 0, 0);
}

/* raid0 keeps no md/sync_* files: the kernel registers them only for levels that sync. */
static void make_raid0(void) {
        static const char *const gone[] = {
                "sync_action",
                "last_sync_action",
                "sync_completed",
                "sync_speed",
                "sync_speed_min",
                "sync_speed_max",
                "sync_min",
                "sync_max",
                "mismatch_cnt",
                "sync_force_parallel",
                "stripe_cache_size",
                "stripe_cache_active",
                "group_thread_cnt",
                "degraded",
                "bitmap",
        };
        char rel[128];

        tree_copy("03-raid5-recovery");
        for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
                snprintf(rel, sizeof(rel), "sys/block/md0/md/%s", gone[i]);
                tree_remove(rel);
        }
        tree_write("sys/block/md0/md/level", "raid0\n");
        tree_write("sys/block/md0/md/dev-vdd/state", "in_sync\n");
        tree_write("sys/block/md0/md/dev-vdd/recovery_start", "none\n");
        /* raid0's status method prints the chunk size and no map */
        tree_mdstat("md0 : active raid0 vdd[4] vdc[2] vdb[1] vda[0]\n"
                    "      4186112 blocks super 1.2 512k chunks\n      \n");
}

static void test_raid0_reports_disks_only(void **state) {
        (void)state;
        make_raid0();
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_int_equal(mock_count_instance("md0"), 5);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
        assert_disks_both("md0", 4, 0, 0, 0, 0);
}

static void test_inactive_reports_disks_only(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        /*
         * Assembled but not started: md binds the members without a slot
         * until the array runs, and mdstat marks each (S).
         */
        tree_write("sys/block/md0/md/array_state", "inactive\n");
        for (const char *const *m = (const char *const[]){ "vda", "vdb", "vdc", "vdd", NULL }; *m; m++) {
                char rel[128];

                snprintf(rel, sizeof(rel), "sys/block/md0/md/dev-%s/state", *m);
                tree_write(rel, "spare\n");
                snprintf(rel, sizeof(rel), "sys/block/md0/md/dev-%s/slot", *m);
                tree_write(rel, "none\n");
        }
        for (const char *const *rd = (const char *const[]){ "rd0", "rd1", "rd2", "rd3", NULL }; *rd; rd++) {
                char rel[128];

                snprintf(rel, sizeof(rel), "sys/block/md0/md/%s", *rd);
                tree_remove(rel);
        }
        tree_mdstat("md0 : inactive vdd[4](S) vdc[2](S) vdb[1](S) vda[0](S)\n"
                    "      4186112 blocks super 1.2\n       \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_int_equal(mock_count_instance("md0"), 5);
        assert_disks_both("md0", 0, 0, 4, 4, 0);
}

static void test_no_arrays_reports_globals(void **state) {
        (void)state;
        assert_int_equal(start(fixture("00-no-arrays"), NULL), 0);
        read_once();
        assert_int_equal(mock.n_values, 2);
        assert_int_equal(mock_count_instance(""), 2);
}

static void test_array_selection(void **state) {
        mock_config_item c;

        (void)state;
        mock_config_init(&c, "mdraid");
        mock_config_add_string(&c, "Array", "md10");
        assert_int_equal(start(fixture("10-two-raid1-resync-delayed"), &c), 0);
        read_once();
        assert_true(mock_count_instance("md10") > 0);
        assert_int_equal(mock_count_instance("md11"), 0);
        assert_int_equal(mock_count_instance(""), 2);
}

static void test_array_selection_ignored_by_uuid(void **state) {
        mock_config_item c;

        (void)state;
        mock_config_init(&c, "mdraid");
        /* md10's UUID in mdadm's spelling */
        mock_config_add_string(&c, "Array", "ac39b561:3df72dd6:a96412de:ae4245ad");
        mock_config_add_bool(&c, "IgnoreSelected", true);
        assert_int_equal(start(fixture("10-two-raid1-resync-delayed"), &c), 0);
        read_once();
        assert_int_equal(mock_count_instance("md10"), 0);
        assert_true(mock_count_instance("md11") > 0);
}

static void test_array_selection_by_device_path(void **state) {
        mock_config_item c;

        (void)state;
        mock_config_init(&c, "mdraid");
        mock_config_add_string(&c, "Array", "/dev/md11");
        mock_config_add_string(&c, "Array", "md10");
        mock_config_add_bool(&c, "IgnoreSelected", false);
        assert_int_equal(start(fixture("10-two-raid1-resync-delayed"), &c), 0);
        read_once();
        assert_true(mock_count_instance("md10") > 0);
        assert_true(mock_count_instance("md11") > 0);
}

/* The mock's types.db check is what proves "stock types only": make sure it bites. */
static void test_mock_refuses_unknown_types(void **state) {
        value_list_t vl = VALUE_LIST_INIT;
        value_t two[2] = { { .gauge = 1 }, { .gauge = 2 } };

        (void)state;
        vl.values = two;
        vl.values_len = 1;
        snprintf(vl.type, sizeof(vl.type), "md_rebuild_speed");
        assert_int_not_equal(plugin_dispatch_values(&vl), 0);
        snprintf(vl.type, sizeof(vl.type), "disk_octets"); /* two data sources */
        assert_int_not_equal(plugin_dispatch_values(&vl), 0);
        vl.values_len = 2;
        assert_int_equal(plugin_dispatch_values(&vl), 0);
        assert_int_equal(mock.n_bad_types, 2);
}

static void test_unknown_option_is_refused(void **state) {
        mock_config_item c;

        (void)state;
        mock_config_init(&c, "mdraid");
        mock_config_add_string(&c, "Device", "md0");
        assert_int_not_equal(mock.config(&c.block), 0);
        assert_int_equal(mock_count_logs(LOG_ERR, "mdraid: unknown option \"Device\""), 1);
}

static void test_missing_root_fails_init(void **state) {
        (void)state;
        assert_int_not_equal(start("/nonexistent/mdraid-root", NULL), 0);
        assert_int_equal(mock_count_logs(LOG_ERR, "mdraid: cannot open RootDir"), 1);
}

static void test_progress_moves(void **state) {
        const mock_value *v;
        double first;

        (void)state;
        tree_copy("03-raid5-recovery");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        v = mock_find("md0", "percent", "sync_progress");
        assert_non_null(v);
        first = v->value;
        /* The kernel moves mdstat's live position with its checkpoint. */
        tree_write("sys/block/md0/md/sync_completed", "1046528 / 2093056\n");
        tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]",
                              "[4/3] [UUU_]") "      [=========>...........]  recovery = 50.2% (525312/1046528) "
                                              "finish=0.8min speed=11108K/sec\n      \n");
        read_once();
        assert_value("md0", "percent", "sync_progress", 50.0);
        assert_true(first < 50.0);
}

/*
 * Just after a check starts, 6.12 still shows the resync's last checkpoint in
 * sync_completed while mdstat's live position is at 0: that is no progress of
 * the check. Once both move, the checkpoint is reported again; so is one
 * that mdstat cannot confirm when mdstat cannot be read.
 */
static void test_stale_checkpoint_is_not_progress(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("sys/block/md0/md/sync_action", "check\n");
        tree_write("sys/block/md0/md/sync_completed", "1845888 / 2093056\n");
        tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]",
                              "[4/4] [UUUU]") "      [>....................]  check =  0.0% (0/1046528) "
                                              "finish=0.0min speed=0K/sec\n      \n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_null(mock_find("md0", "percent", "sync_progress"));
        assert_actions("md0", "check", 0);

        /* The check has no position in mdstat yet: no checkpoint of its own either. */
        tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]", "[4/4] [UUUU]") "      \n");
        read_once();
        assert_null(mock_find("md0", "percent", "sync_progress"));

        tree_write("sys/block/md0/md/sync_completed", "32768 / 2093056\n");
        tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]",
                              "[4/4] [UUUU]") "      [>....................]  check =  1.8% (18944/1046528) "
                                              "finish=1.4min speed=11108K/sec\n      \n");
        read_once();
        assert_value("md0", "percent", "sync_progress", 100.0 * 32768 / 2093056);

        tree_write("sys/block/md0/md/sync_completed", "1845888 / 2093056\n");
        tree_remove("proc/mdstat");
        read_once();
        assert_value("md0", "percent", "sync_progress", 100.0 * 1845888 / 2093056);
}

/*
 * md drops an operation's progress the moment it ends: the read after a
 * recovery that ran to its end reports 100 % once (then a gap), one after an
 * interrupted recovery or one whose new member failed reports nothing.
 */
enum ending {
        FINISHED,
        INTERRUPTED,
        MEMBER_FAILED
};

static void recovery_ends(enum ending how) {
        tree_copy("03-raid5-recovery");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_value("md0", "percent", "sync_progress", 100.0 * 261648 / 2093056);
        tree_make_idle("md0");
        switch (how) {
        case FINISHED:
                tree_write("sys/block/md0/md/dev-vdd/state", "in_sync\n");
                tree_write("sys/block/md0/md/dev-vdd/recovery_start", "none\n");
                tree_write("sys/block/md0/md/degraded", "0\n");
                tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]", "[4/4] [UUUU]") "      \n");
                break;
        case MEMBER_FAILED:
                tree_write("sys/block/md0/md/dev-vdd/state", "faulty\n");
                tree_write("sys/block/md0/md/dev-vdd/slot", "none\n");
                tree_mdstat(RAID5_MD0("vdd[4](F) vdc[2] vdb[1] vda[0]", "[4/3] [UUU_]") "      \n");
                break;
        case INTERRUPTED:
                tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]", "[4/3] [UUU_]") "      \n");
                break;
        }
        read_once();
        if (how == FINISHED)
                assert_value("md0", "percent", "sync_progress", 100.0);
        else
                assert_absent("md0", "percent", "sync_progress");
        /* Once: the next read of the idle array leaves a gap. */
        read_once();
        assert_absent("md0", "percent", "sync_progress");
}

static void test_finished_recovery_reaches_100(void **state) {
        (void)state;
        recovery_ends(FINISHED);
}

static void test_interrupted_recovery_stops_short(void **state) {
        (void)state;
        recovery_ends(INTERRUPTED);
}

static void test_failed_new_member_stops_short(void **state) {
        (void)state;
        recovery_ends(MEMBER_FAILED);
}

/* A garbage attribute: skipped, logged once, the rest still reported. */
static void test_garbage_attribute_warns_once(void **state) {
        (void)state;
        tree_copy("10-two-raid1-resync-delayed");
        tree_write("sys/block/md10/md/sync_speed", "fast\n");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        for (int i = 0; i < 3; i++)
                assert_int_equal(mock.read(), 0);
        assert_int_equal(mock.n_bad_types, 0);
        assert_absent("md10", "bytes", "sync_speed");
        assert_value("md10", "percent", "sync_progress", 100.0 * 204800 / 817152);
        assert_value("md10", "count", "mismatch_cnt", 0);
        assert_actions("md11", "resync", 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, "mdraid: md10: cannot read or parse md/sync_speed"), 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 1);

        /* healed: one notice and the value again; broken again: a new warning */
        tree_write("sys/block/md10/md/sync_speed", "11110\n");
        read_once();
        assert_value("md10", "bytes", "sync_speed", 11110.0 * 1024);
        assert_int_equal(mock_count_logs(LOG_NOTICE, "md10: md/sync_speed is readable again"), 1);
        tree_write("sys/block/md10/md/sync_speed", "\n");
        read_once();
        assert_absent("md10", "bytes", "sync_speed");
        assert_int_equal(mock_count_logs(LOG_WARNING, "md10: cannot read or parse md/sync_speed"), 1);
}

static void test_garbage_tunable_warns_once(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("sys/block/md0/md/stripe_cache_size", "lots\n");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        for (int i = 0; i < 4; i++)
                assert_int_equal(mock.read(), 0);
        assert_int_equal(mock_count_logs(LOG_WARNING, "md0: cannot read or parse md/stripe_cache_size"), 1);
        read_once();
        assert_absent("md0", "count", "stripe_cache_size");
        assert_value("md0", "count", "stripe_cache_active", 0);
        assert_value("md0", "percent", "sync_progress", 100.0 * 261648 / 2093056);
}

/*
 * Files behind no metric are not read: broken, they draw no warning and the
 * metrics are all there. The UUID is read once an Array entry may name one.
 */
static void test_unreported_files_are_not_read(void **state) {
        mock_config_item c;

        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("sys/block/md0/md/uuid", "7ac7b4d7-garbage\n");
        tree_write("sys/block/md0/md/component_size", "lots\n");
        tree_write("sys/block/md0/md/chunk_size", "lots\n");
        tree_write("sys/block/md0/md/last_sync_action", "rebuild\n");
        tree_write("sys/block/md0/md/sync_max", "lots\n");
        tree_write("sys/block/md0/size", "lots\n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);
        assert_value("md0", "percent", "sync_progress", 100.0 * 261648 / 2093056);
        assert_disks("md0", 3, 0, 0, 0, 1);
        mock.shutdown();

        tree_write("sys/block/md0/md/uuid", "7ac7b4d7-c925-6f89-525e-4caecab28aec\n");
        mock_clear();
        mock.quiet = true;
        module_register();
        mock_config_init(&c, "mdraid");
        mock_config_add_string(&c, "Array", "7ac7b4d7:c9256f89:525e4cae:cab28aec");
        assert_int_equal(start(tree, &c), 0);
        read_once();
        assert_true(mock_count_instance("md0") > 0);
}

/* md1, a copy of 10-two-raid1-resync-delayed's md10 resyncing, in its mdstat. */
static void add_md1_to_mdstat(void) {
        tree_mdstat("md1 : active raid1 vdf1[1] vde1[0]\n"
                    "      408576 blocks super 1.2 [2/2] [UU]\n"
                    "      [==>..................]  resync = 12.3% (50944/408576) "
                    "finish=0.4min speed=12736K/sec\n      \n"
                    "md11 : active raid1 vdf2[1] vde2[0]\n"
                    "      636928 blocks super 1.2 [2/2] [UU]\n      \tresync=DELAYED\n      \n"
                    "md10 : active raid1 vdf1[1] vde1[0]\n"
                    "      408576 blocks super 1.2 [2/2] [UU]\n"
                    "      [==>..................]  resync = 12.3% (50944/408576) "
                    "finish=0.4min speed=12736K/sec\n      \n");
}

/*
 * With mdstat readable, the member folders are not read: broken, they draw
 * no warning. Without mdstat they are, and then they do.
 */
static void test_members_come_from_mdstat(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("sys/block/md0/md/dev-vdd/state", "rebuilding?\n");
        tree_write("sys/block/md0/md/dev-vda/slot", "first\n");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_disks("md0", 3, 0, 0, 0, 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);

        tree_remove("proc/mdstat");
        read_once();
        assert_int_equal(mock_count_logs(LOG_WARNING, "md0: cannot read or parse md/dev-*"), 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, "proc/mdstat"), 0);
}

/* An mdstat that cannot be parsed: one warning, the members from sysfs meanwhile. */
static void test_garbage_mdstat_falls_back(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("proc/mdstat", "Personalities : [raid5]\nmd0 : rebuilding raid5 vda[0]\n");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        for (int i = 0; i < 3; i++)
                assert_int_equal(mock.read(), 0);
        assert_int_equal(mock_count_logs(LOG_WARNING, "mdraid: cannot read or parse proc/mdstat"), 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 1);
        read_once();
        assert_disks("md0", 3, 0, 0, 0, 1);
        assert_value("md0", "percent", "sync_progress", 100.0 * 261648 / 2093056);

        tree_mdstat(RAID5_MD0("vdd[4] vdc[2] vdb[1] vda[0]", "[4/3] [UUU_]") "      \n");
        read_once();
        assert_int_equal(mock_count_logs(LOG_NOTICE, "mdraid: proc/mdstat is readable again"), 1);
        assert_disks("md0", 3, 0, 0, 0, 1);
}

/*
 * A running array in sysfs that mdstat does not list yet was assembled after
 * mdstat was read: it waits for the next read rather than show no members.
 */
static void test_array_not_yet_in_mdstat(void **state) {
        (void)state;
        tree_copy("10-two-raid1-resync-delayed");
        tree_dup("sys/block/md10", "sys/block/md1");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_int_equal(mock_count_instance("md1"), 0);
        assert_true(mock_count_instance("md10") > 0);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 0);

        add_md1_to_mdstat();
        read_once();
        assert_disks("md1", 2, 0, 0, 0, 0);
        assert_actions("md1", "resync", 0);
}

static void test_vanished_array(void **state) {
        (void)state;
        tree_copy("10-two-raid1-resync-delayed");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_true(mock_count_instance("md11") > 0);

        tree_remove("sys/block/md11");
        read_once();
        assert_int_equal(mock_count_instance("md11"), 0);
        assert_value("md10", "percent", "sync_progress", 100.0 * 204800 / 817152);
        assert_int_equal(mock_count_logs(-1, "mdraid: md11 is gone"), 1);
        read_once();
        assert_int_equal(mock_count_logs(-1, "md11"), 0);
        assert_true(mock_count_instance("md10") > 0);
}

static void test_array_appears_later(void **state) {
        (void)state;
        tree_copy("10-two-raid1-resync-delayed");
        tree_rename("sys/block/md11", "md11.hidden");
        assert_int_equal(start(tree, NULL), 0);
        read_once();
        assert_int_equal(mock_count_instance("md11"), 0);
        assert_int_equal(mock_count_logs(-1, "appeared"), 0);

        tree_rename("md11.hidden", "sys/block/md11");
        read_once();
        assert_actions("md11", "resync", 1);
        assert_int_equal(mock_count_logs(-1, "mdraid: md11 appeared"), 1);
        /* an array named before every known one is merged in order too */
        tree_dup("sys/block/md10", "sys/block/md1");
        add_md1_to_mdstat();
        read_once();
        assert_int_equal(mock_count_logs(-1, "appeared"), 1);
        assert_int_equal(mock_count_logs(-1, "gone"), 0);
        assert_true(mock_count_instance("md1") > 0);
        assert_true(mock_count_instance("md10") > 0);
        assert_true(mock_count_instance("md11") > 0);
}

static void test_unreadable_globals_warn_once(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_write("proc/sys/dev/raid/speed_limit_min", "slow\n");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        for (int i = 0; i < 3; i++)
                assert_int_equal(mock.read(), 0);
        assert_int_equal(mock_count_logs(LOG_WARNING, ""), 1);
        assert_int_equal(mock_count_logs(LOG_WARNING, "mdraid: cannot read or parse proc/sys/dev/raid/speed_limit_min"),
                         1);
        assert_absent("", "bytes", "speed_limit_min");
        /* the other limit and the arrays are reported whatever this one does */
        assert_value("", "bytes", "speed_limit_max", 10000.0 * 1024);
        assert_value("md0", "bytes", "sync_speed", 10301.0 * 1024);

        tree_write("proc/sys/dev/raid/speed_limit_min", "2000\n");
        read_once();
        assert_value("", "bytes", "speed_limit_min", 2000.0 * 1024);
        assert_int_equal(mock_count_logs(LOG_NOTICE, "speed_limit_min is readable again"), 1);
}

/* Without sys/block there is nothing to list: the read fails, logged once. */
static void test_unlistable_root_warns_once(void **state) {
        (void)state;
        tree_copy("03-raid5-recovery");
        tree_remove("sys");
        tree_remove("proc");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        for (int i = 0; i < 3; i++)
                assert_int_not_equal(mock.read(), 0);
        assert_int_equal(mock.n_values, 0);
        assert_int_equal(mock_count_logs(LOG_WARNING, "mdraid: cannot list md arrays"), 1);
}

/* Every log line names the plugin, so a shared syslog can be filtered. */
static void test_log_lines_are_prefixed(void **state) {
        (void)state;
        tree_copy("10-two-raid1-resync-delayed");
        tree_write("sys/block/md10/md/mismatch_cnt", "x\n");
        assert_int_equal(start(tree, NULL), 0);
        mock_clear();
        assert_int_equal(mock.read(), 0);
        tree_remove("sys/block/md11");
        assert_int_equal(mock.read(), 0);
        assert_true(mock.n_logs >= 2);
        for (size_t i = 0; i < mock.n_logs; i++)
                assert_memory_equal(mock.logs[i].msg, "mdraid: ", 8);
}

int main(void) {
        const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
                T(test_registers_every_callback),
                T(test_raid5_recovery),
                T(test_no_redundancy_duration),
                T(test_redundancy_duration_zero),
                T(test_globals_have_empty_instance),
                T(test_sync_io_depth),
                T(test_raid6_reshape),
                T(test_delayed_resync),
                T(test_idle_degraded_leaves_a_gap),
                T(test_failed_member),
                T(test_replacement_in_progress),
                T(test_hot_spare),
                T(test_raid0_reports_disks_only),
                T(test_inactive_reports_disks_only),
                T(test_no_arrays_reports_globals),
                T(test_array_selection),
                T(test_array_selection_ignored_by_uuid),
                T(test_array_selection_by_device_path),
                T(test_mock_refuses_unknown_types),
                T(test_unknown_option_is_refused),
                T(test_missing_root_fails_init),
                T(test_progress_moves),
                T(test_finished_recovery_reaches_100),
                T(test_interrupted_recovery_stops_short),
                T(test_failed_new_member_stops_short),
                T(test_stale_checkpoint_is_not_progress),
                T(test_garbage_attribute_warns_once),
                T(test_garbage_tunable_warns_once),
                T(test_unreported_files_are_not_read),
                T(test_members_come_from_mdstat),
                T(test_garbage_mdstat_falls_back),
                T(test_array_not_yet_in_mdstat),
                T(test_vanished_array),
                T(test_array_appears_later),
                T(test_unreadable_globals_warn_once),
                T(test_unlistable_root_warns_once),
                T(test_log_lines_are_prefixed),
#undef T
        };
        int r;

        if (mock_load_types(NULL) < 0) {
                fprintf(stderr, "cannot read %s\n", MOCK_TYPES_DB);
                return 1;
        }
        r = cmocka_run_group_tests(tests, NULL, NULL);
        mock_types_free();
        return r;
}
