/* SPDX-License-Identifier: MIT */
/*
 * The array reader against the real kernel snapshots in tests/fixtures/ and
 * against trees built for each case kernel-md.md describes, plus hostile ones.
 */

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
#define BAD_TUNABLE(t) (UINT64_C(1) << (MD_ATTR_TUNABLES + (t)))

typedef md_case ctx;

static int open_ctx(void **state, const char *snapshot) {
        return md_case_setup(state, snapshot);
}

static int setup_empty(void **state) {
        return open_ctx(state, NULL);
}
static int setup_00(void **state) {
        return open_ctx(state, "00-no-arrays");
}
static int setup_01(void **state) {
        return open_ctx(state, "01-raid1-resync-bitmap");
}
static int setup_03(void **state) {
        return open_ctx(state, "03-raid5-recovery");
}
static int setup_11(void **state) {
        return open_ctx(state, "11-raid5-recovery-7.3");
}
static int setup_12(void **state) {
        return open_ctx(state, "12-raid5-recovery-6.12");
}
static int setup_09(void **state) {
        return open_ctx(state, "09-raid6-reshape");
}
static int setup_10(void **state) {
        return open_ctx(state, "10-two-raid1-resync-delayed");
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

/* A member folder; NULL leaves a file out. */
static void member(const ctx *c, const char *array, const char *dev, const char *state, const char *slot,
                   const char *recovery_start) {
        char rel[256];

        snprintf(rel, sizeof(rel), "md/dev-%s/size", dev);
        put(c, array, rel, "1046528\n");
        if (state) {
                snprintf(rel, sizeof(rel), "md/dev-%s/state", dev);
                put(c, array, rel, state);
        }
        if (slot) {
                snprintf(rel, sizeof(rel), "md/dev-%s/slot", dev);
                put(c, array, rel, slot);
        }
        if (recovery_start) {
                snprintf(rel, sizeof(rel), "md/dev-%s/recovery_start", dev);
                put(c, array, rel, recovery_start);
        }
}

/* The files every running array has, and the sync files of levels that can sync. */
static void array_files(const ctx *c, const char *array, const char *level, const char *disks, bool syncs) {
        char buf[64];

        snprintf(buf, sizeof(buf), "%s\n", level);
        put(c, array, "md/level", buf);
        put(c, array, "md/array_state", "clean\n");
        put(c, array, "md/uuid", "604e063f-525f-6bef-daf2-54299983da18\n");
        put(c, array, "size", "2093056\n");
        put(c, array, "md/component_size", "1046528\n");
        snprintf(buf, sizeof(buf), "%s\n", disks);
        put(c, array, "md/raid_disks", buf);
        put(c, array, "md/chunk_size", "524288\n");
        put(c, array, "md/degraded", "0\n");
        put(c, array, "md/reshape_position", "none\n");
        put(c, array, "md/bitmap/location", "none\n");
        put(c, array, "queue/read_ahead_kb", "128\n");
        if (!syncs)
                return;
        put(c, array, "md/sync_action", "idle\n");
        put(c, array, "md/last_sync_action", "none\n");
        put(c, array, "md/sync_completed", "none\n");
        put(c, array, "md/sync_speed", "none\n");
        put(c, array, "md/mismatch_cnt", "0\n");
        put(c, array, "md/sync_speed_min", "1000 (system)\n");
        put(c, array, "md/sync_speed_max", "200000 (system)\n");
        put(c, array, "md/sync_min", "0\n");
        put(c, array, "md/sync_max", "max\n");
}

static void raid1(const ctx *c, const char *array) {
        array_files(c, array, "raid1", "2", true);
        member(c, array, "vda", "in_sync\n", "0\n", "none\n");
        member(c, array, "vdb", "in_sync\n", "1\n", "none\n");
}

static const md_array *read_one(ctx *c, const char *name) {
        const md_array *a;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        a = md_array_set_find(&c->set, name);
        assert_non_null(a);
        return a;
}

static void test_snapshot_raid5_recovery(void **state) {
        md_disk_counts n;
        md_globals g;
        uint64_t left;
        double pct;
        ctx *c = *state;
        const md_array *a;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        a = &c->set.arrays[0];
        assert_string_equal(a->name, "md0");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID5);
        assert_int_equal(a->state, MD_ARRAY_CLEAN);
        assert_string_equal(a->uuid, "7ac7b4d7-c925-6f89-525e-4caecab28aec");
        assert_int_equal(a->size_bytes, 6279168ull * 512);
        assert_int_equal(a->component_size.kind, MD_V_NUMBER);
        assert_int_equal(a->component_size.value, 1046528);
        assert_int_equal(a->raid_disks.kind, MD_V_NUMBER);
        assert_int_equal(a->raid_disks.value, 4);
        assert_false(a->raid_disks.reshaping);
        assert_int_equal(a->chunk_size.value, 524288);
        assert_int_equal(a->degraded.value, 1);
        assert_int_equal(a->reshape_position.kind, MD_V_NONE);
        /* The bitmap/ group is there on every array; location "none" means no bitmap. */
        assert_false(a->has_bitmap);

        assert_int_equal(a->sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->last_sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(a->progress.done, 261648);
        assert_int_equal(a->progress.total, 2093056);
        assert_int_equal(a->sync_speed.kind, MD_V_NUMBER);
        assert_int_equal(a->sync_speed.value, 10301);
        assert_int_equal(a->mismatch_cnt.value, 0);

        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_SYSTEM);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].kind, MD_V_SYSTEM);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 10000);
        assert_int_equal(a->tunables[MD_T_SYNC_MIN].kind, MD_V_NUMBER);
        assert_int_equal(a->tunables[MD_T_SYNC_MIN].value, 0);
        assert_int_equal(a->tunables[MD_T_SYNC_MAX].kind, MD_V_MAX);
        assert_int_equal(a->tunables[MD_T_STRIPE_CACHE_SIZE].value, 256);
        assert_int_equal(a->tunables[MD_T_STRIPE_CACHE_ACTIVE].kind, MD_V_NUMBER);
        assert_int_equal(a->tunables[MD_T_GROUP_THREAD_CNT].value, 0);
        assert_int_equal(a->tunables[MD_T_READ_AHEAD_KB].value, 3072);

        /* vdd is being rebuilt: it reads "spare" but holds slot 3 and a recovery position. */
        assert_int_equal(a->n_members, 4);
        assert_string_equal(a->members[0].name, "vda");
        assert_string_equal(a->members[3].name, "vdd");
        for (unsigned i = 0; i < 3; i++) {
                assert_int_equal(a->members[i].slot, i);
                assert_int_equal(a->members[i].role, MD_ROLE_IN_SYNC);
                assert_int_equal(a->members[i].flags, MD_MEMBER_IN_SYNC);
                assert_int_equal(a->members[i].recovery_start.kind, MD_V_NONE);
        }
        assert_int_equal(a->members[3].slot, 3);
        assert_int_equal(a->members[3].flags, MD_MEMBER_SPARE);
        assert_int_equal(a->members[3].role, MD_ROLE_REBUILDING);
        assert_int_equal(a->members[3].recovery_start.kind, MD_V_NUMBER);
        assert_int_equal(a->members[3].recovery_start.value, 261648);

        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 3);
        assert_int_equal(n.rebuilding, 1);
        assert_int_equal(n.spare, 0);
        assert_int_equal(n.failed, 0);
        assert_int_equal(n.missing, 0);

        assert_true(md_array_has_redundancy(a));
        assert_true(md_array_busy(a));
        assert_int_equal(md_array_progress_percent(a, &pct), 0);
        assert_true(pct > 12.49 && pct < 12.51);
        /* (2093056 - 261648) sectors = 915704 KiB at 10301 KiB/s: 88.9 s, rounded up. */
        assert_int_equal(md_array_seconds_left(a, &left), 0);
        assert_int_equal(left, 89);

        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.speed_limit_min.kind, MD_V_NUMBER);
        assert_int_equal(g.speed_limit_min.value, 1000);
        assert_int_equal(g.speed_limit_max.value, 10000);
        /* 6.1 has neither sync_io_depth nor bitmap_type: absent, not errors. */
        assert_int_equal(g.sync_io_depth.kind, MD_V_ABSENT);
        assert_int_equal(a->tunables[MD_T_SYNC_IO_DEPTH].kind, MD_V_ABSENT);
        assert_string_equal(a->bitmap_type, "");
}

