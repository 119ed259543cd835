/* SPDX-License-Identifier: MIT */
/*
 * The fake kernel (tests/fakekernel) rule by rule, through md_tunable_write
 * where a tunable exists and md_root_write otherwise. Linked with
 * -Wl,--wrap=md_root_write, like the service's fake-kernel build.
 */

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
#include "tunables.h"

#define MD0 "sys/block/md0/md/"

typedef md_case ctx;

static int open_ctx(void **state, const char *snapshot) {
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        return md_case_setup(state, snapshot);
}

static int setup_raid5(void **state) {
        return open_ctx(state, "03-raid5-recovery");
}
static int setup_raid1(void **state) {
        return open_ctx(state, "01-raid1-resync-bitmap");
}
static int setup_reshape(void **state) {
        return open_ctx(state, "09-raid6-reshape");
}

static int teardown(void **state) {
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        return md_case_teardown(state);
}

/* Asserts the file @rel holds @want. */
static void assert_file(const ctx *c, const char *rel, const char *want) {
        char buf[256];

        assert_true(md_fixture_read(c->dir, rel, buf, sizeof(buf)) >= 0);
        assert_string_equal(buf, want);
}

static void test_speed_local_and_system(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "50000", &v), 0);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(v.value, 50000);
        assert_file(c, MD0 "sync_speed_min", "50000 (local)\n");

        /* "system" shows the global sysctl's current value (1000 in this snapshot). */
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "system", &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 1000);
        assert_file(c, MD0 "sync_speed_min", "1000 (system)\n");

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MAX, "400000", &v), 0);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MAX, "system", &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 10000);
}

static void test_speed_refused(void **state) {
        ctx *c = *state;
        md_tval v = { .kind = MD_V_UNKNOWN };

        /* The kernel refuses 0; -5 and garbage never reach it through the library. */
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "0", &v), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "sync_speed_min", "-5"), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "sync_speed_min", "fast"), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "sync_speed_max", "0"), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "sync_speed_max", "4294967296"), -EINVAL);
        assert_int_equal(v.kind, MD_V_UNKNOWN);
        assert_file(c, MD0 "sync_speed_min", "1000 (system)\n");
        assert_file(c, MD0 "sync_speed_max", "10000 (system)\n");
}

static void test_stripe_cache(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "16", &v), -EINVAL);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "32769", &v), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "stripe_cache_size", "abc"), -EINVAL);
        assert_file(c, MD0 "stripe_cache_size", "256\n");
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "17", &v), 0);
        assert_int_equal(v.value, 17);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "32768", &v), 0);
        assert_int_equal(v.value, 32768);
        assert_file(c, MD0 "stripe_cache_size", "32768\n");
}

/* raid1 has no stripe cache: the write fails as the real one would, nothing is created. */
static void test_stripe_cache_raid1(void **state) {
        char buf[16];
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "256", &v), -ENOENT);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "16", &v), -ENOENT);
        assert_int_equal(md_fixture_read(c->dir, MD0 "stripe_cache_size", buf, sizeof(buf)), -ENOENT);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_GROUP_THREAD_CNT, "4", &v), -ENOENT);
}

static void test_numbers(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_READ_AHEAD_KB, "32768", &v), 0);
        assert_int_equal(v.value, 32768);
        assert_file(c, "sys/block/md0/queue/read_ahead_kb", "32768\n");
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MIN, "2048", &v), 0);
        assert_int_equal(v.value, 2048);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_GROUP_THREAD_CNT, "8", &v), 0);
        assert_int_equal(v.value, 8);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_GROUP_THREAD_CNT, "8193", &v), -EINVAL);
        assert_file(c, MD0 "group_thread_cnt", "8\n");
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/queue/read_ahead_kb", "lots"), -EINVAL);
        assert_file(c, "sys/block/md0/queue/read_ahead_kb", "32768\n");
}

/* No range check on the sysctls; arrays in "(system)" mode follow them. */
static void test_global_limits(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, NULL, MD_T_SPEED_LIMIT_MIN, "0", &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 0);
        assert_file(c, "proc/sys/dev/raid/speed_limit_min", "0\n");
        assert_file(c, MD0 "sync_speed_min", "0 (system)\n");

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MAX, "70000", &v), 0);
        assert_int_equal(md_tunable_write(&c->root, NULL, MD_T_SPEED_LIMIT_MAX, "200000", &v), 0);
        assert_int_equal(v.value, 200000);
        /* A local value does not follow the sysctl. */
        assert_file(c, MD0 "sync_speed_max", "70000 (local)\n");
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MAX, "system", &v), 0);
        assert_int_equal(v.value, 200000);

        assert_int_equal(md_root_write(&c->root, "proc/sys/dev/raid/speed_limit_max", "-5"), 0);
        assert_file(c, "proc/sys/dev/raid/speed_limit_max", "-5\n");
        assert_int_equal(md_root_write(&c->root, "proc/sys/dev/raid/speed_limit_max", "x"), -EINVAL);
        assert_int_equal(md_root_write(&c->root, "proc/sys/dev/raid/speed_limit_max", "2147483648"), -EINVAL);
}

