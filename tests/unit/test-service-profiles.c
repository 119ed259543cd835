/* SPDX-License-Identifier: MIT */
/* Profile planning: budget, kernel bounds, raise-only, options, levels. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profiles.h"

#define MiB (1024ull * 1024ull)

static md_tval num(uint64_t v) {
        return (md_tval){ .kind = MD_V_NUMBER, .value = v };
}
static md_tval sys(uint64_t v) {
        return (md_tval){ .kind = MD_V_SYSTEM, .value = v };
}
static md_tval loc(uint64_t v) {
        return (md_tval){ .kind = MD_V_LOCAL, .value = v };
}

/* A 4-disk raid5 recovering, as in tests/fixtures/03-raid5-recovery. */
static md_array raid5(void) {
        md_array a = { .name = "md0",
                       .level = MD_LEVEL_RAID5,
                       .state = MD_ARRAY_CLEAN,
                       .uuid = "7ac7b4d7-c925-6f89-525e-4caecab28aec",
                       .sync_action = MD_SYNC_RECOVER };

        a.raid_disks = (md_newold){ .kind = MD_V_NUMBER, .value = 4, .old_value = 4 };
        a.chunk_size = (md_newold){ .kind = MD_V_NUMBER, .value = 524288, .old_value = 524288 };
        a.n_members = 4;
        a.tunables[MD_T_SYNC_SPEED_MIN] = sys(1000);
        a.tunables[MD_T_SYNC_SPEED_MAX] = sys(10000);
        a.tunables[MD_T_SYNC_MIN] = num(0);
        a.tunables[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_MAX };
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(256);
        a.tunables[MD_T_STRIPE_CACHE_ACTIVE] = num(0);
        a.tunables[MD_T_GROUP_THREAD_CNT] = num(0);
        a.tunables[MD_T_READ_AHEAD_KB] = num(3072);
        return a;
}

static md_array raid1(void) {
        md_array a = raid5();

        a.level = MD_LEVEL_RAID1;
        a.raid_disks.value = a.raid_disks.old_value = 2;
        a.chunk_size = (md_newold){ .kind = MD_V_ABSENT };
        a.n_members = 2;
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = (md_tval){ .kind = MD_V_ABSENT };
        a.tunables[MD_T_STRIPE_CACHE_ACTIVE] = (md_tval){ .kind = MD_V_ABSENT };
        a.tunables[MD_T_GROUP_THREAD_CNT] = (md_tval){ .kind = MD_V_ABSENT };
        return a;
}

static const profile_settings settings = PROFILE_SETTINGS_DEFAULT;

static int plan_for(const md_array *a, profile p, const boost_options *o, uint64_t budget, plan *ret) {
        char errbuf[256];
        plan_input in = { .array = a, .settings = &settings, .budget_bytes = budget };

        return profile_plan(&in, p, o, ret, errbuf, sizeof(errbuf));
}

static const plan_item *item(const plan *p, md_tunable t) {
        for (unsigned i = 0; i < p->n; i++)
                if (p->items[i].tunable == t)
                        return &p->items[i];
        return NULL;
}

static void test_names(void **state) {
        (void)state;
        assert_int_equal(profile_from_string("fast"), PROFILE_FAST);
        assert_int_equal(profile_from_string("max"), PROFILE_MAX);
        assert_int_equal(profile_from_string("Fast"), _PROFILE_INVALID);
        assert_int_equal(profile_from_string(""), _PROFILE_INVALID);
        assert_string_equal(profile_to_string(PROFILE_MAX), "max");
        assert_null(profile_to_string(_PROFILE_MAX));
        assert_non_null(profile_description(PROFILE_FAST));
}

