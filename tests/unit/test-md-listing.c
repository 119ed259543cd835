/* SPDX-License-Identifier: MIT */
/*
 * The md/ listing: a read it informs must answer exactly as the plain reader
 * would, for every kind of entry a hostile tree can hold, and it must find
 * the member folders.
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

#include "internal.h"
#include "md-fixture.h"

typedef md_case ctx;

static md_root array = MD_ROOT_NULL; /* sys/block/md0 of the case's tree */

static int setup(void **state) {
        ctx *c;

        if (md_case_setup(state, NULL) < 0)
                return -1;
        c = *state;
        if (md_fixture_mkdir(c->dir, "sys/block/md0/md") < 0 || md_root_open_at(&c->root, "sys/block/md0", &array) < 0)
                return -1;
        return 0;
}

static int teardown(void **state) {
        md_root_close(&array);
        return md_case_teardown(state);
}

static void put(const ctx *c, const char *rel, const char *content) {
        char path[256];

        snprintf(path, sizeof(path), "sys/block/md0/md/%s", rel);
        assert_int_equal(md_fixture_write(c->dir, path, content), 0);
}

static void link_to(const ctx *c, const char *rel, const char *target) {
        char path[256];

        snprintf(path, sizeof(path), "sys/block/md0/md/%s", rel);
        assert_int_equal(md_fixture_symlink(c->dir, path, target), 0);
}

/* Reads @rel both ways and checks that the listing changes nothing, text included. */
static void same_as_plain(ctx *c, const md_listing *l, const char *rel, ssize_t want) {
        char plain[MD_ATTR_MAX], listed[MD_ATTR_MAX], path[256];
        ssize_t n;

        snprintf(path, sizeof(path), "sys/block/md0/md/%s", rel);
        strcpy(plain, "sentinel");
        strcpy(listed, "sentinel");
        n = md_root_read(&c->root, path, plain, sizeof(plain));
        assert_int_equal(n, want);
        assert_int_equal(md_listing_read(l, rel, listed, sizeof(listed)), want);
        if (want >= 0)
                assert_string_equal(listed, plain);
        else if (want != -EFBIG) /* a full buffer is how a long file is recognised */
                assert_string_equal(listed, "sentinel");
}

/* The list is searched by bisection: every name the model reads must be found in it. */
static void test_knows_every_attribute(void **state) {
        static const char *const read_by_array[] = {
                "level",          "array_state", "uuid",         "component_size",   "raid_disks",
                "chunk_size",     "degraded",    "bitmap",       "sync_action",      "last_sync_action",
                "sync_completed", "sync_speed",  "mismatch_cnt", "reshape_position",
        };

        (void)state;
        for (size_t i = 0; i < sizeof(read_by_array) / sizeof(read_by_array[0]); i++)
                assert_true(md_listing_knows(read_by_array[i]));
        for (int t = 0; t < _MD_T_ARRAY_MAX; t++) {
                const char *path = md_tunable_get((md_tunable)t)->path;

                if (strncmp(path, "md/", 3) == 0)
                        assert_true(md_listing_knows(path + 3));
        }
        assert_false(md_listing_knows("dev-vda"));
        assert_false(md_listing_knows("rd0"));
        assert_false(md_listing_knows(""));
        assert_false(md_listing_knows(NULL));
}