static void test_snapshot_raid1_bitmap(void **state) {
        ctx *c = *state;
        const md_array *a = read_one(c, "md0");

        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID1);
        assert_true(a->has_bitmap);
        assert_int_equal(a->sync_action, MD_SYNC_RESYNC);
        assert_int_equal(a->last_sync_action, MD_SYNC_RESYNC);
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(a->progress.done, 218880);
        assert_int_equal(a->progress.total, 2093056);
        assert_int_equal(a->sync_speed.value, 10072);
        assert_int_equal(a->chunk_size.value, 0);
        /* raid1 has no stripe cache: absent, and not a problem. */
        assert_int_equal(a->tunables[MD_T_STRIPE_CACHE_SIZE].kind, MD_V_ABSENT);
        assert_int_equal(a->tunables[MD_T_GROUP_THREAD_CNT].kind, MD_V_ABSENT);
        assert_int_equal(a->n_members, 2);
        assert_int_equal(a->members[1].role, MD_ROLE_IN_SYNC);
}

static void test_snapshot_raid6_reshape(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a = read_one(c, "md0");

        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID6);
        assert_int_equal(a->raid_disks.kind, MD_V_NUMBER);
        assert_int_equal(a->raid_disks.value, 5);
        assert_int_equal(a->raid_disks.old_value, 4);
        assert_true(a->raid_disks.reshaping);
        assert_false(a->chunk_size.reshaping);
        assert_int_equal(a->tunables[MD_T_STRIPE_CACHE_SIZE].value, 513);
        assert_int_equal(a->sync_action, MD_SYNC_RESHAPE);
        assert_int_equal(a->reshape_position.kind, MD_V_NUMBER);
        assert_int_equal(a->reshape_position.value, 976896);
        assert_int_equal(a->progress.done, 325632);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_SYSTEM);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].value, 0);
        assert_int_equal(a->n_members, 5);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 5);
        assert_int_equal(n.missing, 0);
        /* mdadm grew it into the room before the data: no backup needed. */
        assert_int_equal(a->metadata, MD_METADATA_NATIVE);
        assert_int_equal(a->members[0].offset.value, 4096);
        assert_int_equal(a->members[0].new_offset.value, 1024);
        assert_true(md_array_moves_data_offset(a));
}

/*
 * A reshape in place (the data offset stays) needs mdadm's backup; so does
 * one where a member's offsets cannot be read. External metadata is told
 * apart from native.
 */
static void test_reshape_in_place_and_metadata(void **state) {
        ctx *c = *state;
        const md_array *a;

        put(c, "md0", "md/dev-vdc/new_offset", "4096\n");
        a = read_one(c, "md0");
        assert_false(md_array_moves_data_offset(a));

        put(c, "md0", "md/dev-vdc/new_offset", "1024\n");
        a = read_one(c, "md0");
        assert_true(md_array_moves_data_offset(a));

        put(c, "md0", "md/dev-vdd/offset", "lots\n");
        a = read_one(c, "md0");
        assert_false(md_array_moves_data_offset(a));
        assert_true(a->bad & MD_ATTR_BIT(MD_ATTR_MEMBER_OFFSETS));
        assert_false(a->bad & MD_ATTR_BIT(MD_ATTR_MEMBERS));

        put(c, "md0", "md/metadata_version", "external:/md127/0\n");
        a = read_one(c, "md0");
        assert_int_equal(a->metadata, MD_METADATA_EXTERNAL);
        put(c, "md0", "md/metadata_version", "1.x\n");
        a = read_one(c, "md0");
        assert_int_equal(a->metadata, _MD_METADATA_INVALID);
        assert_true(a->bad & MD_ATTR_BIT(MD_ATTR_METADATA));
}

static void test_snapshot_two_raid1_delayed(void **state) {
        uint64_t left = 4242;
        double pct = 42;
        ctx *c = *state;
        const md_array *a;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 2);
        assert_string_equal(c->set.arrays[0].name, "md10");
        assert_string_equal(c->set.arrays[1].name, "md11");

        a = &c->set.arrays[0];
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(a->progress.done, 204800);
        assert_int_equal(a->progress.total, 817152);
        assert_string_equal(a->members[0].name, "vde1");
        assert_true(md_array_busy(a));

        a = &c->set.arrays[1];
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->sync_action, MD_SYNC_RESYNC);
        assert_int_equal(a->progress.kind, MD_PROGRESS_DELAYED);
        assert_int_equal(a->sync_speed.value, 0);
        assert_true(md_array_busy(a));
        assert_int_equal(md_array_progress_percent(a, &pct), -ENODATA);
        assert_int_equal(md_array_seconds_left(a, &left), -ENODATA);
        assert_true(pct == 42);
        assert_int_equal(left, 4242);
        assert_string_equal(a->members[1].name, "vdf2");
}

static void test_snapshot_no_arrays(void **state) {
        md_globals g;
        ctx *c = *state;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 0);
        assert_null(md_array_set_find(&c->set, "md0"));
        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.speed_limit_min.value, 1000);
        assert_int_equal(g.speed_limit_max.value, 200000);
}

static void test_name_valid(void **state) {
        static const char *const bad[] = {
                "../../etc/passwd",
                "md0/../x",
                "sda",
                "",
                "md",
                "md0/",
                "/md0",
                "md 0",
                "md0\n",
                "md-0",
                "md.0",
                "MD0",
                "md0123456789012345678901234567890",
        };

        (void)state;
        assert_true(md_name_valid("md0"));
        assert_true(md_name_valid("md127"));
        assert_true(md_name_valid("md_home"));
        assert_true(md_name_valid("md_D1"));
        assert_true(md_name_valid("md012345678901234567890123456789")); /* 32 bytes */
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                assert_false(md_name_valid(bad[i]));
        assert_false(md_name_valid(NULL));
}

static void test_named_array(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md_home");
        raid1(c, "md127");
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 2);
        assert_string_equal(c->set.arrays[0].name, "md127");
        assert_string_equal(c->set.arrays[1].name, "md_home");
        a = md_array_set_find(&c->set, "/dev/md_home");
        assert_non_null(a);
        assert_string_equal(a->name, "md_home");
        assert_int_equal(a->level, MD_LEVEL_RAID1);
        assert_int_equal(a->bad, 0);
}

