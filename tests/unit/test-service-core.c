/* SPDX-License-Identifier: MIT */
/*
 * The service's core without a bus: Boost and Restore (service.c) on copies
 * of the real snapshots, through the fake kernel (tests/fakekernel), which
 * turns each write into what Linux 6.1's md would then show. Every case
 * checks the kernel's files and the journal on disk, not only the reply.
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
#include <unistd.h>

#include <cmocka.h>

#include "errors.h"
#include "journal.h"
#include "md-fixture.h"
#include "service.h"

#define MD0 "sys/block/md0/md/"
#define UUID "7ac7b4d7-c925-6f89-525e-4caecab28aec"

/* The files a boost of 03-raid5-recovery's md0 may write. */
static const char *const md0_files[] = {
        MD0 "sync_speed_min",
        MD0 "sync_speed_max",
        MD0 "stripe_cache_size",
        MD0 "sync_max",
        "sys/block/md0/queue/read_ahead_kb",
};
#define N_FILES (sizeof(md0_files) / sizeof(md0_files[0]))

typedef struct svc {
        md_case md; /* first: md_case_setup_size allocates the whole */
        context c;
        char before[N_FILES][64]; /* the files as the snapshot has them */
} svc;

static void read_file(const svc *s, const char *rel, char *buf, size_t size) {
        assert_true(md_fixture_read(s->md.dir, rel, buf, size) >= 0);
}

static void assert_file(const svc *s, const char *rel, const char *want) {
        char buf[256];

        read_file(s, rel, buf, sizeof(buf));
        if (strcmp(buf, want) != 0)
                fail_msg("%s holds '%s', not '%s'", rel, buf, want);
}

/* Every file a boost may write reads as in the snapshot. */
static void assert_untouched(const svc *s) {
        for (size_t i = 0; i < N_FILES; i++)
                assert_file(s, md0_files[i], s->before[i]);
}

/* The journal as it is on disk now. */
static void load_journal(const svc *s, journal *ret) {
        journal_load_report report;

        assert_int_equal(journal_load(s->c.state_fd, ret, &report), 0);
        assert_false(report.corrupt);
        assert_int_equal(report.n_rejected, 0);
}

static int open_svc(void **state, const char *meminfo) {
        char path[PATH_MAX];
        svc *s;

        if (md_case_setup_size(state, "03-raid5-recovery", sizeof(svc)) < 0)
                return -1;
        s = *state;
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        if (meminfo && md_fixture_write(s->md.dir, "proc/meminfo", meminfo) < 0)
                return -1;
        snprintf(path, sizeof(path), "%s/state", s->md.dir);
        s->c = (context){ .root = s->md.root, .root_path = s->md.dir, .state_fd = -1, .cfg = CONFIG_DEFAULT };
        s->c.state_dir = strdup(path);
        if (!s->c.state_dir || journal_open_dir(path, &s->c.state_fd) < 0)
                return -1;
        s->c.journal = (journal){ .clean = true };
        for (size_t i = 0; i < N_FILES; i++)
                if (md_fixture_read(s->md.dir, md0_files[i], s->before[i], sizeof(s->before[i])) < 0)
                        return -1;
        return 0;
}

/* 8 GiB of memory: the budget (12 %) lets fast's stripe cache grow. */
static int setup(void **state) {
        return open_svc(state, "MemTotal:        8388608 kB\n");
}

/* 64 MiB: 12 % is 7.68 MiB, 491 stripes of 4 members' pages. */
static int setup_small(void **state) {
        return open_svc(state, "MemTotal:          65536 kB\n");
}

/* No proc/meminfo: no budget at all. */
static int setup_no_meminfo(void **state) {
        return open_svc(state, NULL);
}

static int teardown(void **state) {
        svc *s = *state;

        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        if (s) {
                journal_free(&s->c.journal);
                md_array_set_free(&s->c.arrays);
                free(s->c.watches);
                if (s->c.state_fd >= 0)
                        close(s->c.state_fd);
                free((char *)s->c.state_dir);
        }
        return md_case_teardown(state); /* closes the root the context shared */
}

