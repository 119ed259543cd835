/* SPDX-License-Identifier: MIT */
/*
 * The tunables table, restore texts, and read/write with read-back.
 *
 * Linked with -Wl,--wrap=md_root_write: the wrapper passes writes through,
 * unless a test asks it to store something else, as a kernel that clamps a
 * value or a racing writer would.
 */

#include <errno.h>
#include <limits.h>
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

int __real_md_root_write(const md_root *r, const char *rel, const char *value);
int __wrap_md_root_write(const md_root *r, const char *rel, const char *value);

static const char *store_instead; /* what the "kernel" stores instead of the value written */
static unsigned writes;

int __wrap_md_root_write(const md_root *r, const char *rel, const char *value) {
        writes++;
        return __real_md_root_write(r, rel, store_instead ? store_instead : value);
}

typedef md_case ctx;

static int setup_raid5(void **state) {
        store_instead = NULL;
        writes = 0;
        return md_case_setup(state, "03-raid5-recovery");
}

static int teardown(void **state) {
        return md_case_teardown(state);
}

static void test_table_complete(void **state) {
        (void)state;
        for (int t = 0; t < _MD_T_MAX; t++) {
                const md_tunable_info *i = md_tunable_get((md_tunable)t);

                assert_non_null(i);
                assert_non_null(i->name);
                assert_non_null(i->path);
                assert_non_null(i->unit);
                assert_true(i->min <= i->max);
                assert_int_equal(md_tunable_from_name(i->name), t);
                if (t < _MD_T_ARRAY_MAX) {
                        assert_int_equal(i->scope, MD_SCOPE_ARRAY);
                        assert_true(i->levels != 0);
                        assert_true(i->path[0] != '/');
                } else {
                        assert_int_equal(i->scope, MD_SCOPE_GLOBAL);
                        assert_int_equal(i->levels, 0);
                        assert_true(strncmp(i->path, "proc/sys/dev/raid/", 18) == 0);
                }
        }
        assert_null(md_tunable_get(_MD_T_MAX));
        assert_null(md_tunable_get(_MD_T_INVALID));
        assert_int_equal(md_tunable_from_name("speed"), _MD_T_INVALID);
        assert_int_equal(md_tunable_from_name(""), _MD_T_INVALID);
        assert_int_equal(md_tunable_from_name(NULL), _MD_T_INVALID);
}

static void test_table_rows(void **state) {
        const md_tunable_info *i;

        (void)state;
        i = md_tunable_get(MD_T_SYNC_SPEED_MIN);
        assert_string_equal(i->path, "md/sync_speed_min");
        assert_int_equal(i->min, 1);
        assert_int_equal(i->max, INT_MAX);
        assert_int_equal(i->restore, MD_RESTORE_MODE);
        assert_string_equal(i->unit, "KiB/s");
        assert_int_equal(md_tunable_get(MD_T_SYNC_SPEED_MAX)->restore, MD_RESTORE_MODE);
        assert_int_equal(md_tunable_get(MD_T_SYNC_MAX)->restore, MD_RESTORE_MAX);
        assert_int_equal(md_tunable_get(MD_T_SYNC_MIN)->restore, MD_RESTORE_NUMBER);

        i = md_tunable_get(MD_T_STRIPE_CACHE_SIZE);
        assert_string_equal(i->name, "stripe_cache_size");
        assert_int_equal(i->min, 17);
        assert_int_equal(i->max, 32768);
        assert_int_equal(i->levels, MD_LEVELS_PARITY);
        assert_int_equal(i->mem_bytes_per_unit_per_member, 4096);

        assert_int_equal(md_tunable_get(MD_T_STRIPE_CACHE_ACTIVE)->restore, MD_RESTORE_NEVER);
        assert_int_equal(md_tunable_get(MD_T_GROUP_THREAD_CNT)->max, 8192);
        assert_string_equal(md_tunable_get(MD_T_READ_AHEAD_KB)->path, "queue/read_ahead_kb");
        assert_int_equal(md_tunable_get(MD_T_READ_AHEAD_KB)->max, UINT32_MAX);

        i = md_tunable_get(MD_T_SPEED_LIMIT_MIN);
        assert_string_equal(i->path, "proc/sys/dev/raid/speed_limit_min");
        assert_int_equal(i->min, 0);
        assert_int_equal(i->max, INT_MAX);
        assert_string_equal(md_tunable_get(MD_T_SPEED_LIMIT_MAX)->path, "proc/sys/dev/raid/speed_limit_max");
}

