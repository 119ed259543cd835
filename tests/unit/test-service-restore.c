/* SPDX-License-Identifier: MIT */
/* Restore planning: originals back as the kernel wants them, admins' changes left alone. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "restore.h"

static const md_tval absent = { .kind = MD_V_ABSENT };

static md_tval tv(md_vkind k, uint64_t v) {
        return (md_tval){ .kind = k, .value = v };
}

static journal_entry boosted(void) {
        journal_entry e = { .uuid = "7ac7b4d7-c925-6f89-525e-4caecab28aec", .array = "md0", .profile = "fast" };

        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                e.originals[t] = e.written[t] = e.earlier[t] = absent;
        e.originals[MD_T_SYNC_SPEED_MIN] = tv(MD_V_SYSTEM, 1000);
        e.written[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 50000);
        e.originals[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 5000);
        e.written[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 200000);
        e.originals[MD_T_SYNC_MAX] = tv(MD_V_NUMBER, 8192);
        e.written[MD_T_SYNC_MAX] = tv(MD_V_MAX, 0);
        e.originals[MD_T_STRIPE_CACHE_SIZE] = tv(MD_V_NUMBER, 256);
        e.written[MD_T_STRIPE_CACHE_SIZE] = tv(MD_V_NUMBER, 1024);
        return e;
}

/* The values as the boost left them. */
static void as_boosted(const journal_entry *e, md_tval now[_MD_T_ARRAY_MAX]) {
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                now[t] = e->written[t].kind == MD_V_ABSENT ? tv(MD_V_NUMBER, 7) : e->written[t];
}

static const restore_write *write_of(const restore_plan *p, md_tunable t) {
        for (unsigned i = 0; i < p->n_writes; i++)
                if (p->writes[i].tunable == t)
                        return &p->writes[i];
        return NULL;
}

static int index_of(const restore_plan *p, md_tunable t) {
        for (unsigned i = 0; i < p->n_writes; i++)
                if (p->writes[i].tunable == t)
                        return (int)i;
        return -1;
}

static void test_all_restored(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_int_equal(p.n_writes, 4);
        /* "1000 (system)" goes back by writing "system", "5000 (local)" by writing "5000". */
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->text, "system");
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MAX)->text, "5000");
        assert_string_equal(write_of(&p, MD_T_SYNC_MAX)->text, "8192");
        assert_string_equal(write_of(&p, MD_T_STRIPE_CACHE_SIZE)->text, "256");
        assert_int_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->current.value, 50000);
        /* The floor comes down before the ceiling. */
        assert_true(index_of(&p, MD_T_SYNC_SPEED_MIN) < index_of(&p, MD_T_SYNC_SPEED_MAX));
        /* Tunables without an original are never touched. */
        assert_null(write_of(&p, MD_T_READ_AHEAD_KB));
}

static void test_max_restored(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        e.originals[MD_T_SYNC_MAX] = tv(MD_V_MAX, 0);
        e.written[MD_T_SYNC_MAX] = tv(MD_V_NUMBER, 100);
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_string_equal(write_of(&p, MD_T_SYNC_MAX)->text, "max");
}

/*
 * Once the operation is over the kernel has forgotten its window (sync_max
 * reads "max" again); the admin's number would hold the next one.
 */
static void test_sync_max_forgotten_once_idle(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, true, &p), 0);
        assert_null(write_of(&p, MD_T_SYNC_MAX));
        assert_int_equal(p.n_forgotten, 1);
        assert_int_equal(p.forgotten[0], MD_T_SYNC_MAX);
        assert_int_equal(p.n_conflicts, 0);
        assert_int_equal(p.n_writes, 3);
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->text, "system");
        assert_string_equal(write_of(&p, MD_T_STRIPE_CACHE_SIZE)->text, "256");

        /* "max" as the original is harmless to write back, idle or not. */
        e.originals[MD_T_SYNC_MAX] = tv(MD_V_MAX, 0);
        e.written[MD_T_SYNC_MAX] = tv(MD_V_NUMBER, 100);
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, true, &p), 0);
        assert_int_equal(p.n_forgotten, 0);
        assert_string_equal(write_of(&p, MD_T_SYNC_MAX)->text, "max");

        /* An admin's own change since the boost is still a conflict, not forgotten. */
        e = boosted();
        as_boosted(&e, now);
        now[MD_T_SYNC_MAX] = tv(MD_V_NUMBER, 4096);
        assert_int_equal(restore_plan_compute(&e, now, true, &p), 0);
        assert_int_equal(p.n_forgotten, 0);
        assert_int_equal(p.n_conflicts, 1);
        assert_int_equal(p.conflicts[0].tunable, MD_T_SYNC_MAX);
}

