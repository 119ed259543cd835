/* SPDX-License-Identifier: MIT */
/* The /proc/mdstat parser against the kernel snapshots and every line form md_seq_show prints. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "md-fixture.h"
#include "mdstat.h"

#define PERS "Personalities : [raid0] [raid1] [raid6] [raid5] [raid4] [raid10] [linear] \n"
#define UNUSED "unused devices: <none>\n"

/* md_mdstat_disk_counts() of @e for an array of @raid_disks slots. */
static void assert_disks(const md_mdstat_entry *e, int64_t raid_disks, unsigned active, unsigned failed, unsigned spare,
                         unsigned missing, unsigned rebuilding) {
        md_disk_counts c;

        memset(&c, 0xff, sizeof(c));
        md_mdstat_disk_counts(e, raid_disks, &c);
        assert_int_equal(c.active, active);
        assert_int_equal(c.failed, failed);
        assert_int_equal(c.spare, spare);
        assert_int_equal(c.missing, missing);
        assert_int_equal(c.rebuilding, rebuilding);
}

static int parse(const char *text, md_mdstat_entry *e, size_t n) {
        return md_mdstat_parse(text, strlen(text), e, n);
}

static int parse_snapshot(const char *name, md_mdstat_entry *e, size_t n) {
        char path[4096], buf[16384];
        ssize_t len;

        assert_non_null(md_fixture_snapshot(name, path, sizeof(path)));
        len = md_fixture_read(path, "proc/mdstat", buf, sizeof(buf));
        assert_true(len > 0);
        return md_mdstat_parse(buf, (size_t)len, e, n);
}

static void test_snapshot_no_arrays(void **state) {
        md_mdstat_entry e[2];

        (void)state;
        assert_int_equal(parse_snapshot("00-no-arrays", e, 2), 0);
}

/* A resync with a bitmap line after the progress line. */
static void test_snapshot_resync_bitmap(void **state) {
        md_mdstat_entry e[2];

        (void)state;
        assert_int_equal(parse_snapshot("01-raid1-resync-bitmap", e, 2), 1);
        assert_string_equal(e[0].name, "md0");
        assert_true(e[0].active);
        assert_int_equal(e[0].op, MD_MDSTAT_RESYNC);
        assert_int_equal(e[0].done_kib, 70400);
        assert_int_equal(e[0].total_kib, 1046528);
        assert_int_equal(e[0].speed_kib, 11733);
}

/* "recovery =  6.3%": the percentage is space-padded below 10 %. */
static void test_snapshot_recovery(void **state) {
        md_mdstat_entry e[1];

        (void)state;
        assert_int_equal(parse_snapshot("03-raid5-recovery", e, 1), 1);
        assert_int_equal(e[0].op, MD_MDSTAT_RECOVERY);
        assert_int_equal(e[0].done_kib, 66652);
        assert_int_equal(e[0].total_kib, 1046528);
        assert_int_equal(e[0].speed_kib, 11108);
        /* vdd[4] has a slot but is not in sync: "[4/3] [UUU_]" */
        assert_int_equal(e[0].disks.members, 4);
        assert_true(e[0].disks.has_map);
        assert_int_equal(e[0].disks.slots, 4);
        assert_int_equal(e[0].disks.in_sync, 3);
        assert_disks(&e[0], 4, 3, 0, 0, 0, 1);
}

static void test_snapshot_reshape(void **state) {
        md_mdstat_entry e[1];

        (void)state;
        assert_int_equal(parse_snapshot("09-raid6-reshape", e, 1), 1);
        assert_int_equal(e[0].op, MD_MDSTAT_RESHAPE);
        assert_int_equal(e[0].done_kib, 81408);
        assert_int_equal(e[0].speed_kib, 10176);
        /* A grow's new member is in sync from the start: the reshape moves data onto it. */
        assert_disks(&e[0], 5, 5, 0, 0, 0, 0);
}

/* md11 waits: six spaces, a TAB, "resync=DELAYED". */
static void test_snapshot_delayed(void **state) {
        const md_mdstat_entry *f;
        md_mdstat_entry e[4];

        (void)state;
        assert_int_equal(parse_snapshot("10-two-raid1-resync-delayed", e, 4), 2);
        assert_string_equal(e[0].name, "md11");
        assert_int_equal(e[0].op, MD_MDSTAT_DELAYED);
        assert_int_equal(e[0].done_kib, 0);
        assert_int_equal(e[0].speed_kib, 0);
        assert_string_equal(e[1].name, "md10");
        assert_int_equal(e[1].op, MD_MDSTAT_RESYNC);
        assert_int_equal(e[1].done_kib, 50944);
        assert_int_equal(e[1].total_kib, 408576);
        assert_int_equal(e[1].speed_kib, 12736);

        f = md_mdstat_find(e, 2, "md10");
        assert_ptr_equal(f, &e[1]);
        assert_null(md_mdstat_find(e, 2, "md1"));
        assert_null(md_mdstat_find(e, 2, NULL));
        /* More arrays than room: all counted, only the first stored. */
        memset(e, 0, sizeof(e));
        assert_int_equal(parse_snapshot("10-two-raid1-resync-delayed", e, 1), 2);
        assert_string_equal(e[0].name, "md11");
        assert_string_equal(e[1].name, "");
        assert_int_equal(parse_snapshot("10-two-raid1-resync-delayed", NULL, 0), 2);
}