static void test_sync_max_idle(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "1024", &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 1024);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "max", &v), 0);
        assert_int_equal(v.kind, MD_V_MAX);
        assert_file(c, MD0 "sync_max", "max\n");
        /* A number off the 512 KiB chunk is refused (6.1, 7.3); sync_min is rounded down to 4 KiB. */
        assert_int_equal(md_root_write(&c->root, MD0 "sync_max", "1001"), -EINVAL);
        assert_file(c, MD0 "sync_max", "max\n");
        assert_int_equal(md_root_write(&c->root, MD0 "sync_min", "1001"), 0);
        assert_file(c, MD0 "sync_min", "1000\n");
        assert_int_equal(md_root_write(&c->root, MD0 "sync_min", "x"), -EINVAL);
}

/* During a reshape the kernel refuses to move sync_max, except back to "max". */
static void test_sync_max_reshape(void **state) {
        ctx *c = *state;
        md_tval v = { .kind = MD_V_UNKNOWN };

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "1024", &v), -EBUSY);
        assert_int_equal(v.kind, MD_V_UNKNOWN);
        assert_file(c, MD0 "sync_max", "max\n");
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "max", &v), 0);
        assert_int_equal(v.kind, MD_V_MAX);
}

static void test_sync_action(void **state) {
        ctx *c = *state;

        assert_int_equal(md_root_write(&c->root, MD0 "sync_action", "frozen"), 0);
        assert_file(c, MD0 "sync_action", "frozen\n");
        assert_int_equal(md_root_write(&c->root, MD0 "sync_action", "idle\n"), 0);
        assert_file(c, MD0 "sync_action", "idle\n");
        assert_int_equal(md_root_write(&c->root, MD0 "sync_action", "check"), 0);
        assert_file(c, MD0 "sync_action", "check\n");
        assert_int_equal(md_root_write(&c->root, MD0 "sync_action", "stop"), -EINVAL);
        assert_int_equal(md_root_write(&c->root, MD0 "sync_action", "idlex"), -EINVAL);
        assert_file(c, MD0 "sync_action", "check\n");
}

/* An attribute without a rule is written as given. */
static void test_other_paths(void **state) {
        ctx *c = *state;

        assert_int_equal(md_root_write(&c->root, MD0 "safe_mode_delay", "0.5"), 0);
        assert_file(c, MD0 "safe_mode_delay", "0.5");
        assert_int_equal(md_root_write(&c->root, MD0 "no_such_attr", "1"), -ENOENT);
}

static void test_failure_injection(void **state) {
        ctx *c = *state;
        md_tval v;

        setenv("MDBOOST_FAKEKERNEL_FAIL", "sys/block/md0/queue/read_ahead_kb=EIO", 1);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_READ_AHEAD_KB, "4096", &v), -EIO);
        assert_file(c, "sys/block/md0/queue/read_ahead_kb", "3072\n");
        /* Other paths are not affected. */
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "1024", &v), 0);

        setenv("MDBOOST_FAKEKERNEL_FAIL",
               "sys/block/md9/md/sync_max=EBUSY,sys/block/md0/md/stripe_cache_size=EPERM,"
               "proc/sys/dev/raid/speed_limit_min=28",
               1);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "2048", &v), -EPERM);
        assert_file(c, MD0 "stripe_cache_size", "1024\n");
        assert_int_equal(md_tunable_write(&c->root, NULL, MD_T_SPEED_LIMIT_MIN, "5000", &v), -ENOSPC);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_READ_AHEAD_KB, "4096", &v), 0);
        /* A path that only starts like one in the list is not matched. */
        setenv("MDBOOST_FAKEKERNEL_FAIL", "sys/block/md0/md/sync_speed=EIO", 1);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "5000", &v), 0);

        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "2048", &v), 0);
}

#define T(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void) {
        const struct CMUnitTest tests[] = {
                T(test_speed_local_and_system, setup_raid5),
                T(test_speed_refused, setup_raid5),
                T(test_stripe_cache, setup_raid5),
                T(test_stripe_cache_raid1, setup_raid1),
                T(test_numbers, setup_raid5),
                T(test_global_limits, setup_raid5),
                T(test_sync_max_idle, setup_raid5),
                T(test_sync_max_reshape, setup_reshape),
                T(test_sync_action, setup_raid5),
                T(test_other_paths, setup_raid5),
                T(test_failure_injection, setup_raid5),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