static int boost(svc *s, const char *spec, const char *profile_name, const boost_options *o, op_result *res) {
        static const boost_options none;

        *res = (op_result){};
        return service_boost(&s->c, spec, profile_name, o ? o : &none, NULL, res);
}

/* Boost writes fast's values and saves the originals before it does. */
static void test_boost(void **state) {
        svc *s = *state;
        const journal_entry *e;
        op_result res;
        journal j;

        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        assert_string_equal(res.array, "md0");
        assert_true(res.n_changes >= 3);
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "200000 (local)\n");
        assert_file(s, MD0 "stripe_cache_size", "1024\n");
        load_journal(s, &j);
        assert_int_equal(j.n, 1);
        e = journal_find(&j, UUID);
        assert_non_null(e);
        assert_string_equal(e->profile, "fast");
        assert_int_equal(e->originals[MD_T_SYNC_SPEED_MIN].kind, MD_V_SYSTEM);
        assert_int_equal(e->originals[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_int_equal(e->written[MD_T_SYNC_SPEED_MIN].kind, MD_V_LOCAL);
        assert_int_equal(e->originals[MD_T_STRIPE_CACHE_SIZE].value, 256);
        assert_int_equal(e->fit, GOVERNOR_FITTING);
        journal_free(&j);
        /* The same array by its device path and its UUID. */
        assert_int_equal(boost(s, "/dev/md0", "max", NULL, &res), 0);
        assert_int_equal(boost(s, UUID, "fast", NULL, &res), 0);
}

/* Restore puts every original back as the kernel showed it, and forgets the boost. */
static void test_restore(void **state) {
        svc *s = *state;
        op_result res = {};
        journal j;

        assert_int_equal(boost(s, "md0", "max", NULL, &res), 0);
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_true(res.n_changes >= 3);
        assert_untouched(s);
        load_journal(s, &j);
        assert_int_equal(j.n, 0);
        journal_free(&j);
        /* Not boosted: refused by name, nothing written. */
        res = (op_result){};
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), -MDB_ENOTBOOSTED);
        assert_int_equal(res.n_changes, 0);
        assert_non_null(strstr(res.message, "md0 is not boosted"));
        assert_untouched(s);
}

/* A dry run says what it would write, and writes and journals nothing. */
static void test_dry_run(void **state) {
        boost_options o = { .dry_run = true };
        svc *s = *state;
        op_result res;
        journal j;

        assert_int_equal(boost(s, "md0", "fast", &o, &res), 0);
        assert_true(res.n_changes >= 3);
        assert_untouched(s);
        load_journal(s, &j);
        assert_int_equal(j.n, 0);
        journal_free(&j);
}

/* The kernel refuses the last write: everything this call wrote goes back, the journal forgets it. */
static void test_rollback(void **state) {
        boost_options dry = { .dry_run = true };
        char fail[128];
        svc *s = *state;
        op_result res;
        journal j;

        assert_int_equal(boost(s, "md0", "fast", &dry, &res), 0);
        assert_true(res.n_changes >= 2);
        snprintf(fail, sizeof(fail), "sys/block/md0/%s%s=EIO",
                 strcmp(res.changes[res.n_changes - 1].name, "read_ahead_kb") == 0 ? "queue/" : "md/",
                 res.changes[res.n_changes - 1].name);
        setenv("MDBOOST_FAKEKERNEL_FAIL", fail, 1);
        assert_int_equal(boost(s, "md0", "fast", NULL, &res), -EIO);
        assert_non_null(strstr(res.message, "every value this call had written was put back"));
        assert_untouched(s);
        load_journal(s, &j);
        assert_int_equal(j.n, 0);
        journal_free(&j);
}