static void test_states_and_idle(void **state) {
        static const char text[] = PERS "md127 : inactive sdc[0](S)\n"
                                        "      1046528 blocks super 1.2\n"
                                        "       \n"
                                        "md1 : active (read-only) raid1 sdb[1] sda[0]\n"
                                        "      1046528 blocks super 1.2 [2/2] [UU]\n"
                                        "       \n"
                                        "md2 : active (auto-read-only) raid5 sdd[3](S) sde[2](F) sdf[1](W) sdg[0]\n"
                                        "      2093056 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [UU_]\n"
                                        "      \tresync=PENDING\n"
                                        "      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
                                        "\n"
                                        "md_home : active raid0 sdh[1] sdi[0]\n"
                                        "      2093056 blocks super 1.2 512k chunks\n"
                                        "       \n" UNUSED;
        md_mdstat_entry e[4];

        (void)state;
        assert_int_equal(parse(text, e, 4), 4);
        assert_string_equal(e[0].name, "md127");
        assert_false(e[0].active);
        assert_int_equal(e[0].op, MD_MDSTAT_IDLE);
        assert_string_equal(e[1].name, "md1");
        assert_true(e[1].active);
        assert_int_equal(e[1].op, MD_MDSTAT_IDLE);
        assert_true(e[2].active);
        assert_int_equal(e[2].op, MD_MDSTAT_PENDING);
        assert_string_equal(e[3].name, "md_home");
        assert_int_equal(e[3].op, MD_MDSTAT_IDLE);

        /* Not running: every member is listed without a slot, and there is no map. */
        assert_int_equal(e[0].disks.members, 1);
        assert_false(e[0].disks.has_map);
        assert_disks(&e[0], 2, 0, 0, 1, 2, 0);
        assert_disks(&e[0], -1, 0, 0, 1, 0, 0);
        assert_disks(&e[1], 2, 2, 0, 0, 0, 0);
        /* (S), (F) and a write-mostly member in sync; slot 2 has lost its member. */
        assert_int_equal(e[2].disks.members, 4);
        assert_int_equal(e[2].disks.faulty, 1);
        assert_int_equal(e[2].disks.spare, 1);
        assert_disks(&e[2], 3, 2, 1, 1, 1, 0);
        /* raid0 prints no map: its members are all in sync. */
        assert_false(e[3].disks.has_map);
        assert_disks(&e[3], 2, 2, 0, 0, 0, 0);
}

/*
 * The member forms md_seq_show prints: (W) before (F), a journal, a
 * replacement rebuilding next to the member it replaces, and the last
 * descriptor numbers of a long-lived array.
 */
static void test_member_flags(void **state) {
        static const char text[] =
                PERS "md5 : active raid5 sde[5](R) sdd[3] sdc[2] sdb[1](W) sda[0]\n"
                     "      3139584 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
                     "      [===>.................]  recovery = 17.5% (183296/1046528) finish=1.2min "
                     "speed=11456K/sec\n"
                     "      \n"
                     "md6 : active raid5 nvme2n1p1[12](J) sdd[3] sdc[2](W)(F) sdb[1] sda[0]\n"
                     "      3139584 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/3] [UU_U]\n"
                     "      \n"
                     "md7 : active raid10 sdd1[7] sdc1[6](S) sdb1[1] sda1[0]\n"
                     "      2093056 blocks super 1.2 512K chunks 2 near-copies [3/2] [UU_]\n"
                     "      [>....................]  recovery =  0.4% (4096/1046528) finish=4.2min "
                     "speed=4096K/sec\n"
                     "      \n" UNUSED;
        md_mdstat_entry e[3];

        (void)state;
        assert_int_equal(parse(text, e, 3), 3);
        assert_int_equal(e[0].disks.members, 5);
        assert_int_equal(e[0].disks.replacement, 1);
        assert_disks(&e[0], 4, 4, 0, 0, 0, 1);
        assert_int_equal(e[1].disks.journal, 1);
        assert_int_equal(e[1].disks.faulty, 1);
        assert_disks(&e[1], 4, 3, 1, 0, 1, 0);
        assert_disks(&e[2], 3, 2, 0, 1, 0, 1);
}