static void test_applies(void **state) {
        (void)state;
        assert_true(md_tunable_applies(MD_T_STRIPE_CACHE_SIZE, MD_LEVEL_RAID5));
        assert_true(md_tunable_applies(MD_T_STRIPE_CACHE_SIZE, MD_LEVEL_RAID6));
        assert_true(md_tunable_applies(MD_T_GROUP_THREAD_CNT, MD_LEVEL_RAID4));
        assert_false(md_tunable_applies(MD_T_STRIPE_CACHE_SIZE, MD_LEVEL_RAID1));
        assert_false(md_tunable_applies(MD_T_STRIPE_CACHE_SIZE, MD_LEVEL_RAID10));
        assert_true(md_tunable_applies(MD_T_SYNC_SPEED_MIN, MD_LEVEL_RAID10));
        assert_true(md_tunable_applies(MD_T_SYNC_MAX, MD_LEVEL_RAID1));
        assert_false(md_tunable_applies(MD_T_SYNC_SPEED_MIN, MD_LEVEL_RAID0));
        assert_false(md_tunable_applies(MD_T_SYNC_SPEED_MIN, MD_LEVEL_LINEAR));
        assert_false(md_tunable_applies(MD_T_SYNC_SPEED_MIN, MD_LEVEL_NONE));
        assert_true(md_tunable_applies(MD_T_READ_AHEAD_KB, MD_LEVEL_RAID0));
        assert_true(md_tunable_applies(MD_T_READ_AHEAD_KB, MD_LEVEL_RAID5));
        assert_false(md_tunable_applies(MD_T_READ_AHEAD_KB, MD_LEVEL_CONTAINER));
        assert_true(md_tunable_applies(MD_T_SPEED_LIMIT_MIN, MD_LEVEL_RAID0));
        assert_true(md_tunable_applies(MD_T_SPEED_LIMIT_MAX, MD_LEVEL_NONE));
        assert_false(md_tunable_applies(MD_T_SYNC_SPEED_MIN, _MD_LEVEL_INVALID));
        assert_false(md_tunable_applies(_MD_T_INVALID, MD_LEVEL_RAID1));
}

static void test_mem_cost(void **state) {
        (void)state;
        /* kernel-md.md: 32768 on a 6-disk array pins 768 MiB. */
        assert_int_equal(md_tunable_mem_cost(MD_T_STRIPE_CACHE_SIZE, 32768, 6), 768ull << 20);
        assert_int_equal(md_tunable_mem_cost(MD_T_STRIPE_CACHE_SIZE, 256, 4), 4ull << 20);
        assert_int_equal(md_tunable_mem_cost(MD_T_STRIPE_CACHE_SIZE, 256, 0), 0);
        assert_int_equal(md_tunable_mem_cost(MD_T_SYNC_SPEED_MIN, 50000, 4), 0);
        assert_int_equal(md_tunable_mem_cost(MD_T_READ_AHEAD_KB, 4096, 4), 0);
        assert_true(md_tunable_mem_cost(MD_T_STRIPE_CACHE_SIZE, UINT64_MAX / 2, 8) == UINT64_MAX);
        assert_int_equal(md_tunable_mem_cost(_MD_T_INVALID, 1, 1), 0);
}

