/* SPDX-License-Identifier: MIT */
/*
 * Attribute files a set keeps open between reads: every change a later read
 * must see is seen, whatever way the tree changed, and the descriptors stay
 * within the budget and are all given back.
 */

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "array.h"
#include "md-fixture.h"

#define BAD(attr) (UINT64_C(1) << (attr))

typedef md_case ctx;

static unsigned fds_before; /* open at the end of setup */

/* Descriptors this process has open now. */
static unsigned open_fds(void) {
        struct dirent *d;
        unsigned n = 0;
        DIR *dir = opendir("/proc/self/fd");

        assert_non_null(dir);
        for (d = readdir(dir); d; d = readdir(dir))
                if (d->d_name[0] != '.')
                        n++;
        closedir(dir);
        return n - 1; /* the listing's own */
}

static int setup(void **state) {
        if (md_case_setup(state, NULL) < 0)
                return -1;
        fds_before = open_fds();
        return 0;
}

static int teardown(void **state) {
        return md_case_teardown(state);
}

static void put(const ctx *c, const char *array, const char *rel, const char *content) {
        assert_int_equal(md_fixture_write_array(c->dir, array, rel, content), 0);
}

static void drop(const ctx *c, const char *array, const char *rel) {
        assert_int_equal(md_fixture_remove_array(c->dir, array, rel), 0);
}

/* A clean two-disk raid1 whose sync_speed_max tells arrays apart. */
static void raid1(const ctx *c, const char *array, const char *speed_max) {
        put(c, array, "md/level", "raid1\n");
        put(c, array, "md/array_state", "clean\n");
        put(c, array, "md/raid_disks", "2\n");
        put(c, array, "md/degraded", "0\n");
        put(c, array, "md/sync_action", "idle\n");
        put(c, array, "md/sync_completed", "none\n");
        put(c, array, "md/sync_speed_min", "1000 (system)\n");
        put(c, array, "md/sync_speed_max", speed_max);
        put(c, array, "md/dev-vda/state", "in_sync\n");
        put(c, array, "md/dev-vda/slot", "0\n");
        put(c, array, "md/dev-vdb/state", "in_sync\n");
        put(c, array, "md/dev-vdb/slot", "1\n");
}

static const md_array *read_md0(ctx *c) {
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        return &c->set.arrays[0];
}

static void test_sees_every_change(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0", "200000 (system)\n");
        a = read_md0(c);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        assert_true(open_fds() > fds_before); /* kept open */

        /* Written in place, as the kernel's store method changes what show prints. */
        put(c, "md0", "md/sync_speed_max", "500000 (local)\n");
        a = read_md0(c);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].kind, MD_V_LOCAL);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 500000);

        /* Replaced by another file under the same name. */
        drop(c, "md0", "md/degraded");
        put(c, "md0", "md/degraded", "1\n");
        a = read_md0(c);
        assert_int_equal(a->degraded.value, 1);

        /* Removed: absent, not the last value. */
        drop(c, "md0", "md/sync_completed");
        a = read_md0(c);
        assert_int_equal(a->progress.kind, MD_PROGRESS_ABSENT);

        /* Swapped for a FIFO or a folder: refused at once, as the plain reader does. */
        drop(c, "md0", "md/sync_action");
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/sync_action"), 0);
        drop(c, "md0", "md/raid_disks");
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/raid_disks"), 0);
        a = read_md0(c);
        assert_int_equal(a->sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->raid_disks.kind, MD_V_UNKNOWN);
        assert_int_equal(a->bad, BAD(MD_ATTR_SYNC_ACTION) | BAD(MD_ATTR_RAID_DISKS));
}