/* An inactive array: empty level, empty raid_disks while assembling, no sync files. */
static void test_inactive(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a;

        put(c, "md127", "md/level", "\n");
        put(c, "md127", "md/array_state", "inactive\n");
        put(c, "md127", "md/raid_disks", "");
        put(c, "md127", "md/chunk_size", "0\n");
        put(c, "md127", "size", "0\n");
        member(c, "md127", "sdb", "spare\n", "none\n", "none\n");
        a = read_one(c, "md127");

        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_NONE);
        assert_int_equal(a->state, MD_ARRAY_INACTIVE);
        assert_int_equal(a->raid_disks.kind, MD_V_NONE);
        assert_string_equal(a->uuid, "");
        assert_int_equal(a->size_bytes, 0);
        assert_int_equal(a->sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->last_sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->progress.kind, MD_PROGRESS_ABSENT);
        assert_int_equal(a->sync_speed.kind, MD_V_ABSENT);
        assert_int_equal(a->mismatch_cnt.kind, MD_V_ABSENT);
        assert_int_equal(a->degraded.kind, MD_V_ABSENT);
        for (int t = 0; t < _MD_T_ARRAY_MAX; t++)
                assert_int_equal(a->tunables[t].kind, MD_V_ABSENT);
        assert_false(a->has_bitmap);
        assert_false(md_array_has_redundancy(a));
        assert_false(md_array_busy(a));
        assert_int_equal(a->n_members, 1);
        assert_int_equal(a->members[0].role, MD_ROLE_SPARE);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.spare, 1);
        assert_int_equal(n.missing, 0);
}

static void test_raid0_linear(void **state) {
        uint64_t left;
        double pct;
        ctx *c = *state;

        array_files(c, "md0", "raid0", "2", false);
        member(c, "md0", "vda", "in_sync\n", "0\n", "none\n");
        member(c, "md0", "vdb", "in_sync\n", "1\n", "none\n");
        array_files(c, "md1", "linear", "3", false);
        put(c, "md1", "md/chunk_size", "0\n");
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 2);

        for (unsigned i = 0; i < 2; i++) {
                const md_array *a = &c->set.arrays[i];

                assert_int_equal(a->level, i == 0 ? MD_LEVEL_RAID0 : MD_LEVEL_LINEAR);
                assert_int_equal(a->bad, 0);
                assert_int_equal(a->progress.kind, MD_PROGRESS_ABSENT);
                assert_int_equal(a->sync_action, _MD_SYNC_ACTION_INVALID);
                assert_int_equal(a->sync_speed.kind, MD_V_ABSENT);
                assert_int_equal(a->mismatch_cnt.kind, MD_V_ABSENT);
                assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_ABSENT);
                assert_int_equal(a->tunables[MD_T_SYNC_MAX].kind, MD_V_ABSENT);
                assert_int_equal(a->tunables[MD_T_READ_AHEAD_KB].kind, MD_V_NUMBER);
                assert_false(md_array_has_redundancy(a));
                assert_false(md_array_busy(a));
                assert_int_equal(md_array_progress_percent(a, &pct), -ENODATA);
                assert_int_equal(md_array_seconds_left(a, &left), -ENODATA);
        }
        assert_int_equal(c->set.arrays[0].n_members, 2);
        assert_int_equal(c->set.arrays[1].n_members, 0);
}

static void test_raid10(void **state) {
        ctx *c = *state;
        const md_array *a;
        md_disk_counts n;
        unsigned tolerated;

        array_files(c, "md2", "raid10", "4", true);
        put(c, "md2", "md/sync_action", "check\n");
        put(c, "md2", "md/sync_completed", "1000 / 4186112\n");
        put(c, "md2", "md/sync_speed", "50000\n");
        put(c, "md2", "md/mismatch_cnt", "128\n");
        for (int i = 0; i < 4; i++) {
                char dev[16], slot[16];

                snprintf(dev, sizeof(dev), "sd%c", 'a' + i);
                snprintf(slot, sizeof(slot), "%d\n", i);
                member(c, "md2", dev, "in_sync\n", slot, "none\n");
        }
        a = read_one(c, "md2");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID10);
        assert_true(md_array_has_redundancy(a));
        assert_int_equal(a->sync_action, MD_SYNC_CHECK);
        assert_int_equal(a->progress.total, 4186112);
        assert_int_equal(a->mismatch_cnt.value, 128);
        assert_int_equal(a->tunables[MD_T_STRIPE_CACHE_SIZE].kind, MD_V_ABSENT);
        assert_int_equal(a->n_members, 4);
        assert_string_equal(a->members[3].name, "sdd");
        /* No md/layout file: md's default of two near copies. */
        assert_int_equal(a->layout.kind, MD_V_ABSENT);
        md_array_disk_counts(a, &n);
        assert_int_equal(md_array_failures_tolerated(a, &n, &tolerated), 0);
        assert_int_equal(tolerated, 1);

        /* mdadm's n3 (three near copies) reads 259: two failures to spare. */
        put(c, "md2", "md/layout", "259\n");
        a = read_one(c, "md2");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->layout.kind, MD_V_NUMBER);
        assert_int_equal(a->layout.value, 259);
        assert_int_equal(md_array_failures_tolerated(a, &n, &tolerated), 0);
        assert_int_equal(tolerated, 2);
        put(c, "md2", "md/layout", "n3\n");
        a = read_one(c, "md2");
        assert_int_equal(a->bad, BAD(MD_ATTR_LAYOUT));
}

/* md/layout means copies only for raid10: another level's is never read. */
static void test_layout_read_for_raid10_only(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        put(c, "md0", "md/layout", "garbage\n");
        a = read_one(c, "md0");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->layout.kind, MD_V_ABSENT);
}

static unsigned tolerated_of(md_level level, uint64_t disks, uint64_t old_disks, md_vkind layout_kind, uint64_t layout,
                             unsigned active) {
        md_array a = { .level = level };
        md_disk_counts n = { .active = active };
        unsigned ret = 999;

        a.raid_disks = (md_newold){ .kind = MD_V_NUMBER, .value = disks, .old_value = old_disks };
        a.layout = (md_newold){ .kind = layout_kind, .value = layout, .old_value = layout };
        assert_int_equal(md_array_failures_tolerated(&a, &n, &ret), 0);
        return ret;
}

/* How many more members each level can lose: a slot counts only while its member is in sync. */
static md_tval num(uint64_t v) {
        return (md_tval){ .kind = MD_V_NUMBER, .value = v };
}
static md_tval none_tv(void) {
        return (md_tval){ .kind = MD_V_NONE };
}
static md_tval unknown_tv(void) {
        return (md_tval){ .kind = MD_V_UNKNOWN };
}

/*
 * What each operation leaves behind when it was interrupted rather than
 * completed: only a completed one made md forget sync_min and sync_max.
 */
static void test_operation_completed(void **state) {
        md_member m[2] = {
                { .name = "vda", .slot = 0, .role = MD_ROLE_IN_SYNC },
                { .name = "vdb", .slot = 1, .role = MD_ROLE_REBUILDING },
        };
        md_array a = { .name = "md0", .sync_action = MD_SYNC_IDLE, .members = m, .n_members = 2 };

        (void)state;
        a.resync_start = num(153600);
        assert_false(md_operation_completed(&a, MD_SYNC_RESYNC));
        a.resync_start = none_tv();
        assert_true(md_operation_completed(&a, MD_SYNC_RESYNC));

        /* vdb is still being rebuilt: the recovery stopped short. */
        assert_false(md_operation_completed(&a, MD_SYNC_RECOVER));
        m[1].role = MD_ROLE_IN_SYNC;
        assert_true(md_operation_completed(&a, MD_SYNC_RECOVER));

        /* An interrupted check keeps its checkpoint in sync_min. */
        a.tunables[MD_T_SYNC_MIN] = num(524288);
        assert_false(md_operation_completed(&a, MD_SYNC_CHECK));
        assert_false(md_operation_completed(&a, MD_SYNC_REPAIR));
        a.tunables[MD_T_SYNC_MIN] = num(0);
        assert_true(md_operation_completed(&a, MD_SYNC_CHECK));
        a.tunables[MD_T_SYNC_MIN] = unknown_tv();
        assert_false(md_operation_completed(&a, MD_SYNC_REPAIR));

        a.reshape_position = num(976896);
        assert_false(md_operation_completed(&a, MD_SYNC_RESHAPE));
        a.reshape_position = none_tv();
        assert_true(md_operation_completed(&a, MD_SYNC_RESHAPE));

        assert_false(md_operation_completed(&a, MD_SYNC_IDLE));
        assert_false(md_operation_completed(&a, MD_SYNC_FROZEN));
}