/* md0 boosted with fast and read again: the array as the service sees it, and the boost's journal entry. */
static void boosted_fast(svc *s, const md_array **ret_a, journal_entry **ret_e) {
        op_result res;

        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        assert_int_equal(service_refresh(&s->c), 0);
        *ret_a = md_array_set_find(&s->c.arrays, "md0");
        *ret_e = journal_find(&s->c.journal, UUID);
        assert_non_null(*ret_a);
        assert_non_null(*ret_e);
}

/*
 * The governor's writes of one step are one: when the second fails, the
 * first is put back, the journal says so, and following ends; a stripe
 * cache md grew part way before it failed goes back too.
 */
static void test_govern_second_write_fails(void **state) {
        svc *s = *state;
        governor_decision d;
        const md_array *a;
        journal_entry *e;
        op_result res = {};
        journal j;

        boosted_fast(s, &a, &e);
        e->fit = GOVERNOR_FREE;
        d = (governor_decision){ .action = GOVERNOR_LEARN,
                                 .next = GOVERNOR_LEARNING,
                                 .value = { .kind = MD_V_LOCAL, .value = 1000 },
                                 .floor = { .kind = MD_V_LOCAL, .value = 1000 },
                                 .replaced = a->tunables[MD_T_SYNC_SPEED_MAX],
                                 .replaced_floor = a->tunables[MD_T_SYNC_SPEED_MIN],
                                 .lift = a->tunables[MD_T_SYNC_SPEED_MAX] };
        setenv("MDBOOST_FAKEKERNEL_FAIL", MD0 "sync_speed_max=EIO", 1);
        assert_true(service_govern(&s->c, a, e, &d));
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "200000 (local)\n");
        assert_int_equal(e->fit, GOVERNOR_DONE);
        assert_int_equal(e->written[MD_T_SYNC_SPEED_MIN].value, 50000);
        assert_int_equal(e->written[MD_T_SYNC_SPEED_MAX].value, 200000);
        assert_int_equal(e->lift_ceiling.kind, MD_V_ABSENT);
        load_journal(s, &j);
        assert_int_equal(j.entries[0].fit, GOVERNOR_DONE);
        assert_int_equal(j.entries[0].written[MD_T_SYNC_SPEED_MIN].value, 50000);
        journal_free(&j);
        /* Restore still finds everything the boost's own. */
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_untouched(s);

        /*
         * A step that grows the stripe cache when md runs out of memory half
         * way: the cache goes back with floor and ceiling too.
         */
        boosted_fast(s, &a, &e);
        assert_int_equal(e->cache_low, 1024);
        assert_file(s, MD0 "stripe_cache_size", "1024\n");
        e->fit = GOVERNOR_STEERING;
        d = (governor_decision){ .action = GOVERNOR_STEER,
                                 .next = GOVERNOR_STEERING,
                                 .value = { .kind = MD_V_LOCAL, .value = 3000 },
                                 .floor = { .kind = MD_V_LOCAL, .value = 3000 },
                                 .depth = { .kind = MD_V_ABSENT },
                                 .cache = { .kind = MD_V_NUMBER, .value = 4096 },
                                 .replaced = a->tunables[MD_T_SYNC_SPEED_MAX],
                                 .replaced_floor = a->tunables[MD_T_SYNC_SPEED_MIN],
                                 .replaced_cache = a->tunables[MD_T_STRIPE_CACHE_SIZE],
                                 .lift = a->tunables[MD_T_SYNC_SPEED_MAX] };
        setenv("MDBOOST_FAKEKERNEL_FAIL", MD0 "stripe_cache_size=ENOMEM", 1);
        assert_true(service_govern(&s->c, a, e, &d));
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        assert_file(s, MD0 "stripe_cache_size", "1024\n");
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "200000 (local)\n");
        assert_int_equal(e->fit, GOVERNOR_DONE);
        assert_int_equal(e->written[MD_T_STRIPE_CACHE_SIZE].value, 1024);
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_untouched(s);
}