static void test_check_and_wide_percent(void **state) {
        static const char text[] = PERS "md0 : active raid6 sdd[3] sdc[2] sdb[1] sda[0]\n"
                                        "      2093056 blocks super 1.2 level 6, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
                                        "      [=========>...........]  check = 45.3% (474112/1046528) finish=0.9min "
                                        "speed=10240K/sec\n"
                                        "      \n"
                                        "md1 : active raid1 sdf[1] sde[0]\n"
                                        "      1046528 blocks super 1.2 [2/2] [UU]\n"
                                        "      [===================>.]  resync =100.0% (1046528/1046528) finish=0.0min "
                                        "speed=200000K/sec\n"
                                        "      \n" UNUSED;
        md_mdstat_entry e[2];

        (void)state;
        assert_int_equal(parse(text, e, 2), 2);
        assert_int_equal(e[0].op, MD_MDSTAT_CHECK);
        assert_int_equal(e[0].done_kib, 474112);
        assert_int_equal(e[0].total_kib, 1046528);
        assert_int_equal(e[0].speed_kib, 10240);
        assert_int_equal(e[1].op, MD_MDSTAT_RESYNC);
        assert_int_equal(e[1].done_kib, 1046528);
        assert_int_equal(e[1].speed_kib, 200000);
}

/* A single read can stop anywhere; what was read is still parsed. */
/*
 * The checkpoint checked against the live position: each real snapshot's own
 * pair is accepted (their sysfs was copied a few seconds after their mdstat:
 * up to 13 points ahead), a checkpoint left from the previous operation is
 * not, nor one mdstat shows no position for.
 */
static void test_progress_checked_against_live(void **state) {
        static const char *const snapshots[] = { "01-raid1-resync-bitmap", "03-raid5-recovery", "09-raid6-reshape",
                                                 "10-two-raid1-resync-delayed" };
        md_mdstat_entry e[4];
        md_array a = { .name = "md0" };
        double pct;

        (void)state;
        for (size_t i = 0; i < sizeof(snapshots) / sizeof(snapshots[0]); i++) {
                char path[4096];
                md_array_set set = {};
                md_root r;

                assert_non_null(md_fixture_snapshot(snapshots[i], path, sizeof(path)));
                assert_int_equal(md_root_open(path, &r), 0);
                assert_int_equal(md_read_arrays(&r, &set), 0);
                assert_true(parse_snapshot(snapshots[i], e, 4) >= 1);
                for (unsigned j = 0; j < set.n; j++) {
                        const md_array *x = &set.arrays[j];
                        const md_mdstat_entry *f = md_mdstat_find(e, 4, x->name);
                        double want;

                        assert_non_null(f);
                        if (md_array_progress_percent(x, &want) < 0)
                                continue;
                        assert_int_equal(md_mdstat_progress_percent(x, f, &pct), 0);
                        assert_true(pct == want);
                }
                md_array_set_free(&set);
                md_root_close(&r);
        }

        /* A raid10 check just started after a resync: 88 % in sysfs, 0 % live. */
        a.sync_action = MD_SYNC_CHECK;
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 458752, .total = 520192 };
        e[0] = (md_mdstat_entry){
                .name = "md0", .active = true, .op = MD_MDSTAT_CHECK, .done_kib = 0, .total_kib = 260096
        };
        assert_int_equal(md_mdstat_progress_percent(&a, &e[0], &pct), -ENODATA);
        /* Its first checkpoint, behind the live position. */
        a.progress.done = 32640;
        e[0].done_kib = 20480;
        assert_int_equal(md_mdstat_progress_percent(&a, &e[0], &pct), 0);
        assert_true(pct > 6.27 && pct < 6.28);
        /* No position in mdstat yet. */
        e[0].op = MD_MDSTAT_IDLE;
        assert_int_equal(md_mdstat_progress_percent(&a, &e[0], &pct), -ENODATA);
        /* No operation. */
        e[0].op = MD_MDSTAT_CHECK;
        a.progress = (md_progress){ .kind = MD_PROGRESS_NONE };
        assert_int_equal(md_mdstat_progress_percent(&a, &e[0], &pct), -ENODATA);
        assert_int_equal(md_mdstat_progress_percent(NULL, &e[0], &pct), -EINVAL);
}

static void test_truncated(void **state) {
        static const char text[] = PERS "md0 : active raid1 sdb[1] sda[0]\n"
                                        "      1046528 blocks super 1.2 [2/2] [UU]\n";
        md_mdstat_entry e[1];

        (void)state;
        assert_int_equal(parse(text, e, 1), 1);
        assert_int_equal(e[0].op, MD_MDSTAT_IDLE);
        assert_int_equal(parse(PERS, e, 1), 0);
}