static void test_failures_tolerated(void **state) {
        md_array a = { .level = MD_LEVEL_RAID0 };
        md_disk_counts n = { .active = 4 };
        unsigned ret = 999;

        (void)state;
        assert_int_equal(tolerated_of(MD_LEVEL_RAID1, 2, 2, MD_V_ABSENT, 0, 2), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID1, 3, 3, MD_V_ABSENT, 0, 3), 2);
        /* a raid1 rebuilding its second member has one copy */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID1, 2, 2, MD_V_ABSENT, 0, 1), 0);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID5, 4, 4, MD_V_ABSENT, 0, 4), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID5, 4, 4, MD_V_ABSENT, 0, 3), 0);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID4, 3, 3, MD_V_ABSENT, 0, 3), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID6, 5, 5, MD_V_ABSENT, 0, 5), 2);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID6, 5, 5, MD_V_ABSENT, 0, 4), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID6, 5, 5, MD_V_ABSENT, 0, 3), 0);
        /* growing 4 -> 5: md still runs on the 4 old slots, all in sync */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID5, 5, 4, MD_V_ABSENT, 0, 4), 1);
        /* raid10 n2 (258), f2 (513), o2 (66049): two copies of each block */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 4, 4, MD_V_NUMBER, 258, 4), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 4, 4, MD_V_NUMBER, 513, 3), 0);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 4, 4, MD_V_NUMBER, 66049, 4), 1);
        /* n3 on 6 disks: one down leaves at least two copies of each block */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 6, 6, MD_V_NUMBER, 259, 5), 1);
        /* two down: a lower bound of 0 (they may sit in different mirror sets) */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 6, 6, MD_V_NUMBER, 259, 4), 0);
        /* no layout, or a nonsense one with no copies: md's default of two */
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 4, 4, MD_V_UNKNOWN, 0, 4), 1);
        assert_int_equal(tolerated_of(MD_LEVEL_RAID10, 4, 4, MD_V_NUMBER, 0, 4), 1);

        /* md's degraded: slots not in sync, of the old raid_disks while growing */
        a.level = MD_LEVEL_RAID6;
        a.raid_disks = (md_newold){ .kind = MD_V_NUMBER, .value = 6, .old_value = 5 };
        n.active = 3;
        assert_int_equal(md_array_slots_down(&a, &n, &ret), 0);
        assert_int_equal(ret, 2);
        n.active = 6;
        assert_int_equal(md_array_slots_down(&a, &n, &ret), 0);
        assert_int_equal(ret, 0);
        n.active = 4;
        a.level = MD_LEVEL_RAID0;

        /* no redundancy to count */
        ret = 999;
        assert_int_equal(md_array_slots_down(&a, &n, &ret), -ENODATA);
        assert_int_equal(md_array_failures_tolerated(&a, &n, &ret), -ENODATA);
        a.level = MD_LEVEL_RAID5;
        a.raid_disks.kind = MD_V_UNKNOWN;
        assert_int_equal(md_array_failures_tolerated(&a, &n, &ret), -ENODATA);
        assert_int_equal(md_array_failures_tolerated(NULL, &n, &ret), -EINVAL);
        assert_int_equal(ret, 999);
}

/*
 * In every real snapshot, the slots down the counts give are md's own
 * md/degraded, the number the plugin reports as count-degraded.
 */
static void test_snapshot_slots_down_is_degraded(void **state) {
        ctx *c = *state;
        unsigned down;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_true(c->set.n > 0);
        for (unsigned i = 0; i < c->set.n; i++) {
                const md_array *a = &c->set.arrays[i];
                md_disk_counts n;

                assert_int_equal(a->degraded.kind, MD_V_NUMBER);
                md_array_disk_counts(a, &n);
                assert_int_equal(md_array_slots_down(a, &n, &down), 0);
                assert_int_equal(down, a->degraded.value);
        }
}

/* A rebuilding disk and a hot spare both read "spare": the slot tells them apart. */
static void test_spare_vs_rebuilding(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a;

        array_files(c, "md0", "raid1", "2", true);
        member(c, "md0", "vdc", "spare\n", "none\n", "none\n");
        member(c, "md0", "vdb", "spare\n", "1\n", "1000\n");
        member(c, "md0", "vda", "in_sync\n", "0\n", "none\n");
        a = read_one(c, "md0");

        assert_int_equal(a->bad, 0);
        assert_int_equal(a->n_members, 3);
        assert_string_equal(a->members[0].name, "vda");
        assert_string_equal(a->members[1].name, "vdb");
        assert_string_equal(a->members[2].name, "vdc");
        assert_int_equal(a->members[1].role, MD_ROLE_REBUILDING);
        assert_int_equal(a->members[1].recovery_start.value, 1000);
        assert_int_equal(a->members[2].role, MD_ROLE_SPARE);
        assert_int_equal(a->members[2].slot, -1);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 1);
        assert_int_equal(n.rebuilding, 1);
        assert_int_equal(n.spare, 1);
        assert_int_equal(n.failed, 0);
        assert_int_equal(n.missing, 0);
}

static void test_faulty_and_missing(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a;

        array_files(c, "md0", "raid5", "4", true);
        put(c, "md0", "md/degraded", "2\n");
        member(c, "md0", "vda", "in_sync\n", "0\n", "none\n");
        member(c, "md0", "vdb", "faulty,write_error\n", "1\n", "none\n");
        member(c, "md0", "vdc", "in_sync\n", "2\n", "none\n");
        a = read_one(c, "md0");

        assert_int_equal(a->members[1].role, MD_ROLE_FAULTY);
        assert_int_equal(a->members[1].flags, MD_MEMBER_FAULTY | MD_MEMBER_WRITE_ERROR);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 2);
        assert_int_equal(n.failed, 1);
        /* Slot 3 is held by nobody; the faulty disk still holds slot 1. */
        assert_int_equal(n.missing, 1);
        assert_int_equal(a->degraded.value, 2);
}

static void test_write_mostly_replacement(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a;

        array_files(c, "md0", "raid1", "2", true);
        member(c, "md0", "vda", "in_sync,write_mostly\n", "0\n", "none\n");
        member(c, "md0", "vdb", "in_sync,want_replacement\n", "1\n", "none\n");
        member(c, "md0", "vdc", "spare,replacement\n", "1\n", "2048\n");
        a = read_one(c, "md0");

        assert_int_equal(a->bad, 0);
        assert_int_equal(a->members[0].flags, MD_MEMBER_IN_SYNC | MD_MEMBER_WRITE_MOSTLY);
        assert_int_equal(a->members[0].role, MD_ROLE_IN_SYNC);
        assert_string_equal(a->members[1].name, "vdb");
        assert_int_equal(a->members[1].flags, MD_MEMBER_IN_SYNC | MD_MEMBER_WANT_REPLACEMENT);
        assert_string_equal(a->members[2].name, "vdc");
        assert_int_equal(a->members[2].flags, MD_MEMBER_SPARE | MD_MEMBER_REPLACEMENT);
        assert_int_equal(a->members[2].role, MD_ROLE_REBUILDING);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 2);
        assert_int_equal(n.rebuilding, 1);
        /* A replacement shares its original's slot: nothing is missing. */
        assert_int_equal(n.missing, 0);
}