static void test_fast_raid5(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
        assert_int_equal(p.n, 3);
        /* The ceiling is lifted before the floor is raised above it. */
        assert_int_equal(p.items[0].tunable, MD_T_SYNC_SPEED_MAX);
        assert_string_equal(p.items[0].text, "200000");
        assert_int_equal(p.items[0].old.kind, MD_V_SYSTEM);
        assert_int_equal(p.items[0].old.value, 10000);
        assert_int_equal(p.items[1].tunable, MD_T_SYNC_SPEED_MIN);
        assert_string_equal(p.items[1].text, "50000");
        assert_int_equal(p.items[2].tunable, MD_T_STRIPE_CACHE_SIZE);
        assert_string_equal(p.items[2].text, "1024");
        assert_null(item(&p, MD_T_SYNC_MAX));
        assert_null(item(&p, MD_T_READ_AHEAD_KB));
}

static void test_fast_keeps_ceiling_above_floor(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        a.tunables[MD_T_SYNC_SPEED_MAX] = sys(200000);
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
        assert_null(item(&p, MD_T_SYNC_SPEED_MAX));
        assert_non_null(item(&p, MD_T_SYNC_SPEED_MIN));
}

static void test_raise_only(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        a.tunables[MD_T_SYNC_SPEED_MIN] = loc(80000);
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(500000);
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(8192);
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
        assert_int_equal(p.n, 0);

        /* max raises the floor to the (higher) ceiling already there. */
        assert_int_equal(plan_for(&a, PROFILE_MAX, &o, 512 * MiB, &p), 0);
        assert_non_null(item(&p, MD_T_SYNC_SPEED_MIN));
        assert_string_equal(item(&p, MD_T_SYNC_SPEED_MIN)->text, "500000");
        assert_null(item(&p, MD_T_SYNC_SPEED_MAX));
}

static void test_option_lowers_exact_value(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        a.tunables[MD_T_SYNC_SPEED_MIN] = loc(80000);
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(4096);
        a.tunables[MD_T_SYNC_SPEED_MAX] = loc(500000);
        o.set[MD_T_SYNC_SPEED_MIN] = true;
        o.value[MD_T_SYNC_SPEED_MIN] = 20000;
        o.set[MD_T_STRIPE_CACHE_SIZE] = true;
        o.value[MD_T_STRIPE_CACHE_SIZE] = 512;
        o.set[MD_T_READ_AHEAD_KB] = true;
        o.value[MD_T_READ_AHEAD_KB] = 1024;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
        assert_string_equal(item(&p, MD_T_SYNC_SPEED_MIN)->text, "20000");
        assert_string_equal(item(&p, MD_T_STRIPE_CACHE_SIZE)->text, "512");
        assert_string_equal(item(&p, MD_T_READ_AHEAD_KB)->text, "1024");
        assert_null(item(&p, MD_T_SYNC_SPEED_MAX));

        /* Asking for the value already in place writes nothing. */
        o.value[MD_T_READ_AHEAD_KB] = 3072;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
        assert_null(item(&p, MD_T_READ_AHEAD_KB));
}

static void test_max_budget(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        assert_int_equal(plan_for(&a, PROFILE_MAX, &o, 64 * MiB, &p), 0);
        /* 64 MiB / (4 members x 4 KiB) = 4096 stripes. */
        assert_string_equal(item(&p, MD_T_STRIPE_CACHE_SIZE)->text, "4096");
        assert_string_equal(item(&p, MD_T_SYNC_SPEED_MAX)->text, "200000");
        assert_string_equal(item(&p, MD_T_SYNC_SPEED_MIN)->text, "200000");

        /* A huge budget is still capped by the kernel's 32768. */
        assert_int_equal(plan_for(&a, PROFILE_MAX, &o, 64ull * 1024 * MiB, &p), 0);
        assert_string_equal(item(&p, MD_T_STRIPE_CACHE_SIZE)->text, "32768");

        /* No budget (MemTotal unknown): the stripe cache stays. */
        assert_int_equal(plan_for(&a, PROFILE_MAX, &o, 0, &p), 0);
        assert_null(item(&p, MD_T_STRIPE_CACHE_SIZE));

        /* fast never takes more than the budget either. */
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 8 * MiB, &p), 0);
        assert_string_equal(item(&p, MD_T_STRIPE_CACHE_SIZE)->text, "512");
}