/*
 * A new fast boost of an array whose governor fitted the floor and grew the
 * stripe cache: the cache stays, and the governor still brings it back to
 * the first boost's size; one that names stripe_cache_size leaves the cache
 * to the administrator.
 */
static void test_reboost_keeps_cache_low(void **state) {
        svc *s = *state;
        boost_options o = {};
        const md_array *a;
        journal_entry *e;
        op_result res;

        boosted_fast(s, &a, &e);
        assert_int_equal(e->cache_low, 1024);
        e->fit = GOVERNOR_STEERING;
        e->written[MD_T_SYNC_SPEED_MIN] = e->written[MD_T_SYNC_SPEED_MAX] =
                (md_tval){ .kind = MD_V_LOCAL, .value = 3000 };
        e->written[MD_T_STRIPE_CACHE_SIZE] = (md_tval){ .kind = MD_V_NUMBER, .value = 8192 };
        assert_int_equal(md_fixture_write(s->md.dir, MD0 "sync_speed_min", "3000 (local)\n"), 0);
        assert_int_equal(md_fixture_write(s->md.dir, MD0 "sync_speed_max", "3000 (local)\n"), 0);
        assert_int_equal(md_fixture_write(s->md.dir, MD0 "stripe_cache_size", "8192\n"), 0);
        assert_int_equal(service_refresh(&s->c), 0);
        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        e = journal_find(&s->c.journal, UUID);
        assert_non_null(e);
        assert_int_equal(e->fit, GOVERNOR_FITTING);
        assert_int_equal(e->cache_low, 1024);
        assert_file(s, MD0 "stripe_cache_size", "8192\n");
        o.set[MD_T_STRIPE_CACHE_SIZE] = true;
        o.value[MD_T_STRIPE_CACHE_SIZE] = 4096;
        assert_int_equal(service_refresh(&s->c), 0);
        assert_int_equal(boost(s, "md0", "fast", &o, &res), 0);
        e = journal_find(&s->c.journal, UUID);
        assert_non_null(e);
        assert_int_equal(e->cache_low, 0);
        assert_file(s, MD0 "stripe_cache_size", "4096\n");
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_untouched(s);
}

/* A decision that lacks a value for a tunable it writes writes nothing and ends the following. */
static void test_govern_without_value(void **state) {
        svc *s = *state;
        governor_decision d;
        const md_array *a;
        journal_entry *e;
        op_result res = {};

        boosted_fast(s, &a, &e);
        e->fit = GOVERNOR_FREE;
        d = (governor_decision){ .action = GOVERNOR_STEER,
                                 .next = GOVERNOR_STEERING,
                                 .value = { .kind = MD_V_LOCAL, .value = 3000 },
                                 .replaced = a->tunables[MD_T_SYNC_SPEED_MAX],
                                 .replaced_floor = a->tunables[MD_T_SYNC_SPEED_MIN] };
        assert_true(service_govern(&s->c, a, e, &d));
        assert_int_equal(e->fit, GOVERNOR_DONE);
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "200000 (local)\n");
        assert_int_equal(e->written[MD_T_SYNC_SPEED_MIN].value, 50000);
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_untouched(s);
}