static void test_admin_change_is_a_conflict(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        as_boosted(&e, now);
        now[MD_T_STRIPE_CACHE_SIZE] = tv(MD_V_NUMBER, 2048); /* another number */
        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_SYSTEM, 50000);   /* same number, other mode */
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 2);
        assert_int_equal(p.n_writes, 2);
        assert_null(write_of(&p, MD_T_STRIPE_CACHE_SIZE));
        assert_null(write_of(&p, MD_T_SYNC_SPEED_MIN));
        for (unsigned i = 0; i < p.n_conflicts; i++) {
                if (p.conflicts[i].tunable == MD_T_STRIPE_CACHE_SIZE) {
                        assert_int_equal(p.conflicts[i].written.value, 1024);
                        assert_int_equal(p.conflicts[i].current.value, 2048);
                } else
                        assert_int_equal(p.conflicts[i].tunable, MD_T_SYNC_SPEED_MIN);
        }
}

/*
 * A fitted floor: the journal holds the new floor before the kernel does, so
 * after a crash the floor may read as either. Both are the boost's own.
 */
static void test_fitted_floor_is_the_boosts(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        e.earlier[MD_T_SYNC_SPEED_MIN] = e.written[MD_T_SYNC_SPEED_MIN];
        e.written[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 5652);
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_non_null(write_of(&p, MD_T_SYNC_SPEED_MIN));
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->text, "system");

        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 50000); /* the write never reached the kernel */
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->text, "system");

        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 20000); /* neither: an administrator's */
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 1);
        assert_null(write_of(&p, MD_T_SYNC_SPEED_MIN));
        assert_int_equal(p.conflicts[0].written.value, 5652);
}

/*
 * A paced rebuild: the governor writes floor and ceiling every poll within
 * the band the journal holds, without saving each value. Any value in the
 * band is the boost's own, either limit on its own (a crash between the two
 * writes); one outside it, or not local, is an administrator's.
 */
static void test_paced_limits_are_the_boosts(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        e.written[MD_T_SYNC_SPEED_MIN] = e.written[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 8000);
        e.pace_low = 2000;
        e.pace_high = 32000;
        as_boosted(&e, now);
        now[MD_T_SYNC_SPEED_MIN] = now[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 2000);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MIN)->text, "system");
        assert_string_equal(write_of(&p, MD_T_SYNC_SPEED_MAX)->text, "5000");

        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 32000);
        now[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 9100);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_int_equal(p.n_writes, 4);

        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_LOCAL, 32001); /* above the band */
        now[MD_T_SYNC_SPEED_MAX] = tv(MD_V_SYSTEM, 9100); /* the system's, not a local value */
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 2);
        assert_null(write_of(&p, MD_T_SYNC_SPEED_MIN));
        assert_null(write_of(&p, MD_T_SYNC_SPEED_MAX));

        /* The band is for floor and ceiling only. */
        now[MD_T_SYNC_SPEED_MIN] = now[MD_T_SYNC_SPEED_MAX] = tv(MD_V_LOCAL, 8000);
        now[MD_T_STRIPE_CACHE_SIZE] = tv(MD_V_NUMBER, 4000);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 1);
        assert_int_equal(p.conflicts[0].tunable, MD_T_STRIPE_CACHE_SIZE);
}