static void test_option_over_budget(void **state) {
        md_array a = raid5();
        boost_options o = { .set[MD_T_STRIPE_CACHE_SIZE] = true, .value[MD_T_STRIPE_CACHE_SIZE] = 8192 };
        char errbuf[256] = "";
        plan_input in = { .array = &a, .settings = &settings, .budget_bytes = 64 * MiB };
        plan p = { .n = 77 };

        (void)state;
        assert_int_equal(profile_plan(&in, PROFILE_FAST, &o, &p, errbuf, sizeof(errbuf)), -ERANGE);
        assert_non_null(strstr(errbuf, "budget"));
        assert_int_equal(p.n, 77); /* untouched */

        o.value[MD_T_STRIPE_CACHE_SIZE] = 4096;
        assert_int_equal(profile_plan(&in, PROFILE_FAST, &o, &p, errbuf, sizeof(errbuf)), 0);
        assert_string_equal(item(&p, MD_T_STRIPE_CACHE_SIZE)->text, "4096");
}

static void test_bounds(void **state) {
        md_array a = raid5();
        boost_options o = { .set[MD_T_SYNC_SPEED_MIN] = true, .value[MD_T_SYNC_SPEED_MIN] = 1ull << 40 };
        plan p;

        (void)state;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 64 * MiB, &p), -ERANGE);
        o = (boost_options){ .set[MD_T_SYNC_SPEED_MAX] = true, .value[MD_T_SYNC_SPEED_MAX] = 20000 };
        /* The floor 50000 above an explicit ceiling is refused, not silently capped. */
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 64 * MiB, &p), -EINVAL);
}

static void test_raid1_has_no_stripe_cache(void **state) {
        md_array a = raid1();
        boost_options o = {};
        plan p;

        (void)state;
        assert_int_equal(plan_for(&a, PROFILE_MAX, &o, 512 * MiB, &p), 0);
        assert_null(item(&p, MD_T_STRIPE_CACHE_SIZE));
        assert_int_equal(p.n, 2);
        o.set[MD_T_STRIPE_CACHE_SIZE] = true;
        o.value[MD_T_STRIPE_CACHE_SIZE] = 1024;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), -EINVAL);
}

static void test_sync_max_set_to_max(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p;

        (void)state;
        a.tunables[MD_T_SYNC_MAX] = num(123456);
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 0, &p), 0);
        assert_non_null(item(&p, MD_T_SYNC_MAX));
        assert_string_equal(item(&p, MD_T_SYNC_MAX)->text, "max");
        assert_int_equal(item(&p, MD_T_SYNC_MAX)->old.value, 123456);
}

static int plan_mdadm(const md_array *a, int mdadm, plan *ret) {
        char errbuf[256];
        boost_options o = {};
        plan_input in = { .array = a, .settings = &settings, .budget_bytes = 0, .mdadm = mdadm };

        return profile_plan(&in, PROFILE_MAX, &o, ret, errbuf, sizeof(errbuf));
}

/* Each member moves its data offset, as mdadm grows into the room before the data. */
static void set_offsets(md_array *a, md_member *m, unsigned n, uint64_t offset, uint64_t new_offset) {
        for (unsigned i = 0; i < n; i++)
                m[i] = (md_member){ .slot = (int64_t)i,
                                    .role = MD_ROLE_IN_SYNC,
                                    .offset = num(offset),
                                    .new_offset = num(new_offset) };
        a->members = m;
        a->n_members = n;
}

/*
 * sync_max under a reshape is mdadm's backup window: held, with the reason
 * in the plan, whenever an mdadm may drive it or cannot be ruled out, when
 * the reshape rewrites stripes in place, on external metadata and while
 * frozen; lifted only for a reshape that moves the data offset with no
 * mdadm running, and outside reshapes.
 */