static void test_check(void **state) {
        (void)state;
        assert_int_equal(md_tunable_check(MD_T_STRIPE_CACHE_SIZE, 16), -ERANGE);
        assert_int_equal(md_tunable_check(MD_T_STRIPE_CACHE_SIZE, 17), 0);
        assert_int_equal(md_tunable_check(MD_T_STRIPE_CACHE_SIZE, 32768), 0);
        assert_int_equal(md_tunable_check(MD_T_STRIPE_CACHE_SIZE, 32769), -ERANGE);
        assert_int_equal(md_tunable_check(MD_T_SYNC_SPEED_MIN, 0), -ERANGE);
        assert_int_equal(md_tunable_check(MD_T_SYNC_SPEED_MIN, 1), 0);
        assert_int_equal(md_tunable_check(MD_T_SYNC_SPEED_MAX, (uint64_t)INT_MAX + 1), -ERANGE);
        assert_int_equal(md_tunable_check(MD_T_SPEED_LIMIT_MIN, 0), 0);
        assert_int_equal(md_tunable_check(MD_T_SPEED_LIMIT_MAX, INT_MAX), 0);
        assert_int_equal(md_tunable_check(MD_T_GROUP_THREAD_CNT, 8192), 0);
        assert_int_equal(md_tunable_check(MD_T_GROUP_THREAD_CNT, 8193), -ERANGE);
        assert_int_equal(md_tunable_check(MD_T_READ_AHEAD_KB, 0), 0);
        assert_int_equal(md_tunable_check(MD_T_READ_AHEAD_KB, (uint64_t)UINT32_MAX + 1), -ERANGE);
        assert_int_equal(md_tunable_check(_MD_T_INVALID, 1), -EINVAL);
        assert_int_equal(md_tunable_check(_MD_T_MAX, 1), -EINVAL);
}

static void test_restore_text(void **state) {
        char buf[32];

        (void)state;
        assert_int_equal(md_tunable_restore_text(MD_T_SYNC_SPEED_MIN, &(md_tval){ .kind = MD_V_SYSTEM, .value = 1000 },
                                                 buf, sizeof(buf)),
                         0);
        assert_string_equal(buf, "system");
        assert_int_equal(md_tunable_restore_text(MD_T_SYNC_SPEED_MAX, &(md_tval){ .kind = MD_V_LOCAL, .value = 50000 },
                                                 buf, sizeof(buf)),
                         0);
        assert_string_equal(buf, "50000");
        assert_int_equal(md_tunable_restore_text(MD_T_SYNC_MAX, &(md_tval){ .kind = MD_V_MAX }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "max");
        assert_int_equal(md_tunable_restore_text(MD_T_SYNC_MAX, &(md_tval){ .kind = MD_V_NUMBER, .value = 1024 }, buf,
                                                 sizeof(buf)),
                         0);
        assert_string_equal(buf, "1024");
        assert_int_equal(md_tunable_restore_text(MD_T_STRIPE_CACHE_SIZE,
                                                 &(md_tval){ .kind = MD_V_NUMBER, .value = 256 }, buf, sizeof(buf)),
                         0);
        assert_string_equal(buf, "256");
        assert_int_equal(md_tunable_restore_text(MD_T_SPEED_LIMIT_MIN, &(md_tval){ .kind = MD_V_NUMBER, .value = 0 },
                                                 buf, sizeof(buf)),
                         0);
        assert_string_equal(buf, "0");
}

static void test_restore_text_refuses(void **state) {
        static const md_tval unusable[] = {
                { .kind = MD_V_ABSENT },
                { .kind = MD_V_UNKNOWN },
                { .kind = MD_V_NONE },
        };
        char buf[32];

        (void)state;
        strcpy(buf, "keep");
        for (size_t i = 0; i < sizeof(unusable) / sizeof(unusable[0]); i++) {
                assert_int_equal(md_tunable_restore_text(MD_T_SYNC_SPEED_MIN, &unusable[i], buf, sizeof(buf)), -EINVAL);
                assert_int_equal(md_tunable_restore_text(MD_T_STRIPE_CACHE_SIZE, &unusable[i], buf, sizeof(buf)),
                                 -EINVAL);
        }
        /* Read-only, and modes a tunable cannot have. */
        assert_int_equal(md_tunable_restore_text(MD_T_STRIPE_CACHE_ACTIVE,
                                                 &(md_tval){ .kind = MD_V_NUMBER, .value = 3 }, buf, sizeof(buf)),
                         -EINVAL);
        assert_int_equal(md_tunable_restore_text(MD_T_STRIPE_CACHE_SIZE, &(md_tval){ .kind = MD_V_SYSTEM, .value = 3 },
                                                 buf, sizeof(buf)),
                         -EINVAL);
        assert_int_equal(md_tunable_restore_text(MD_T_SYNC_SPEED_MIN, &(md_tval){ .kind = MD_V_MAX }, buf, sizeof(buf)),
                         -EINVAL);
        assert_int_equal(
                md_tunable_restore_text(_MD_T_INVALID, &(md_tval){ .kind = MD_V_NUMBER, .value = 3 }, buf, sizeof(buf)),
                -EINVAL);
        /* "system" needs 7 bytes. */
        assert_int_equal(
                md_tunable_restore_text(MD_T_SYNC_SPEED_MIN, &(md_tval){ .kind = MD_V_SYSTEM, .value = 1 }, buf, 6),
                -ENOBUFS);
        assert_string_equal(buf, "keep");
}

static void test_read_snapshot(void **state) {
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_SYNC_SPEED_MIN, &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 1000);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_SYNC_SPEED_MAX, &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 10000);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_SYNC_MAX, &v), 0);
        assert_int_equal(v.kind, MD_V_MAX);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 256);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_READ_AHEAD_KB, &v), 0);
        assert_int_equal(v.value, 3072);
        /* Globals ignore the array name. */
        assert_int_equal(md_tunable_read(&c->root, NULL, MD_T_SPEED_LIMIT_MIN, &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 1000);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_SPEED_LIMIT_MAX, &v), 0);
        assert_int_equal(v.value, 10000);
}