/* A value put back cannot be written: the journal keeps its original for Restore to try again. */
static void test_rollback_keeps_original(void **state) {
        svc *s = *state;
        op_result res;
        journal j;

        /* sync_speed_min's first write works, its second (the rollback) fails; stripe_cache_size fails. */
        setenv("MDBOOST_FAKEKERNEL_FAIL", MD0 "sync_speed_min=EIO:1," MD0 "stripe_cache_size=EBUSY", 1);
        assert_true(boost(s, "md0", "fast", NULL, &res) < 0);
        if (!strstr(res.message, "could not put back sync_speed_min"))
                fail_msg("%s", res.message);
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "10000 (system)\n");
        load_journal(s, &j);
        assert_int_equal(j.n, 1);
        assert_int_equal(j.entries[0].originals[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_int_equal(j.entries[0].originals[MD_T_SYNC_SPEED_MAX].kind, MD_V_ABSENT);
        journal_free(&j);
        unsetenv("MDBOOST_FAKEKERNEL_FAIL");
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_untouched(s);
}

/* An administrator's change after the boost is left alone; the rest goes back. */
static void test_conflict(void **state) {
        svc *s = *state;
        op_result res;
        journal j;

        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        assert_int_equal(md_fixture_write(s->md.dir, MD0 "sync_speed_min", "30000 (local)\n"), 0);
        res = (op_result){};
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), -MDB_ECONFLICT);
        assert_non_null(strstr(res.message, "sync_speed_min"));
        /* What it was, and how to put it back. */
        assert_non_null(strstr(res.message, "before the boost it was '1000 (system)'"));
        assert_non_null(strstr(res.message, "echo system > /sys/block/md0/md/sync_speed_min"));
        assert_file(s, MD0 "sync_speed_min", "30000 (local)\n");
        assert_file(s, MD0 "sync_speed_max", "10000 (system)\n");
        assert_file(s, MD0 "stripe_cache_size", "256\n");
        load_journal(s, &j);
        assert_int_equal(j.n, 0);
        journal_free(&j);
}

/* An option writes its exact value, and a floor the caller chose is never fitted. */
static void test_options(void **state) {
        boost_options o = {};
        svc *s = *state;
        op_result res;

        o.set[MD_T_SYNC_SPEED_MIN] = true;
        o.value[MD_T_SYNC_SPEED_MIN] = 12345;
        o.set[MD_T_STRIPE_CACHE_SIZE] = true;
        o.value[MD_T_STRIPE_CACHE_SIZE] = 512;
        assert_int_equal(boost(s, "md0", "fast", &o, &res), 0);
        assert_file(s, MD0 "sync_speed_min", "12345 (local)\n");
        assert_file(s, MD0 "stripe_cache_size", "512\n");
        assert_int_equal(journal_find(&s->c.journal, UUID)->fit, GOVERNOR_OFF);
        /* A value the kernel refuses is refused before anything is written. */
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        o.value[MD_T_STRIPE_CACHE_SIZE] = 16;
        assert_true(boost(s, "md0", "fast", &o, &res) < 0);
        assert_true(res.message[0] != 0);
        assert_untouched(s);
}

/* The stripe cache grows only as far as the memory budget allows. */
static void test_budget(void **state) {
        boost_options o = {};
        svc *s = *state;
        op_result res;

        assert_int_equal(boost(s, "md0", "max", NULL, &res), 0);
        assert_file(s, MD0 "stripe_cache_size", "491\n");
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        /* An option above the budget is refused whole. */
        o.set[MD_T_STRIPE_CACHE_SIZE] = true;
        o.value[MD_T_STRIPE_CACHE_SIZE] = 4096;
        assert_int_equal(boost(s, "md0", "fast", &o, &res), -ERANGE);
        assert_non_null(strstr(res.message, "memory budget"));
        assert_untouched(s);
}

static void test_no_budget(void **state) {
        svc *s = *state;
        op_result res;

        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        assert_file(s, MD0 "stripe_cache_size", "256\n");
        assert_file(s, MD0 "sync_speed_min", "50000 (local)\n");
}