static void test_sync_max_under_mdadm_is_held(void **state) {
        md_member m[4];
        md_array a = raid5();
        plan p;

        (void)state;
        a.metadata = MD_METADATA_NATIVE;
        a.sync_action = MD_SYNC_RESHAPE;
        a.reshape_position = num(976896);
        a.tunables[MD_T_SYNC_MAX] = num(65536);
        set_offsets(&a, m, 4, 4096, 1024);

        for (int mdadm = -5; mdadm <= 1; mdadm += 6) {
                assert_int_equal(plan_mdadm(&a, mdadm, &p), 0);
                assert_null(item(&p, MD_T_SYNC_MAX));
                assert_int_equal(p.n_held, 1);
                assert_int_equal(p.held[0].tunable, MD_T_SYNC_MAX);
                assert_non_null(strstr(p.held[0].why, "sync_max stays at 65536"));
                assert_non_null(strstr(p.held[0].why, "mdadm may be driving it"));
                /* The rest of the boost goes ahead. */
                assert_non_null(item(&p, MD_T_SYNC_SPEED_MIN));
        }

        /* No mdadm, and the data offset moves: no backup, so it may go. */
        assert_int_equal(plan_mdadm(&a, 0, &p), 0);
        assert_non_null(item(&p, MD_T_SYNC_MAX));
        assert_int_equal(p.n_held, 0);

        /* No mdadm, but in place: the backup decides. */
        m[2].new_offset = num(4096);
        assert_int_equal(plan_mdadm(&a, 0, &p), 0);
        assert_null(item(&p, MD_T_SYNC_MAX));
        assert_int_equal(p.n_held, 1);
        assert_non_null(strstr(p.held[0].why, "mdadm --grow --continue /dev/md0 --backup-file=FILE"));
        m[2].new_offset = num(1024);

        /* Frozen with the position kept, or a position md keeps after a stop. */
        a.sync_action = MD_SYNC_FROZEN;
        assert_int_equal(plan_mdadm(&a, 1, &p), 0);
        assert_null(item(&p, MD_T_SYNC_MAX));
        a.sync_action = MD_SYNC_IDLE;
        assert_int_equal(plan_mdadm(&a, 1, &p), 0);
        assert_null(item(&p, MD_T_SYNC_MAX));
        /* An unreadable position counts as a reshape. */
        a.reshape_position = (md_tval){ .kind = MD_V_UNKNOWN };
        assert_int_equal(plan_mdadm(&a, 1, &p), 0);
        assert_int_equal(p.n_held, 1);

        /* External metadata: never, whatever runs. */
        a.reshape_position = (md_tval){ .kind = MD_V_NONE };
        a.sync_action = MD_SYNC_RESYNC;
        a.metadata = MD_METADATA_EXTERNAL;
        assert_int_equal(plan_mdadm(&a, 0, &p), 0);
        assert_null(item(&p, MD_T_SYNC_MAX));
        assert_non_null(strstr(p.held[0].why, "has external metadata"));
        /* Metadata that could not be read may be external: held, and said so. */
        a.metadata = _MD_METADATA_INVALID;
        assert_int_equal(plan_mdadm(&a, 0, &p), 0);
        assert_null(item(&p, MD_T_SYNC_MAX));
        assert_non_null(strstr(p.held[0].why, "metadata_version of md0 could not be read, so it may be external"));

        /* A resync held by an admin's number: lifted, mdadm or not. */
        a.metadata = MD_METADATA_NATIVE;
        assert_int_equal(plan_mdadm(&a, 1, &p), 0);
        assert_non_null(item(&p, MD_T_SYNC_MAX));
        assert_int_equal(p.n_held, 0);

        /* Nothing to hold when it reads max. */
        a.sync_action = MD_SYNC_RESHAPE;
        a.tunables[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_MAX };
        assert_int_equal(plan_mdadm(&a, 1, &p), 0);
        assert_int_equal(p.n_held, 0);
}