static void test_already_back_or_gone(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;

        (void)state;
        as_boosted(&e, now);
        now[MD_T_SYNC_SPEED_MIN] = tv(MD_V_SYSTEM, 1000); /* an admin put it back already */
        now[MD_T_STRIPE_CACHE_SIZE] = absent;             /* the level changed: no file */
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        assert_int_equal(p.n_conflicts, 0);
        assert_int_equal(p.n_writes, 2);
        assert_null(write_of(&p, MD_T_SYNC_SPEED_MIN));
        assert_null(write_of(&p, MD_T_STRIPE_CACHE_SIZE));
}

static void test_damaged_original(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p = { .n_writes = 3 };

        (void)state;
        as_boosted(&e, now);
        e.originals[MD_T_SYNC_SPEED_MIN] = tv(MD_V_NONE, 0);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), -EINVAL);
        assert_int_equal(p.n_writes, 3);
}

/* An original below what the running reshape needs waits; one at or above it, or none needed, is written. */
static void test_wait_below(void **state) {
        journal_entry e = boosted();
        md_tval now[_MD_T_ARRAY_MAX];
        restore_plan p;
        unsigned writes;

        (void)state;
        as_boosted(&e, now);
        assert_int_equal(restore_plan_compute(&e, now, false, &p), 0);
        writes = p.n_writes;
        restore_plan_wait_below(&p, &e, MD_T_STRIPE_CACHE_SIZE, 0);
        assert_int_equal(p.n_writes, writes);
        restore_plan_wait_below(&p, &e, MD_T_STRIPE_CACHE_SIZE, 256);
        assert_int_equal(p.n_writes, writes);
        assert_int_equal(p.n_waits, 0);

        restore_plan_wait_below(&p, &e, MD_T_STRIPE_CACHE_SIZE, 512);
        assert_int_equal(p.n_writes, writes - 1);
        assert_null(write_of(&p, MD_T_STRIPE_CACHE_SIZE));
        assert_int_equal(p.n_waits, 1);
        assert_int_equal(p.waits[0].tunable, MD_T_STRIPE_CACHE_SIZE);
        assert_int_equal(p.waits[0].need, 512);
        /* The others keep their order: the floor still comes down before the ceiling. */
        assert_true(index_of(&p, MD_T_SYNC_SPEED_MIN) < index_of(&p, MD_T_SYNC_SPEED_MAX));
        assert_non_null(write_of(&p, MD_T_SYNC_MAX));
}

/* What a reshape needs: four chunks of the larger chunk size, while it runs or is held. */
static void test_reshape_needs(void **state) {
        md_array a = { .sync_action = MD_SYNC_RESHAPE };

        (void)state;
        a.chunk_size = (md_newold){ .kind = MD_V_NUMBER, .value = 524288, .old_value = 65536 };
        a.reshape_position = (md_tval){ .kind = MD_V_NUMBER, .value = 976896 };
        assert_int_equal(profile_stripe_cache_reshape_min(&a), 512);
        a.chunk_size = (md_newold){ .kind = MD_V_NUMBER, .value = 65536, .old_value = 1048576 };
        assert_int_equal(profile_stripe_cache_reshape_min(&a), 1024);
        /* Frozen, or idle after an interruption: the reshape is still owed its stripes. */
        a.sync_action = MD_SYNC_FROZEN;
        assert_int_equal(profile_stripe_cache_reshape_min(&a), 1024);
        a.reshape_position = (md_tval){ .kind = MD_V_NONE };
        assert_int_equal(profile_stripe_cache_reshape_min(&a), 0);
        a.sync_action = MD_SYNC_RECOVER;
        assert_int_equal(profile_stripe_cache_reshape_min(&a), 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_all_restored),
                cmocka_unit_test(test_max_restored),
                cmocka_unit_test(test_sync_max_forgotten_once_idle),
                cmocka_unit_test(test_admin_change_is_a_conflict),
                cmocka_unit_test(test_fitted_floor_is_the_boosts),
                cmocka_unit_test(test_paced_limits_are_the_boosts),
                cmocka_unit_test(test_already_back_or_gone),
                cmocka_unit_test(test_damaged_original),
                cmocka_unit_test(test_wait_below),
                cmocka_unit_test(test_reshape_needs),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