static void test_journal_member(void **state) {
        ctx *c = *state;
        const md_array *a;

        array_files(c, "md0", "raid5", "3", true);
        member(c, "md0", "nvme0n1", "journal\n", "journal\n", "none\n");
        member(c, "md0", "sda", "in_sync\n", "0\n", "none\n");
        a = read_one(c, "md0");
        assert_int_equal(a->bad, 0);
        assert_string_equal(a->members[1].name, "nvme0n1");
        assert_int_equal(a->members[1].slot, -1);
        assert_int_equal(a->members[1].role, MD_ROLE_JOURNAL);
}

/* The same recovery on Debian's 7.3.4: its words and its new attributes. */
static void test_snapshot_raid5_recovery_7_3(void **state) {
        md_disk_counts n;
        md_globals g;
        ctx *c = *state;
        const md_array *a;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        a = &c->set.arrays[0];
        assert_string_equal(a->name, "md0");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID5);
        assert_string_equal(a->uuid, "8206e4e8-e210-3093-b7fc-6d1d8660d318");
        assert_int_equal(a->degraded.value, 1);
        /* 6.12 and later say "recover" where 6.1 said "recovery". */
        assert_int_equal(a->sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->last_sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(a->progress.done, 130824);
        assert_int_equal(a->progress.total, 2093056);
        /* bitmap_type "[none] bitmap ", and bitmap/ holds only location. */
        assert_string_equal(a->bitmap_type, "none");
        assert_false(a->has_bitmap);
        assert_int_equal(a->tunables[MD_T_SYNC_IO_DEPTH].kind, MD_V_SYSTEM);
        assert_int_equal(a->tunables[MD_T_SYNC_IO_DEPTH].value, 32);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 10000);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 3);
        assert_int_equal(n.rebuilding, 1);
        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.sync_io_depth.kind, MD_V_NUMBER);
        assert_int_equal(g.sync_io_depth.value, 32);
}

/* And on Debian 13's 6.12.117: 6.12's words, none of 7.x's attributes. */
static void test_snapshot_raid5_recovery_6_12(void **state) {
        md_disk_counts n;
        md_globals g;
        ctx *c = *state;
        const md_array *a;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        a = &c->set.arrays[0];
        assert_int_equal(a->bad, 0);
        assert_string_equal(a->uuid, "c6992de8-510f-344d-b2b8-f46c07b99942");
        assert_int_equal(a->sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->last_sync_action, MD_SYNC_RECOVER);
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(a->progress.done, 130824);
        assert_int_equal(a->progress.total, 2093056);
        assert_false(a->has_bitmap);
        assert_string_equal(a->bitmap_type, "");
        assert_int_equal(a->tunables[MD_T_SYNC_IO_DEPTH].kind, MD_V_ABSENT);
        assert_int_equal(a->tunables[MD_T_READ_AHEAD_KB].value, 3072);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 3);
        assert_int_equal(n.rebuilding, 1);
        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.sync_io_depth.kind, MD_V_ABSENT);
        assert_int_equal(g.speed_limit_max.value, 10000);
}

static void test_bitmap_presence(void **state) {
        ctx *c = *state;

        raid1(c, "md0");
        put(c, "md0", "md/bitmap/location", "+8\n");
        assert_true(read_one(c, "md0")->has_bitmap);
        put(c, "md0", "md/bitmap/location", "file\n");
        assert_true(read_one(c, "md0")->has_bitmap);
        put(c, "md0", "md/bitmap/location", "none\n");
        assert_false(read_one(c, "md0")->has_bitmap);
        drop(c, "md0", "md/bitmap");
        assert_false(read_one(c, "md0")->has_bitmap);
        assert_int_equal(read_one(c, "md0")->bad, 0);
        assert_string_equal(read_one(c, "md0")->bitmap_type, "");
}

/* 7.x's bitmap_type: the choice in brackets; the lockless bitmap has no bitmap/ group. */
static void test_bitmap_type(void **state) {
        ctx *c = *state;

        raid1(c, "md0");
        put(c, "md0", "md/bitmap/location", "none\n");
        put(c, "md0", "md/bitmap_type", "[none] bitmap \n");
        assert_string_equal(read_one(c, "md0")->bitmap_type, "none");
        assert_false(read_one(c, "md0")->has_bitmap);
        put(c, "md0", "md/bitmap/location", "+8\n");
        put(c, "md0", "md/bitmap_type", "none [bitmap] llbitmap\n");
        assert_string_equal(read_one(c, "md0")->bitmap_type, "bitmap");
        assert_true(read_one(c, "md0")->has_bitmap);
        drop(c, "md0", "md/bitmap");
        put(c, "md0", "md/bitmap_type", "none bitmap [llbitmap]\n");
        assert_string_equal(read_one(c, "md0")->bitmap_type, "llbitmap");
        assert_true(read_one(c, "md0")->has_bitmap);
        /* Garbage is no choice; the rest of the array reads as before. */
        put(c, "md0", "md/bitmap_type", "none bitmap\n");
        assert_string_equal(read_one(c, "md0")->bitmap_type, "");
        assert_int_equal(read_one(c, "md0")->bad, 0);
}

static void test_users_io(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        assert_int_equal(read_one(c, "md0")->io_sectors.kind, MD_V_ABSENT);
        put(c, "md0", "stat",
            "      40        0     2048        8        3        0       24        1        0        "
            "9        9        0        0        0        0        0        0\n");
        a = read_one(c, "md0");
        assert_int_equal(a->io_sectors.kind, MD_V_NUMBER);
        assert_int_equal(a->io_sectors.value, 2048 + 24);
        assert_int_equal(a->io_requests.value, 43);
        assert_int_equal(a->io_wait_ms.kind, MD_V_NUMBER);
        assert_int_equal(a->io_wait_ms.value, 9);
        assert_int_equal(a->io_in_flight.kind, MD_V_NUMBER);
        assert_int_equal(a->io_in_flight.value, 0);
        assert_int_equal(a->bad, 0);
        put(c, "md0", "stat", "40 0 2048 8 3 0 24 1 32 9 9\n");
        assert_int_equal(read_one(c, "md0")->io_in_flight.value, 32);
        put(c, "md0", "stat", "40 0 2048 8 3 0 24 1\n");
        assert_int_equal(read_one(c, "md0")->io_in_flight.kind, MD_V_ABSENT);

        put(c, "md0", "stat", "40 0 2048\n");
        a = read_one(c, "md0");
        assert_int_equal(a->io_sectors.kind, MD_V_UNKNOWN);
        assert_int_equal(a->io_wait_ms.kind, MD_V_UNKNOWN);
        assert_int_equal(a->io_in_flight.kind, MD_V_UNKNOWN);
        assert_int_equal(a->bad, MD_ATTR_BIT(MD_ATTR_IO));

        /* Left out when not asked for. */
        assert_int_equal(md_read_arrays_of(&c->root, &c->set, MD_ATTR_BIT(MD_ATTR_SYNC_ACTION)), 0);
        assert_int_equal(c->set.arrays[0].io_sectors.kind, MD_V_ABSENT);
        assert_int_equal(c->set.arrays[0].bad, 0);
}