static void test_reads_like_plain_reader(void **state) {
        char big[MD_ATTR_MAX + 10];
        ctx *c = *state;
        md_listing l;

        put(c, "level", "raid5\n");
        put(c, "array_state", ""); /* empty but regular */
        memset(big, '7', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        put(c, "sync_speed", big); /* longer than an attribute */
        put(c, "elsewhere", "4\n");
        link_to(c, "degraded", "elsewhere"); /* symlink to a file: followed */
        link_to(c, "uuid", "uuid");          /* symlink loop */
        /* A device, through a link that stays inside the array's folder. */
        assert_int_equal(md_fixture_device(c->dir, "sys/block/md0/md/null-device", 1, 3), 0);
        link_to(c, "mismatch_cnt", "null-device");
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/sync_action"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/chunk_size"), 0);
        put(c, "bitmap/location", "+8\n");
        put(c, "stripe_cache_size", "256\n");

        assert_int_equal(md_listing_open(&array, &c->a, &l), 0);
        assert_true(l.listed);
        same_as_plain(c, &l, "level", 6);
        same_as_plain(c, &l, "array_state", 0);
        same_as_plain(c, &l, "sync_speed", -EFBIG);
        same_as_plain(c, &l, "degraded", 2);
        same_as_plain(c, &l, "uuid", -ELOOP);
        same_as_plain(c, &l, "mismatch_cnt", -EINVAL);
        same_as_plain(c, &l, "sync_action", -EINVAL);
        same_as_plain(c, &l, "chunk_size", -EISDIR);
        same_as_plain(c, &l, "bitmap/location", 3);
        same_as_plain(c, &l, "stripe_cache_size", 4);
        /* Absent: known from the listing, and below an absent folder too. */
        same_as_plain(c, &l, "sync_completed", -ENOENT);
        same_as_plain(c, &l, "reshape_position/x", -ENOENT);
        /* A name the listing does not record goes to the plain reader. */
        same_as_plain(c, &l, "elsewhere", 2);
        assert_int_equal(md_listing_is_dir(&l, "bitmap"), 1);
        assert_int_equal(md_listing_is_dir(&l, "chunk_size"), 1);
        assert_int_equal(md_listing_is_dir(&l, "level"), 0);
        assert_int_equal(md_listing_is_dir(&l, "sync_min"), 0);
        md_listing_close(&l);
        assert_int_equal(l.md.fd, -1);
}

/* Swapped after the listing: still refused, and a FIFO still never waits. */
static void test_swapped_after_listing(void **state) {
        char buf[64];
        ctx *c = *state;
        md_listing l;

        put(c, "level", "raid1\n");
        put(c, "sync_action", "idle\n");
        put(c, "degraded", "0\n");
        assert_int_equal(md_listing_open(&array, &c->a, &l), 0);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/level"), 0);
        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/level"), 0);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/sync_action"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/sync_action"), 0);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/degraded"), 0);

        strcpy(buf, "sentinel");
        assert_int_equal(md_listing_read(&l, "level", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_listing_read(&l, "sync_action", buf, sizeof(buf)), -EISDIR);
        assert_int_equal(md_listing_read(&l, "degraded", buf, sizeof(buf)), -ENOENT);
        assert_string_equal(buf, "sentinel");
        md_listing_close(&l);
}

static void test_members(void **state) {
        char name[64];
        ctx *c = *state;
        md_listing l;

        put(c, "dev-vdb/state", "in_sync\n");
        put(c, "dev-vda/state", "in_sync\n");
        link_to(c, "rd0", "dev-vda");
        put(c, "level", "raid1\n");
        snprintf(name, sizeof(name), "dev-%040d/state", 0); /* longer than any kernel name */
        put(c, name, "in_sync\n");
        c->a.n_members = 9; /* left from an earlier read */

        assert_int_equal(md_listing_open(&array, &c->a, &l), 0);
        assert_int_equal(c->a.n_members, 2);
        assert_true(strcmp(c->a.members[0].name, "vda") == 0 || strcmp(c->a.members[1].name, "vda") == 0);
        assert_true(strcmp(c->a.members[0].name, "vdb") == 0 || strcmp(c->a.members[1].name, "vdb") == 0);
        assert_int_equal(c->a.bad, UINT64_C(1) << MD_ATTR_MEMBERS);
        md_listing_close(&l);
}

static void test_not_an_array(void **state) {
        md_listing l = { .md = { .fd = 12345 } };
        md_root other;
        ctx *c = *state;

        assert_int_equal(md_fixture_write(c->dir, "sys/block/md1/md", "a file\n"), 0);
        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md2"), 0);
        assert_int_equal(md_root_open_at(&c->root, "sys/block/md1", &other), 0);
        assert_int_equal(md_listing_open(&other, &c->a, &l), -ENOENT);
        md_root_close(&other);
        assert_int_equal(md_root_open_at(&c->root, "sys/block/md2", &other), 0);
        assert_int_equal(md_listing_open(&other, &c->a, &l), -ENOENT);
        md_root_close(&other);
        assert_int_equal(l.md.fd, 12345);
        assert_int_equal(md_listing_open(NULL, &c->a, &l), -EINVAL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_knows_every_attribute),
                cmocka_unit_test_setup_teardown(test_reads_like_plain_reader, setup, teardown),
                cmocka_unit_test_setup_teardown(test_swapped_after_listing, setup, teardown),
                cmocka_unit_test_setup_teardown(test_members, setup, teardown),
                cmocka_unit_test_setup_teardown(test_not_an_array, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