/* Linux 6.16+'s sync_io_depth: an option writes it, Restore puts "(system)" back byte for byte. */
static void test_sync_io_depth(void **state) {
        boost_options o = {};
        svc *s = *state;
        op_result res;

        o.set[MD_T_SYNC_IO_DEPTH] = true;
        o.value[MD_T_SYNC_IO_DEPTH] = 128;
        /* 6.1's md has none: the option is refused, nothing written. */
        assert_int_equal(boost(s, "md0", "fast", &o, &res), -EINVAL);
        assert_non_null(strstr(res.message, "sync_io_depth"));
        assert_untouched(s);
        /* As on 7.3. */
        assert_int_equal(md_fixture_write(s->md.dir, "proc/sys/dev/raid/sync_io_depth", "32\n"), 0);
        assert_int_equal(md_fixture_write(s->md.dir, MD0 "sync_io_depth", "32 (system)\n"), 0);
        assert_int_equal(boost(s, "md0", "fast", &o, &res), 0);
        assert_file(s, MD0 "sync_io_depth", "128 (local)\n");
        assert_int_equal(journal_find(&s->c.journal, UUID)->originals[MD_T_SYNC_IO_DEPTH].kind, MD_V_SYSTEM);
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_file(s, MD0 "sync_io_depth", "32 (system)\n");
        assert_untouched(s);
}

/* A limit an administrator set to 4294967295 reads "-1 (local)"; Restore writes that back. */
static void test_negative_limit(void **state) {
        svc *s = *state;
        op_result res;

        assert_int_equal(md_fixture_write(s->md.dir, MD0 "sync_speed_max", "-1 (local)\n"), 0);
        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        assert_file(s, MD0 "sync_speed_max", "200000 (local)\n");
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_file(s, MD0 "sync_speed_max", "-1 (local)\n");
}

/* What the service measured of a boost ends with it: Restore, then Boost, starts afresh. */
static void test_watch_starts_afresh(void **state) {
        svc *s = *state;
        boost_watch *w;
        op_result res;

        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        w = service_watch(&s->c, UUID);
        assert_non_null(w);
        w->retry_usec = UINT64_MAX; /* an automatic restore the kernel refused, retried later */
        w->missing_polls = 2;
        assert_int_equal(service_restore(&s->c, "md0", NULL, &res), 0);
        assert_int_equal(boost(s, "md0", "fast", NULL, &res), 0);
        w = service_find_watch(&s->c, UUID);
        assert_true(w == NULL || (w->retry_usec == 0 && w->missing_polls == 0));
}

/* Unknown arrays and profiles are refused with a sentence, and nothing is written. */
static void test_bad_input(void **state) {
        svc *s = *state;
        op_result res;
        journal j;

        assert_int_equal(boost(s, "md9", "fast", NULL, &res), -ENOENT);
        assert_non_null(strstr(res.message, "md9"));
        assert_int_equal(boost(s, "md0", "turbo", NULL, &res), -EINVAL);
        assert_non_null(strstr(res.message, "turbo"));
        assert_int_equal(boost(s, "../md0", "fast", NULL, &res), -ENOENT);
        assert_int_equal(service_restore(&s->c, "md9", NULL, &res), -ENOENT);
        assert_untouched(s);
        load_journal(s, &j);
        assert_int_equal(j.n, 0);
        journal_free(&j);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_boost, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore, setup, teardown),
                cmocka_unit_test_setup_teardown(test_dry_run, setup, teardown),
                cmocka_unit_test_setup_teardown(test_rollback, setup, teardown),
                cmocka_unit_test_setup_teardown(test_rollback_keeps_original, setup, teardown),
                cmocka_unit_test_setup_teardown(test_govern_without_value, setup, teardown),
                cmocka_unit_test_setup_teardown(test_reboost_keeps_cache_low, setup, teardown),
                cmocka_unit_test_setup_teardown(test_govern_second_write_fails, setup, teardown),
                cmocka_unit_test_setup_teardown(test_conflict, setup, teardown),
                cmocka_unit_test_setup_teardown(test_options, setup, teardown),
                cmocka_unit_test_setup_teardown(test_budget, setup_small, teardown),
                cmocka_unit_test_setup_teardown(test_no_budget, setup_no_meminfo, teardown),
                cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
                cmocka_unit_test_setup_teardown(test_sync_io_depth, setup, teardown),
                cmocka_unit_test_setup_teardown(test_negative_limit, setup, teardown),
                cmocka_unit_test_setup_teardown(test_watch_starts_afresh, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