/* queue/iostats says whether that count counts, and md's throttle reads it from 6.16. */
static void test_user_io(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        assert_int_equal(md_array_user_io(read_one(c, "md0")), MD_USER_IO_UNKNOWN);
        put(c, "md0", "queue/iostats", "1\n");
        a = read_one(c, "md0");
        assert_int_equal(a->io_stats.value, 1);
        assert_int_equal(md_array_user_io(a), MD_USER_IO_COUNTED);
        put(c, "md0", "queue/iostats", "0\n");
        a = read_one(c, "md0");
        assert_int_equal(md_array_user_io(a), MD_USER_IO_UNCOUNTED);
        assert_string_equal(md_user_io_to_string(md_array_user_io(a)), "uncounted");
        put(c, "md0", "md/sync_io_depth", "32 (system)\n");
        a = read_one(c, "md0");
        assert_int_equal(md_array_user_io(a), MD_USER_IO_UNSEEN);
        assert_string_equal(md_user_io_to_string(md_array_user_io(a)), "unseen");
        assert_int_equal(a->bad, 0);

        put(c, "md0", "queue/iostats", "on\n");
        a = read_one(c, "md0");
        assert_int_equal(md_array_user_io(a), MD_USER_IO_UNKNOWN);
        assert_int_equal(a->bad, MD_ATTR_BIT(MD_ATTR_IO));

        put(c, "md0", "queue/iostats", "0\n");
        assert_int_equal(md_read_arrays_of(&c->root, &c->set, MD_ATTR_BIT(MD_ATTR_SYNC_ACTION)), 0);
        assert_int_equal(md_array_user_io(&c->set.arrays[0]), MD_USER_IO_UNKNOWN);
        assert_string_equal(md_user_io_to_string(MD_USER_IO_UNKNOWN), "");
        assert_null(md_user_io_to_string(_MD_USER_IO_MAX));
        assert_int_equal(md_array_user_io(NULL), MD_USER_IO_UNKNOWN);
}

/* A check just started: md flags it running before its sync thread has begun. */
static void test_checkpoint_between_operations(void **state) {
        uint64_t left = 4242;
        double pct = 42;
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        put(c, "md0", "md/sync_action", "check\n");
        put(c, "md0", "md/sync_completed", "1966080 / 2093056\n");
        put(c, "md0", "md/sync_speed", "none\n");
        a = read_one(c, "md0");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->progress.kind, MD_PROGRESS_BETWEEN);
        assert_true(md_array_busy(a));
        assert_int_equal(md_array_progress_percent(a, &pct), -ENODATA);
        assert_int_equal(md_array_seconds_left(a, &left), -ENODATA);
        assert_true(pct == 42);
        assert_int_equal(left, 4242);

        /* Once the thread is in its loop, the checkpoint is the check's own. */
        put(c, "md0", "md/sync_completed", "0 / 2093056\n");
        put(c, "md0", "md/sync_speed", "0\n");
        a = read_one(c, "md0");
        assert_int_equal(a->progress.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(md_array_progress_percent(a, &pct), 0);
        assert_true(pct == 0);

        /* Nothing to date it by when sync_speed was not read. */
        put(c, "md0", "md/sync_completed", "1966080 / 2093056\n");
        put(c, "md0", "md/sync_speed", "none\n");
        assert_int_equal(md_read_arrays_of(&c->root, &c->set, MD_ATTR_BIT(MD_ATTR_SYNC_COMPLETED)), 0);
        assert_int_equal(c->set.arrays[0].progress.kind, MD_PROGRESS_RUNNING);
}

static void test_local_and_max(void **state) {
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        put(c, "md0", "md/sync_speed_min", "50000 (local)\n");
        put(c, "md0", "md/sync_speed_max", "200000 (system)\n");
        put(c, "md0", "md/sync_max", "max\n");
        put(c, "md0", "md/sync_min", "2048\n");
        a = read_one(c, "md0");
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_LOCAL);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].value, 50000);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].kind, MD_V_SYSTEM);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        assert_int_equal(a->tunables[MD_T_SYNC_MAX].kind, MD_V_MAX);
        assert_int_equal(a->tunables[MD_T_SYNC_MIN].value, 2048);

        put(c, "md0", "md/sync_max", "4096\n");
        a = read_one(c, "md0");
        assert_int_equal(a->tunables[MD_T_SYNC_MAX].kind, MD_V_NUMBER);
        assert_int_equal(a->tunables[MD_T_SYNC_MAX].value, 4096);
}

/* Present but unreadable: unknown, with the attribute's bit set; never a wrong number. */
static void test_hostile_files(void **state) {
        char big[MD_ATTR_MAX + 100];
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        put(c, "md0", "md/level", "rai"); /* truncated */
        put(c, "md0", "md/array_state", "\x01\x02garbage");
        put(c, "md0", "md/uuid", "604e063f-525f-6bef\n");             /* truncated */
        put(c, "md0", "size", "36028797018963968\n");                 /* x 512 overflows */
        put(c, "md0", "md/component_size", "18446744073709551616\n"); /* 2^64 */
        put(c, "md0", "md/raid_disks", "5 (4\n");
        put(c, "md0", "md/sync_completed", "3000 / 2000\n"); /* done > total */
        put(c, "md0", "md/last_sync_action", "rebuild\n");
        put(c, "md0", "md/mismatch_cnt", "-1\n");
        memset(big, '1', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        put(c, "md0", "md/sync_speed", big); /* huge */
        put(c, "md0", "md/sync_speed_min", "1000 (sys\n");
        drop(c, "md0", "md/degraded");
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/degraded", "degraded"), 0);
        drop(c, "md0", "md/sync_action");
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/sync_action"), 0);
        drop(c, "md0", "md/chunk_size");
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/chunk_size"), 0);

        a = read_one(c, "md0");
        assert_int_equal(a->bad, BAD(MD_ATTR_LEVEL) | BAD(MD_ATTR_ARRAY_STATE) | BAD(MD_ATTR_UUID) | BAD(MD_ATTR_SIZE) |
                                         BAD(MD_ATTR_COMPONENT_SIZE) | BAD(MD_ATTR_RAID_DISKS) |
                                         BAD(MD_ATTR_CHUNK_SIZE) | BAD(MD_ATTR_DEGRADED) | BAD(MD_ATTR_SYNC_ACTION) |
                                         BAD(MD_ATTR_LAST_SYNC_ACTION) | BAD(MD_ATTR_SYNC_COMPLETED) |
                                         BAD(MD_ATTR_SYNC_SPEED) | BAD(MD_ATTR_MISMATCH_CNT) |
                                         BAD_TUNABLE(MD_T_SYNC_SPEED_MIN));
        assert_int_equal(a->level, _MD_LEVEL_INVALID);
        assert_int_equal(a->state, _MD_ARRAY_STATE_INVALID);
        assert_string_equal(a->uuid, "");
        assert_int_equal(a->size_bytes, 0);
        assert_int_equal(a->component_size.kind, MD_V_UNKNOWN);
        assert_int_equal(a->raid_disks.kind, MD_V_UNKNOWN);
        assert_int_equal(a->chunk_size.kind, MD_V_UNKNOWN);
        assert_int_equal(a->degraded.kind, MD_V_UNKNOWN);
        assert_int_equal(a->sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->last_sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->progress.kind, MD_PROGRESS_UNKNOWN);
        assert_int_equal(a->sync_speed.kind, MD_V_UNKNOWN);
        assert_int_equal(a->mismatch_cnt.kind, MD_V_UNKNOWN);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_UNKNOWN);
        /* What was fine is still read. */
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        assert_int_equal(a->n_members, 2);
        assert_false(md_array_busy(a));
}