static void test_not_mdstat(void **state) {
        static const char *const bad[] = {
                "",
                "hello\n",
                "Personalities\n",
                /* A header without the active/inactive word. */
                PERS "md0 : running raid1 sda[0]\n" UNUSED,
                PERS "md0 raid1 sda[0]\n" UNUSED,
                /* A name longer than the kernel allows. */
                PERS "md0123456789012345678901234567890123 : active raid1 sda[0]\n" UNUSED,
                /* Progress lines that say something this parser cannot trust. */
                PERS "md0 : active raid1 sda[0]\n      [=>..]  rebuild =  6.6% (70400/1046528)\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..]  resync =  x% (70400/1046528)\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..]  resync =  6.6% (70400)\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..]  resync =  6.6% (2000/1000)\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..]  resync =  6.6% "
                     "(1/18446744073709551616)\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..]  resync =  6.6% (1/2) speed=fastK/sec\n",
                PERS "md0 : active raid1 sda[0]\n      [=>..  resync =  6.6% (1/2)\n",
                /* Members this parser cannot count. */
                PERS "md0 : active raid1 [0] sdb[1]\n" UNUSED,
                PERS "md0 : active raid1 sda[x]\n" UNUSED,
                PERS "md0 : active raid1 sda[0](F\n" UNUSED,
                PERS "md0 : active raid1 sda[0]S\n" UNUSED,
        };
        md_mdstat_entry e[1];

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                assert_int_equal(parse(bad[i], e, 1), -EINVAL);
        assert_int_equal(md_mdstat_parse(NULL, 0, e, 1), -EINVAL);
        assert_int_equal(md_mdstat_parse(PERS, strlen(PERS), NULL, 1), -EINVAL);
}

/* Hundreds of arrays: more text than one read or one buffer, more entries than the first parse. */
static void test_read_grows(void **state) {
        enum {
                ARRAYS = 400
        };
        size_t size = 64 + ARRAYS * 160, len;
        char *text = malloc(size), *root = NULL;
        md_root r = MD_ROOT_NULL;
        md_mdstat m = { 0 };

        (void)state;
        assert_non_null(text);
        len = (size_t)snprintf(text, size, "%s", PERS);
        for (unsigned i = 0; i < ARRAYS; i++)
                len += (size_t)snprintf(text + len, size - len,
                                        "md%u : active raid1 sdb%u[1] sda%u[0](F)\n"
                                        "      1046528 blocks super 1.2 [2/1] [_U]\n"
                                        "      \n",
                                        i, i, i);
        assert_true(len < size - sizeof(UNUSED));
        snprintf(text + len, size - len, "%s", UNUSED);
        assert_int_equal(md_fixture_new(&root), 0);
        assert_int_equal(md_root_open(root, &r), 0);

        assert_int_equal(md_read_mdstat(&r, &m), -ENOENT);
        assert_int_equal(m.n, 0);
        assert_int_equal(md_fixture_write(root, "proc/mdstat", text), 0);
        assert_int_equal(md_read_mdstat(&r, &m), 0);
        assert_int_equal(m.n, ARRAYS);
        assert_string_equal(m.entries[ARRAYS - 1].name, "md399");
        assert_int_equal(m.entries[ARRAYS - 1].disks.faulty, 1);
        assert_int_equal(m.entries[ARRAYS - 1].disks.in_sync, 1);
        /* Read again into the grown buffers; then a file that is not mdstat. */
        assert_int_equal(md_read_mdstat(&r, &m), 0);
        assert_int_equal(m.n, ARRAYS);
        assert_int_equal(md_fixture_write(root, "proc/mdstat", "garbage\n"), 0);
        assert_int_equal(md_read_mdstat(&r, &m), -EINVAL);
        assert_int_equal(m.n, 0);

        md_mdstat_free(&m);
        md_root_close(&r);
        assert_int_equal(md_fixture_rm(root), 0);
        free(root);
        free(text);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_snapshot_no_arrays),
                cmocka_unit_test(test_progress_checked_against_live),
                cmocka_unit_test(test_snapshot_resync_bitmap),
                cmocka_unit_test(test_snapshot_recovery),
                cmocka_unit_test(test_snapshot_reshape),
                cmocka_unit_test(test_snapshot_delayed),
                cmocka_unit_test(test_states_and_idle),
                cmocka_unit_test(test_member_flags),
                cmocka_unit_test(test_read_grows),
                cmocka_unit_test(test_check_and_wide_percent),
                cmocka_unit_test(test_truncated),
                cmocka_unit_test(test_not_mdstat),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