/* Files in sub-folders are checked by path: members, read-ahead and the array's size. */
static void test_sees_changes_below(void **state) {
        ctx *c = *state;
        const md_array *a;
        unsigned held;

        raid1(c, "md0", "200000 (system)\n");
        put(c, "md0", "size", "2093056\n");
        put(c, "md0", "queue/read_ahead_kb", "128\n");
        put(c, "md0", "md/dev-vdb/recovery_start", "none\n");
        a = read_md0(c);
        assert_int_equal(a->members[1].flags, MD_MEMBER_IN_SYNC);
        held = open_fds() - fds_before;

        /* Rewritten in place, replaced, replaced by a symlink, swapped for a FIFO. */
        put(c, "md0", "md/dev-vdb/state", "faulty\n");
        drop(c, "md0", "md/dev-vda/slot");
        put(c, "md0", "md/dev-vda/slot", "1\n");
        put(c, "md0", "queue/elsewhere", "4096\n");
        drop(c, "md0", "queue/read_ahead_kb");
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/queue/read_ahead_kb", "elsewhere"), 0);
        drop(c, "md0", "size");
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/size"), 0);
        drop(c, "md0", "md/dev-vdb/recovery_start");
        a = read_md0(c);
        assert_int_equal(a->tunables[MD_T_READ_AHEAD_KB].value, 4096);
        assert_int_equal(a->size_bytes, 0);
        assert_int_equal(a->bad, BAD(MD_ATTR_SIZE));
        assert_string_equal(a->members[0].name, "vda");
        assert_int_equal(a->members[0].slot, 1);
        assert_int_equal(a->members[1].role, MD_ROLE_FAULTY);
        assert_int_equal(a->members[1].recovery_start.kind, MD_V_ABSENT);

        /* A member removed gives its files back; one added is read. */
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/dev-vdb"), 0);
        a = read_md0(c);
        assert_int_equal(a->n_members, 1);
        assert_true(open_fds() - fds_before < held);
        put(c, "md0", "md/dev-vdc/state", "spare\n");
        put(c, "md0", "md/dev-vdc/slot", "none\n");
        a = read_md0(c);
        assert_int_equal(a->n_members, 2);
        assert_int_equal(a->members[1].role, MD_ROLE_SPARE);

        /* An attribute the level no longer has is let go as well. */
        held = open_fds() - fds_before;
        drop(c, "md0", "md/sync_speed_min");
        a = read_md0(c);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_ABSENT);
        assert_int_equal(open_fds() - fds_before, held - 1);
}

/* Stopped and assembled again with other values: nothing of the old one is read. */
static void test_array_recreated(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0", "200000 (system)\n");
        read_md0(c);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0"), 0);
        raid1(c, "md0", "300000 (local)\n");
        put(c, "md0", "md/level", "raid10\n");
        a = read_md0(c);
        assert_int_equal(a->level, MD_LEVEL_RAID10);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 300000);

        /* Gone: its files are given back. */
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0"), 0);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 0);
        assert_int_equal(open_fds(), fds_before);
}

/* Many arrays: the descriptors kept stay within the budget; single reads keep none. */
static void test_budget(void **state) {
        ctx *c = *state;
        md_array one = { 0 };
        unsigned held;

        /* 40 raid1 arrays of about 30 files each: far more than the budget */
        for (int i = 0; i < 40; i++) {
                char name[16];

                snprintf(name, sizeof(name), "md%d", i);
                raid1(c, name, "200000 (system)\n");
        }
        for (int round = 0; round < 3; round++) {
                assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
                assert_int_equal(c->set.n, 40);
                for (unsigned i = 0; i < c->set.n; i++)
                        assert_int_equal(c->set.arrays[i].bad, 0);
        }
        held = open_fds() - fds_before;
        assert_true(held > 0);
        assert_true(held <= MD_SET_FD_BUDGET);

        assert_int_equal(md_read_array(&c->root, "md7", &one), 0);
        assert_int_equal(open_fds() - fds_before, held);
        md_array_free(&one);

        md_array_set_free(&c->set);
        assert_int_equal(open_fds(), fds_before);
        /* A freed set reads again from scratch. */
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 40);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_sees_every_change, setup, teardown),
                cmocka_unit_test_setup_teardown(test_sees_changes_below, setup, teardown),
                cmocka_unit_test_setup_teardown(test_array_recreated, setup, teardown),
                cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