/*
 * Only what is asked for is read: the rest reads as absent, its bad bit stays
 * clear however broken the file is, and without MD_ATTR_MEMBERS no member is
 * listed. The level and array state are always read.
 */
static void test_read_only_asked(void **state) {
        const uint64_t asked = MD_ATTR_BIT(MD_ATTR_SYNC_SPEED) | MD_ATTR_TUNABLE_BIT(MD_T_SYNC_SPEED_MAX);
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        put(c, "md0", "md/uuid", "604e063f-525f-6bef\n");
        put(c, "md0", "md/raid_disks", "5 (4\n");
        put(c, "md0", "md/sync_completed", "3000 / 2000\n");
        put(c, "md0", "md/sync_speed_min", "1000 (sys\n");
        put(c, "md0", "md/sync_speed", "3000\n");
        drop(c, "md0", "md/sync_action");
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/sync_action"), 0);

        assert_int_equal(md_read_arrays_of(&c->root, &c->set, asked), 0);
        assert_int_equal(c->set.n, 1);
        a = &c->set.arrays[0];
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->level, MD_LEVEL_RAID1);
        assert_int_equal(a->state, MD_ARRAY_CLEAN);
        assert_int_equal(a->sync_speed.kind, MD_V_NUMBER);
        assert_int_equal(a->sync_speed.value, 3000);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MAX].value, 200000);
        assert_string_equal(a->uuid, "");
        assert_int_equal(a->raid_disks.kind, MD_V_ABSENT);
        assert_int_equal(a->sync_action, _MD_SYNC_ACTION_INVALID);
        assert_int_equal(a->progress.kind, MD_PROGRESS_ABSENT);
        assert_int_equal(a->tunables[MD_T_SYNC_SPEED_MIN].kind, MD_V_ABSENT);
        assert_int_equal(a->tunables[MD_T_READ_AHEAD_KB].kind, MD_V_ABSENT);
        assert_int_equal(a->n_members, 0);

        /* Asked for everything, the same set reads the broken files as broken again. */
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        a = &c->set.arrays[0];
        assert_int_equal(a->bad, BAD(MD_ATTR_UUID) | BAD(MD_ATTR_RAID_DISKS) | BAD(MD_ATTR_SYNC_ACTION) |
                                         BAD(MD_ATTR_SYNC_COMPLETED) | BAD_TUNABLE(MD_T_SYNC_SPEED_MIN));
        assert_int_equal(a->n_members, 2);
}

static void test_member_without_state(void **state) {
        md_disk_counts n;
        ctx *c = *state;
        const md_array *a;

        raid1(c, "md0");
        member(c, "md0", "vdc", NULL, "none\n", "none\n");
        a = read_one(c, "md0");
        assert_int_equal(a->bad, BAD(MD_ATTR_MEMBERS));
        assert_int_equal(a->n_members, 3);
        assert_string_equal(a->members[2].name, "vdc");
        assert_int_equal(a->members[2].role, MD_ROLE_UNKNOWN);
        assert_int_equal(a->members[2].flags, 0);
        md_array_disk_counts(a, &n);
        assert_int_equal(n.active, 2);
        assert_int_equal(n.spare, 0);

        /* Garbage slot, garbage state, and a member name no kernel makes. */
        member(c, "md0", "vdc", "in_sync,,\n", "one\n", "x\n");
        put(c, "md0", "md/dev-vdddddddddddddddddddddddddddddddd/state", "in_sync\n");
        a = read_one(c, "md0");
        assert_int_equal(a->bad, BAD(MD_ATTR_MEMBERS));
        assert_int_equal(a->n_members, 3);
        assert_int_equal(a->members[2].role, MD_ROLE_UNKNOWN);
        assert_int_equal(a->members[2].slot, -1);
        assert_int_equal(a->members[2].recovery_start.kind, MD_V_UNKNOWN);
}

static void test_not_arrays(void **state) {
        md_array a = { .name = "sentinel", .n_members = 77 };
        ctx *c = *state;

        raid1(c, "md0");
        /* An md device opened but never set up has no md/ folder. */
        assert_int_equal(md_fixture_write(c->dir, "sys/block/md5/queue/read_ahead_kb", "128\n"), 0);
        assert_int_equal(md_fixture_write(c->dir, "sys/block/sda/md/level", "raid1\n"), 0);
        assert_int_equal(md_fixture_write(c->dir, "sys/block/md6", "not a folder\n"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md7", "md7"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md8", "../devices/gone/md8"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md..x/md"), 0);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        assert_string_equal(c->set.arrays[0].name, "md0");

        assert_int_equal(md_read_array(&c->root, "md5", &a), -ENOENT);
        assert_int_equal(md_read_array(&c->root, "md6", &a), -ENOENT);
        assert_int_equal(md_read_array(&c->root, "md8", &a), -ENOENT);
        assert_int_equal(md_read_array(&c->root, "md9", &a), -ENOENT);
        assert_int_equal(md_read_array(&c->root, "sda", &a), -EINVAL);
        assert_int_equal(md_read_array(&c->root, "md0/../sda", &a), -EINVAL);
        assert_int_equal(md_read_array(&c->root, "md7", &a), -ELOOP);
        assert_string_equal(a.name, "sentinel");
        assert_int_equal(a.n_members, 77);
        assert_null(a.members);
}

static void test_no_sys_block(void **state) {
        md_array_set set = { 0 };
        char *dir;
        md_root r;

        (void)state;
        assert_int_equal(md_fixture_new(&dir), 0);
        assert_int_equal(md_root_open(dir, &r), 0);
        assert_int_equal(md_read_arrays(&r, &set), -ENOENT);
        assert_int_equal(set.n, 0);
        md_root_close(&r);
        md_fixture_rm(dir);
        free(dir);
}

/* An array stopped between two reads: the set shrinks, buffers are kept. */
static void test_array_vanishes(void **state) {
        ctx *c = *state;
        md_array one = { 0 };
        md_member *members;

        raid1(c, "md0");
        raid1(c, "md1");
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 2);
        assert_int_equal(md_read_array(&c->root, "md1", &one), 0);
        assert_string_equal(one.name, "md1");
        members = one.members;

        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0"), 0);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        assert_string_equal(c->set.arrays[0].name, "md1");
        assert_int_equal(c->set.arrays[0].n_members, 2);

        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md1/md"), 0);
        assert_int_equal(md_read_array(&c->root, "md1", &one), -ENOENT);
        /* Left as it was. */
        assert_string_equal(one.name, "md1");
        assert_int_equal(one.n_members, 2);
        assert_ptr_equal(one.members, members);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 0);
        md_array_free(&one);
        assert_null(one.members);
}

/* Reading again reuses the buffers: no allocation unless arrays or members grow. */
static void test_buffers_reused(void **state) {
        ctx *c = *state;
        md_array *arrays;
        md_member *members;

        for (int i = 0; i < 6; i++) {
                char name[16];

                snprintf(name, sizeof(name), "md%d", i);
                raid1(c, name);
        }
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 6);
        arrays = c->set.arrays;
        members = c->set.arrays[3].members;
        for (int i = 0; i < 3; i++) {
                assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
                assert_int_equal(c->set.n, 6);
                assert_ptr_equal(c->set.arrays, arrays);
                assert_ptr_equal(c->set.arrays[3].members, members);
                assert_string_equal(c->set.arrays[3].name, "md3");
        }
        /* More members than the buffer holds: it grows and keeps every one. */
        for (int i = 0; i < 20; i++) {
                char dev[16], slot[16];

                snprintf(dev, sizeof(dev), "sd%c", 'c' + i);
                snprintf(slot, sizeof(slot), "%d\n", i + 2);
                member(c, "md3", dev, "in_sync\n", slot, "none\n");
        }
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.arrays[3].n_members, 22);
        assert_int_equal(c->set.arrays[3].members[21].slot, 21);
        assert_string_equal(c->set.arrays[3].members[21].name, "sdv");
}

