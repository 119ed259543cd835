/* SPDX-License-Identifier: MIT */
/* The /proc/mdstat parser against the kernel snapshots and every line form md_seq_show prints. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "md-fixture.h"
#include "mdstat.h"

#define PERS "Personalities : [raid0] [raid1] [raid6] [raid5] [raid4] [raid10] [linear] \n"
#define UNUSED "unused devices: <none>\n"

static int parse(const char *text, md_mdstat_entry *e, size_t n) {
        return md_mdstat_parse(text, strlen(text), e, n);
}

static int parse_snapshot(const char *name, md_mdstat_entry *e, size_t n) {
        char path[4096], buf[16384];
        ssize_t len;

        assert_non_null(md_fixture_snapshot(name, path, sizeof(path)));
        len = md_fixture_read(path, "proc/mdstat", buf, sizeof(buf));
        assert_true(len > 0);
        return md_mdstat_parse(buf, (size_t) len, e, n);
}

static void test_snapshot_no_arrays(void **state) {
        md_mdstat_entry e[2];

        (void) state;
        assert_int_equal(parse_snapshot("00-no-arrays", e, 2), 0);
}

/* A resync with a bitmap line after the progress line. */
static void test_snapshot_resync_bitmap(void **state) {
        md_mdstat_entry e[2];

        (void) state;
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

        (void) state;
        assert_int_equal(parse_snapshot("03-raid5-recovery", e, 1), 1);
        assert_int_equal(e[0].op, MD_MDSTAT_RECOVERY);
        assert_int_equal(e[0].done_kib, 66652);
        assert_int_equal(e[0].total_kib, 1046528);
        assert_int_equal(e[0].speed_kib, 11108);
}

static void test_snapshot_reshape(void **state) {
        md_mdstat_entry e[1];

        (void) state;
        assert_int_equal(parse_snapshot("09-raid6-reshape", e, 1), 1);
        assert_int_equal(e[0].op, MD_MDSTAT_RESHAPE);
        assert_int_equal(e[0].done_kib, 81408);
        assert_int_equal(e[0].speed_kib, 10176);
}

/* md11 waits: six spaces, a TAB, "resync=DELAYED". */
static void test_snapshot_delayed(void **state) {
        const md_mdstat_entry *f;
        md_mdstat_entry e[4];

        (void) state;
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
        static const char text[] =
                PERS
                "md127 : inactive sdc[0](S)\n"
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
                "       \n"
                UNUSED;
        md_mdstat_entry e[4];

        (void) state;
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
}

static void test_check_and_wide_percent(void **state) {
        static const char text[] =
                PERS
                "md0 : active raid6 sdd[3] sdc[2] sdb[1] sda[0]\n"
                "      2093056 blocks super 1.2 level 6, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
                "      [=========>...........]  check = 45.3% (474112/1046528) finish=0.9min "
                "speed=10240K/sec\n"
                "      \n"
                "md1 : active raid1 sdf[1] sde[0]\n"
                "      1046528 blocks super 1.2 [2/2] [UU]\n"
                "      [===================>.]  resync =100.0% (1046528/1046528) finish=0.0min "
                "speed=200000K/sec\n"
                "      \n"
                UNUSED;
        md_mdstat_entry e[2];

        (void) state;
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
static void test_truncated(void **state) {
        static const char text[] = PERS "md0 : active raid1 sdb[1] sda[0]\n"
                                        "      1046528 blocks super 1.2 [2/2] [UU]\n";
        md_mdstat_entry e[1];

        (void) state;
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
        };
        md_mdstat_entry e[1];

        (void) state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                assert_int_equal(parse(bad[i], e, 1), -EINVAL);
        assert_int_equal(md_mdstat_parse(NULL, 0, e, 1), -EINVAL);
        assert_int_equal(md_mdstat_parse(PERS, strlen(PERS), NULL, 1), -EINVAL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_snapshot_no_arrays),
                cmocka_unit_test(test_snapshot_resync_bitmap),
                cmocka_unit_test(test_snapshot_recovery),
                cmocka_unit_test(test_snapshot_reshape),
                cmocka_unit_test(test_snapshot_delayed),
                cmocka_unit_test(test_states_and_idle),
                cmocka_unit_test(test_check_and_wide_percent),
                cmocka_unit_test(test_truncated),
                cmocka_unit_test(test_not_mdstat),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