static void test_read_absent_and_bad(void **state) {
        ctx *c = *state;
        md_tval v;

        /* A raid1 has no stripe cache: absent, not an error. */
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/stripe_cache_size"), 0);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, &v), 0);
        assert_int_equal(v.kind, MD_V_ABSENT);

        v = (md_tval){ .kind = MD_V_LOCAL, .value = 4242 };
        assert_int_equal(md_tunable_read(&c->root, "md1", MD_T_STRIPE_CACHE_SIZE, &v), -ENOENT);
        assert_int_equal(md_tunable_read(&c->root, "../../etc", MD_T_STRIPE_CACHE_SIZE, &v), -EINVAL);
        assert_int_equal(md_tunable_read(&c->root, NULL, MD_T_STRIPE_CACHE_SIZE, &v), -EINVAL);
        assert_int_equal(md_tunable_read(&c->root, "md0", _MD_T_INVALID, &v), -EINVAL);

        assert_int_equal(md_fixture_write(c->dir, "sys/block/md0/md/sync_speed_min", "fast\n"), 0);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_SYNC_SPEED_MIN, &v), -EINVAL);
        assert_int_equal(md_fixture_write(c->dir, "sys/block/md0/md/group_thread_cnt", "18446744073709551616\n"), 0);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_GROUP_THREAD_CNT, &v), -ERANGE);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/queue/read_ahead_kb"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/queue/read_ahead_kb"), 0);
        assert_int_equal(md_tunable_read(&c->root, "md0", MD_T_READ_AHEAD_KB, &v), -EISDIR);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(v.value, 4242);
}

static void test_write_readback(void **state) {
        char buf[64];
        ctx *c = *state;
        md_tval v;

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "4096", &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 4096);
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/stripe_cache_size", buf, sizeof(buf)), 4);
        assert_string_equal(buf, "4096");

        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_READ_AHEAD_KB, "32768", &v), 0);
        assert_int_equal(v.value, 32768);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "max", &v), 0);
        assert_int_equal(v.kind, MD_V_MAX);
        assert_int_equal(md_tunable_write(&c->root, NULL, MD_T_SPEED_LIMIT_MIN, "50000", &v), 0);
        assert_int_equal(v.value, 50000);
        assert_int_equal(md_fixture_read(c->dir, "proc/sys/dev/raid/speed_limit_min", buf, sizeof(buf)), 5);
        assert_string_equal(buf, "50000");
        /* The read-back is optional. */
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_GROUP_THREAD_CNT, "4", NULL), 0);
        assert_int_equal(writes, 5);
}

/* What the kernel accepts but then shows differently is a failed write. */
static void test_write_readback_mismatch(void **state) {
        char buf[64];
        ctx *c = *state;
        md_tval v = { .kind = MD_V_UNKNOWN, .value = 4242 };

        store_instead = "32768";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "40000", &v), -EIO);
        assert_int_equal(v.kind, MD_V_UNKNOWN);
        assert_int_equal(v.value, 4242);

        store_instead = "50000 (local)";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "system", &v), -EIO);
        store_instead = "1024";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_MAX, "max", &v), -EIO);
        store_instead = "1000 (system)";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "2000", &v), -EIO);
        /* The same number in another mode is what was asked. */
        store_instead = "2000 (local)";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "2000", &v), 0);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(v.value, 2000);
        /* Unparsable after the write: not the value asked for either. */
        store_instead = "garbage";
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_SYNC_SPEED_MIN, "2000", &v), -EIO);
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/sync_speed_min", buf, sizeof(buf)), 7);
        assert_int_equal(v.value, 2000);
}