/* The layout of a real kernel: sys/block entries and rdN are symlinks. */
static void test_real_layout(void **state) {
        ctx *c = *state;
        const md_array *a;

        assert_int_equal(md_fixture_mkdir(c->dir, "sys/devices/virtual/block/md0"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0", "../devices/virtual/block/md0"), 0);
        raid1(c, "md0");
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/rd0", "dev-vda"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/rd1", "dev-vdb"), 0);
        a = read_one(c, "md0");
        assert_int_equal(a->bad, 0);
        assert_int_equal(a->n_members, 2);
        assert_int_equal(a->members[1].slot, 1);
}

static void test_find(void **state) {
        ctx *c = *state;

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_non_null(md_array_set_find(&c->set, "md0"));
        assert_non_null(md_array_set_find(&c->set, "/dev/md0"));
        assert_non_null(md_array_set_find(&c->set, "7ac7b4d7-c925-6f89-525e-4caecab28aec"));
        assert_non_null(md_array_set_find(&c->set, "7AC7B4D7-C925-6F89-525E-4CAECAB28AEC"));
        assert_non_null(md_array_set_find(&c->set, "7ac7b4d7:c9256f89:525e4cae:cab28aec"));
        assert_non_null(md_array_set_find(&c->set, "7AC7B4D7:C9256F89:525E4CAE:CAB28AEC"));
        assert_null(md_array_set_find(&c->set, "7ac7b4d7:c9256f89:525e4cae:cab28aed"));
        assert_null(md_array_set_find(&c->set, "7ac7b4d7c9256f89525e4caecab28aec"));
        assert_null(md_array_set_find(&c->set, "7ac7b4d7-c925-6f89-525e:4caecab28aec"));
        assert_null(md_array_set_find(&c->set, "md1"));
        assert_null(md_array_set_find(&c->set, "/dev/md/md0"));
        assert_null(md_array_set_find(&c->set, ""));
        assert_null(md_array_set_find(&c->set, NULL));
        assert_null(md_array_set_find(NULL, "md0"));
}

static void test_helpers(void **state) {
        md_array a = { .level = MD_LEVEL_RAID1 };
        uint64_t left = 4242;
        double pct = -1;

        (void)state;
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 0, .total = 1000 };
        a.sync_speed = (md_tval){ .kind = MD_V_NONE };
        assert_int_equal(md_array_progress_percent(&a, &pct), 0);
        assert_true(pct == 0.0);
        assert_int_equal(md_array_seconds_left(&a, &left), -ENODATA);
        a.sync_speed = (md_tval){ .kind = MD_V_NUMBER, .value = 0 };
        assert_int_equal(md_array_seconds_left(&a, &left), -ENODATA);
        assert_int_equal(left, 4242);
        a.sync_speed.value = 100;
        assert_int_equal(md_array_seconds_left(&a, &left), 0);
        assert_int_equal(left, 5);
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 1000, .total = 1000 };
        assert_int_equal(md_array_progress_percent(&a, &pct), 0);
        assert_true(pct == 100.0);
        assert_int_equal(md_array_seconds_left(&a, &left), 0);
        assert_int_equal(left, 0);
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 0, .total = 0 };
        pct = -1;
        assert_int_equal(md_array_progress_percent(&a, &pct), -ENODATA);
        assert_true(pct == -1);
        a.progress = (md_progress){ .kind = MD_PROGRESS_NONE };
        assert_false(md_array_busy(&a));
        a.level = _MD_LEVEL_INVALID;
        assert_false(md_array_has_redundancy(&a));

        assert_string_equal(md_member_role_to_string(MD_ROLE_REBUILDING), "rebuilding");
        assert_string_equal(md_member_role_to_string(MD_ROLE_SPARE), "spare");
        assert_string_equal(md_member_role_to_string(MD_ROLE_UNKNOWN), "unknown");
        assert_null(md_member_role_to_string(_MD_ROLE_MAX));
}

static void test_globals_absent_and_bad(void **state) {
        md_globals g;
        ctx *c = *state;

        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.speed_limit_min.kind, MD_V_ABSENT);
        assert_int_equal(g.speed_limit_max.kind, MD_V_ABSENT);
        assert_int_equal(md_fixture_write(c->dir, "proc/sys/dev/raid/speed_limit_min", "lots\n"), 0);
        assert_int_equal(md_fixture_write(c->dir, "proc/sys/dev/raid/speed_limit_max", "200000\n"), 0);
        assert_int_equal(md_read_globals(&c->root, &g), 0);
        assert_int_equal(g.speed_limit_min.kind, MD_V_UNKNOWN);
        assert_int_equal(g.speed_limit_max.kind, MD_V_NUMBER);
        assert_int_equal(g.speed_limit_max.value, 200000);
}

#define T(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void) {
        const struct CMUnitTest tests[] = {
                T(test_snapshot_raid5_recovery, setup_03),
                T(test_snapshot_raid1_bitmap, setup_01),
                T(test_snapshot_raid6_reshape, setup_09),
                T(test_reshape_in_place_and_metadata, setup_09),
                T(test_snapshot_two_raid1_delayed, setup_10),
                T(test_snapshot_no_arrays, setup_00),
                cmocka_unit_test(test_name_valid),
                T(test_named_array, setup_empty),
                T(test_inactive, setup_empty),
                T(test_raid0_linear, setup_empty),
                T(test_raid10, setup_empty),
                T(test_layout_read_for_raid10_only, setup_empty),
                cmocka_unit_test(test_failures_tolerated),
                cmocka_unit_test(test_operation_completed),
                T(test_snapshot_slots_down_is_degraded, setup_01),
                T(test_snapshot_slots_down_is_degraded, setup_03),
                T(test_snapshot_slots_down_is_degraded, setup_09),
                T(test_snapshot_slots_down_is_degraded, setup_10),
                T(test_snapshot_slots_down_is_degraded, setup_11),
                T(test_snapshot_slots_down_is_degraded, setup_12),
                T(test_spare_vs_rebuilding, setup_empty),
                T(test_faulty_and_missing, setup_empty),
                T(test_write_mostly_replacement, setup_empty),
                T(test_journal_member, setup_empty),
                T(test_snapshot_raid5_recovery_7_3, setup_11),
                T(test_snapshot_raid5_recovery_6_12, setup_12),
                T(test_bitmap_presence, setup_empty),
                T(test_bitmap_type, setup_empty),
                T(test_local_and_max, setup_empty),
                T(test_users_io, setup_empty),
                T(test_user_io, setup_empty),
                T(test_checkpoint_between_operations, setup_empty),
                T(test_hostile_files, setup_empty),
                T(test_read_only_asked, setup_empty),
                T(test_member_without_state, setup_empty),
                T(test_not_arrays, setup_empty),
                cmocka_unit_test(test_no_sys_block),
                T(test_array_vanishes, setup_empty),
                T(test_buffers_reused, setup_empty),
                T(test_real_layout, setup_empty),
                T(test_find, setup_03),
                cmocka_unit_test(test_helpers),
                T(test_globals_absent_and_bad, setup_empty),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