static void test_refused_levels_and_states(void **state) {
        md_array a = raid5();
        boost_options o = {};
        plan p = { .n = 9 };

        (void)state;
        a.level = MD_LEVEL_RAID0;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 0, &p), -EOPNOTSUPP);
        a.level = MD_LEVEL_LINEAR;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 0, &p), -EOPNOTSUPP);
        a = raid5();
        a.state = MD_ARRAY_INACTIVE;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 0, &p), -EOPNOTSUPP);
        a = raid5();
        assert_int_equal(plan_for(&a, _PROFILE_INVALID, &o, 0, &p), -EINVAL);
        a.tunables[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_UNKNOWN };
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 0, &p), -EIO);
        assert_int_equal(p.n, 9);
}

static void test_reshape_keeps_four_chunks(void **state) {
        md_array a = raid5();
        boost_options o = { .set[MD_T_STRIPE_CACHE_SIZE] = true, .value[MD_T_STRIPE_CACHE_SIZE] = 256 };
        plan p;

        (void)state;
        a.sync_action = MD_SYNC_RESHAPE;
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = num(1024);
        /* 512 KiB chunks: 4 x 512 KiB / 4 KiB = 512 stripes at least. */
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), -EINVAL);
        o.value[MD_T_STRIPE_CACHE_SIZE] = 512;
        assert_int_equal(plan_for(&a, PROFILE_FAST, &o, 512 * MiB, &p), 0);
}

static void test_cache_memory(void **state) {
        md_array a = raid5();

        (void)state;
        assert_int_equal(profile_stripe_cache_bytes(&a), 256 * 4096 * 4);
        a.raid_disks = (md_newold){ .kind = MD_V_NUMBER, .value = 5, .old_value = 4, .reshaping = true };
        assert_int_equal(profile_cache_members(&a), 5);
        a = raid1();
        assert_int_equal(profile_stripe_cache_bytes(&a), 0);
}

static void test_rules(void **state) {
        char buf[160];

        (void)state;
        assert_int_equal(profile_rule(PROFILE_FAST, &settings, MD_T_SYNC_SPEED_MIN, buf, sizeof(buf)), 0);
        assert_non_null(strstr(buf, "50000"));
        assert_non_null(strstr(buf, "80 %"));
        assert_int_equal(profile_rule(PROFILE_FAST, &settings, MD_T_SYNC_SPEED_MAX, buf, sizeof(buf)), 0);
        assert_non_null(strstr(buf, "users are busy"));
        assert_int_equal(profile_rule(PROFILE_FAST, &(profile_settings){ .ceiling = 200000, .fit_percent = 80 },
                                      MD_T_SYNC_SPEED_MAX, buf, sizeof(buf)),
                         0);
        assert_string_equal(buf, "at least 200000 KiB/s when below the floor");
        assert_int_equal(profile_rule(PROFILE_MAX, &settings, MD_T_SYNC_MAX, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "max");
        assert_int_equal(profile_rule(PROFILE_FAST, &settings, MD_T_READ_AHEAD_KB, buf, sizeof(buf)), -ENOENT);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_names),
                cmocka_unit_test(test_fast_raid5),
                cmocka_unit_test(test_fast_keeps_ceiling_above_floor),
                cmocka_unit_test(test_raise_only),
                cmocka_unit_test(test_option_lowers_exact_value),
                cmocka_unit_test(test_max_budget),
                cmocka_unit_test(test_option_over_budget),
                cmocka_unit_test(test_bounds),
                cmocka_unit_test(test_raid1_has_no_stripe_cache),
                cmocka_unit_test(test_sync_max_set_to_max),
                cmocka_unit_test(test_sync_max_under_mdadm_is_held),
                cmocka_unit_test(test_refused_levels_and_states),
                cmocka_unit_test(test_reshape_keeps_four_chunks),
                cmocka_unit_test(test_cache_memory),
                cmocka_unit_test(test_rules),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