static void test_write_refuses(void **state) {
        static const struct {
                md_tunable t;
                const char *text;
                int err;
        } cases[] = {
                { MD_T_STRIPE_CACHE_SIZE, "abc", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "-5", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "256\n", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "256 ", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "system", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "max", -EINVAL },
                { MD_T_SYNC_SPEED_MIN, "max", -EINVAL },
                { MD_T_SYNC_MAX, "system", -EINVAL },
                { MD_T_SPEED_LIMIT_MIN, "system", -EINVAL },
                { MD_T_STRIPE_CACHE_SIZE, "18446744073709551616", -EINVAL },
                { MD_T_STRIPE_CACHE_ACTIVE, "5", -EPERM },
                { _MD_T_INVALID, "5", -EINVAL },
        };
        char before[64], after[64];
        ctx *c = *state;
        md_tval v = { .kind = MD_V_UNKNOWN, .value = 4242 };

        assert_true(md_fixture_read(c->dir, "sys/block/md0/md/stripe_cache_size", before, sizeof(before)) > 0);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                assert_int_equal(md_tunable_write(&c->root, "md0", cases[i].t, cases[i].text, &v), cases[i].err);
                assert_int_equal(v.kind, MD_V_UNKNOWN);
        }
        assert_int_equal(writes, 0);
        assert_int_equal(md_tunable_write(&c->root, "md0/../md0", MD_T_STRIPE_CACHE_SIZE, "300", &v), -EINVAL);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, NULL, &v), -EINVAL);
        assert_true(md_fixture_read(c->dir, "sys/block/md0/md/stripe_cache_size", after, sizeof(after)) > 0);
        assert_string_equal(before, after);
        assert_int_equal(v.value, 4242);
}

/* A kernel refusal comes back as the write's errno, and nothing changes. */
static void test_write_kernel_refusal(void **state) {
        char buf[64];
        ctx *c = *state;
        md_tval v = { .kind = MD_V_UNKNOWN, .value = 4242 };

        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/stripe_cache_size"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/stripe_cache_size"), 0);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_STRIPE_CACHE_SIZE, "300", &v), -EISDIR);
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/stripe_cache_size", buf, sizeof(buf)), -EISDIR);

        /* raid1 has no stripe_cache_size: the file is not created. */
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/group_thread_cnt"), 0);
        assert_int_equal(md_tunable_write(&c->root, "md0", MD_T_GROUP_THREAD_CNT, "2", &v), -ENOENT);
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/group_thread_cnt", buf, sizeof(buf)), -ENOENT);
        /* An array that does not exist. */
        assert_int_equal(md_tunable_write(&c->root, "md9", MD_T_SYNC_SPEED_MIN, "5000", &v), -ENOENT);
        assert_int_equal(v.kind, MD_V_UNKNOWN);
        assert_int_equal(v.value, 4242);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_table_complete),
                cmocka_unit_test(test_table_rows),
                cmocka_unit_test(test_applies),
                cmocka_unit_test(test_mem_cost),
                cmocka_unit_test(test_check),
                cmocka_unit_test(test_restore_text),
                cmocka_unit_test(test_restore_text_refuses),
                cmocka_unit_test_setup_teardown(test_read_snapshot, setup_raid5, teardown),
                cmocka_unit_test_setup_teardown(test_read_absent_and_bad, setup_raid5, teardown),
                cmocka_unit_test_setup_teardown(test_write_readback, setup_raid5, teardown),
                cmocka_unit_test_setup_teardown(test_write_readback_mismatch, setup_raid5, teardown),
                cmocka_unit_test_setup_teardown(test_write_refuses, setup_raid5, teardown),
                cmocka_unit_test_setup_teardown(test_write_kernel_refusal, setup_raid5, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
