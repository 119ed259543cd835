/* SPDX-License-Identifier: MIT */
/* The pure parsers against every format in the kernel's md show methods. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parse.h"

#define S(str) (str), strlen(str)

static void test_u64(void **state) {
        uint64_t v = 7;

        (void)state;
        assert_int_equal(md_parse_u64(S("0"), &v), 0);
        assert_int_equal(v, 0);
        assert_int_equal(md_parse_u64(S("256\n"), &v), 0);
        assert_int_equal(v, 256);
        assert_int_equal(md_parse_u64(S("18446744073709551615\n"), &v), 0);
        assert_true(v == UINT64_MAX);
        /* Not NUL-terminated: only len bytes count. */
        assert_int_equal(md_parse_u64("12345", 3, &v), 0);
        assert_int_equal(v, 123);
}

static void test_u64_rejects(void **state) {
        static const char *const bad[] = {
                "", "\n", "-1", "+1", " 1", "1 ", "1\n\n", "0x10", "12a", "1.5", "abc", "1\n2",
        };
        uint64_t v = 4242;

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                assert_int_equal(md_parse_u64(S(bad[i]), &v), -EINVAL);
                assert_int_equal(v, 4242);
        }
        assert_int_equal(md_parse_u64(S("18446744073709551616"), &v), -ERANGE);
        assert_int_equal(md_parse_u64(S("99999999999999999999999\n"), &v), -ERANGE);
        assert_int_equal(v, 4242);
        /* An embedded NUL is garbage, not an end of string. */
        assert_int_equal(md_parse_u64("12\0003", 4, &v), -EINVAL);
        assert_int_equal(md_parse_u64(NULL, 0, &v), -EINVAL);
}

static void test_level(void **state) {
        static const struct {
                const char *text;
                md_level level;
        } cases[] = {
                { "raid0\n", MD_LEVEL_RAID0 },
                { "raid1\n", MD_LEVEL_RAID1 },
                { "raid4\n", MD_LEVEL_RAID4 },
                { "raid5\n", MD_LEVEL_RAID5 },
                { "raid6\n", MD_LEVEL_RAID6 },
                { "raid10\n", MD_LEVEL_RAID10 },
                { "linear\n", MD_LEVEL_LINEAR },
                { "multipath\n", MD_LEVEL_MULTIPATH },
                { "faulty\n", MD_LEVEL_FAULTY },
                { "container\n", MD_LEVEL_CONTAINER },
                { "\n", MD_LEVEL_NONE },
                { "", MD_LEVEL_NONE },
                /* No personality attached yet: level_show prints mddev->level. */
                { "5\n", MD_LEVEL_RAID5 },
                { "-1\n", MD_LEVEL_LINEAR },
                { "10\n", MD_LEVEL_RAID10 },
        };
        md_level l;

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                l = _MD_LEVEL_INVALID;
                assert_int_equal(md_parse_level(S(cases[i].text), &l), 0);
                assert_int_equal(l, cases[i].level);
        }
        l = MD_LEVEL_RAID6;
        assert_int_equal(md_parse_level(S("raid7\n"), &l), -EINVAL);
        assert_int_equal(md_parse_level(S("RAID1\n"), &l), -EINVAL);
        assert_int_equal(md_parse_level(S("raid1 \n"), &l), -EINVAL);
        assert_int_equal(md_parse_level(S("3\n"), &l), -EINVAL);
        assert_int_equal(l, MD_LEVEL_RAID6);
        assert_string_equal(md_level_to_string(MD_LEVEL_RAID10), "raid10");
        assert_string_equal(md_level_to_string(MD_LEVEL_NONE), "");
        assert_null(md_level_to_string(_MD_LEVEL_INVALID));
        assert_null(md_level_to_string(_MD_LEVEL_MAX));
}

static void test_array_state(void **state) {
        md_array_state s = _MD_ARRAY_STATE_INVALID;

        (void)state;
        for (int i = 0; i < _MD_ARRAY_STATE_MAX; i++) {
                char buf[32];

                snprintf(buf, sizeof(buf), "%s\n", md_array_state_to_string((md_array_state)i));
                assert_int_equal(md_parse_array_state(S(buf), &s), 0);
                assert_int_equal(s, i);
        }
        assert_int_equal(md_parse_array_state(S("read-auto\n"), &s), 0);
        assert_int_equal(s, MD_ARRAY_READ_AUTO);
        assert_int_equal(md_parse_array_state(S("active-idle"), &s), 0);
        assert_int_equal(s, MD_ARRAY_ACTIVE_IDLE);
        assert_int_equal(md_parse_array_state(S("read_auto\n"), &s), -EINVAL);
        assert_int_equal(md_parse_array_state(S("\n"), &s), -EINVAL);
        assert_int_equal(md_parse_array_state(S("cleanx"), &s), -EINVAL);
        assert_int_equal(s, MD_ARRAY_ACTIVE_IDLE);
        assert_null(md_array_state_to_string(_MD_ARRAY_STATE_MAX));
}

static void test_metadata(void **state) {
        md_metadata m;

        (void)state;
        assert_int_equal(md_parse_metadata(S("1.2\n"), &m), 0);
        assert_int_equal(m, MD_METADATA_NATIVE);
        assert_int_equal(md_parse_metadata(S("0.90\n"), &m), 0);
        assert_int_equal(m, MD_METADATA_NATIVE);
        assert_int_equal(md_parse_metadata(S("none\n"), &m), 0);
        assert_int_equal(m, MD_METADATA_NONE);
        assert_int_equal(md_parse_metadata(S("external:imsm\n"), &m), 0);
        assert_int_equal(m, MD_METADATA_EXTERNAL);
        assert_int_equal(md_parse_metadata(S("external:/md127/0"), &m), 0);
        assert_int_equal(m, MD_METADATA_EXTERNAL);
        m = MD_METADATA_NONE;
        assert_int_equal(md_parse_metadata(S("external:\n"), &m), -EINVAL);
        assert_int_equal(md_parse_metadata(S("1.\n"), &m), -EINVAL);
        assert_int_equal(md_parse_metadata(S(".2\n"), &m), -EINVAL);
        assert_int_equal(md_parse_metadata(S("1.2x\n"), &m), -EINVAL);
        assert_int_equal(md_parse_metadata(S(""), &m), -EINVAL);
        assert_int_equal(m, MD_METADATA_NONE);
}

static void test_sync_action(void **state) {
        static const struct {
                const char *text;
                md_sync_action a;
        } cases[] = {
                { "idle\n", MD_SYNC_IDLE },
                { "resync\n", MD_SYNC_RESYNC },
                { "recover\n", MD_SYNC_RECOVER },
                { "check\n", MD_SYNC_CHECK },
                { "repair\n", MD_SYNC_REPAIR },
                { "reshape\n", MD_SYNC_RESHAPE },
                { "frozen\n", MD_SYNC_FROZEN },
                /* last_sync_action's own words. */
                { "recovery\n", MD_SYNC_RECOVER },
                { "none\n", MD_SYNC_IDLE },
        };
        md_sync_action a;

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                a = _MD_SYNC_ACTION_INVALID;
                assert_int_equal(md_parse_sync_action(S(cases[i].text), &a), 0);
                assert_int_equal(a, cases[i].a);
        }
        a = MD_SYNC_CHECK;
        assert_int_equal(md_parse_sync_action(S("rebuild\n"), &a), -EINVAL);
        assert_int_equal(md_parse_sync_action(S(""), &a), -EINVAL);
        assert_int_equal(a, MD_SYNC_CHECK);
        assert_string_equal(md_sync_action_to_string(MD_SYNC_RECOVER), "recover");
        assert_null(md_sync_action_to_string(_MD_SYNC_ACTION_INVALID));
}

static void test_member_state(void **state) {
        unsigned f = 0xdead;

        (void)state;
        assert_int_equal(md_parse_member_state(S("in_sync\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_IN_SYNC);
        assert_int_equal(md_parse_member_state(S("spare\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_SPARE);
        assert_int_equal(md_parse_member_state(S("faulty,write_error\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_FAULTY | MD_MEMBER_WRITE_ERROR);
        assert_int_equal(md_parse_member_state(S("in_sync,write_mostly,want_replacement\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_IN_SYNC | MD_MEMBER_WRITE_MOSTLY | MD_MEMBER_WANT_REPLACEMENT);
        assert_int_equal(md_parse_member_state(S("spare,replacement\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_SPARE | MD_MEMBER_REPLACEMENT);
        assert_int_equal(md_parse_member_state(S("journal,blocked,failfast,external_bbl\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_JOURNAL | MD_MEMBER_BLOCKED | MD_MEMBER_FAILFAST | MD_MEMBER_EXTERNAL_BBL);
        /* A word from a newer kernel is kept as "other", not an error. */
        assert_int_equal(md_parse_member_state(S("in_sync,sparkly\n"), &f), 0);
        assert_int_equal(f, MD_MEMBER_IN_SYNC | MD_MEMBER_OTHER);
        assert_int_equal(md_parse_member_state(S("\n"), &f), 0);
        assert_int_equal(f, 0);

        f = 0xbeef;
        assert_int_equal(md_parse_member_state(S("in_sync,\n"), &f), -EINVAL);
        assert_int_equal(md_parse_member_state(S(",in_sync"), &f), -EINVAL);
        assert_int_equal(md_parse_member_state(S("in_sync,,spare"), &f), -EINVAL);
        assert_int_equal(md_parse_member_state(S("in sync"), &f), -EINVAL);
        assert_int_equal(md_parse_member_state(S("IN_SYNC"), &f), -EINVAL);
        assert_int_equal(md_parse_member_state(S("\x01\x02"), &f), -EINVAL);
        assert_int_equal(f, 0xbeef);
}

static void test_tval(void **state) {
        md_tval v;

        (void)state;
        assert_int_equal(md_parse_tval(S("1000 (system)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 1000);
        assert_int_equal(md_parse_tval(S("50000 (local)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(v.value, 50000);
        assert_int_equal(md_parse_tval(S("0 (system)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, 0);
        assert_int_equal(md_parse_tval(S("max\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_MAX);
        assert_int_equal(md_parse_tval(S("none\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_NONE);
        assert_int_equal(md_parse_tval(S("256\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 256);
}

static void test_tval_rejects(void **state) {
        static const char *const bad[] = {
                "",
                "\n",
                "(system)",
                " (system)",
                "1000 (System)",
                "1000 (sys)",
                "1000(local)",
                "1000  (local)",
                "-5",
                "- 5 (local)",
                "--5 (local)",
                "maximum",
                "none ",
                "1000 (local) ",
                "x (local)",
                "1000 (local)\n\n",
        };
        md_tval v = { .kind = MD_V_LOCAL, .value = 31337 };

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                assert_int_equal(md_parse_tval(S(bad[i]), &v), -EINVAL);
                assert_int_equal(v.kind, MD_V_LOCAL);
                assert_int_equal(v.value, 31337);
        }
        assert_int_equal(md_parse_tval(S("18446744073709551616 (local)\n"), &v), -ERANGE);
        assert_int_equal(md_parse_tval(S("18446744073709551616\n"), &v), -ERANGE);
        assert_int_equal(v.value, 31337);
}

/*
 * md prints the "(system|local)" values with %d after storing an unsigned
 * int: 4294967295 written to sync_speed_max (or sync_io_depth) reads back
 * "-1 (local)" on 6.1, 6.12 and 7.3. It is kept as that unsigned value,
 * which formats back to md's text and, written, restores it.
 */
static void test_tval_negative(void **state) {
        char text[64];
        md_tval v;

        (void)state;
        assert_int_equal(md_parse_tval(S("-1 (local)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_LOCAL);
        assert_int_equal(v.value, UINT64_C(4294967295));
        assert_int_equal(md_tval_format(&v, text, sizeof(text)), 0);
        assert_string_equal(text, "-1 (local)");
        assert_int_equal(md_parse_tval(S("-2147483648 (system)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_SYSTEM);
        assert_int_equal(v.value, UINT64_C(2147483648));
        assert_int_equal(md_tval_format(&v, text, sizeof(text)), 0);
        assert_string_equal(text, "-2147483648 (system)");
        /* Beyond an int, or minus zero: no value md prints. */
        assert_int_equal(md_parse_tval(S("-2147483649 (local)\n"), &v), -ERANGE);
        assert_int_equal(md_parse_tval(S("-0 (local)\n"), &v), -ERANGE);
        /* A positive int still formats as itself. */
        v = (md_tval){ .kind = MD_V_LOCAL, .value = 2147483647 };
        assert_int_equal(md_tval_format(&v, text, sizeof(text)), 0);
        assert_string_equal(text, "2147483647 (local)");
}

/* md's choice lists: the word in brackets is the current one. */
static void test_choice(void **state) {
        char w[16] = "untouched";

        (void)state;
        assert_int_equal(md_parse_choice(S("[none] bitmap \n"), w, sizeof(w)), 0);
        assert_string_equal(w, "none");
        assert_int_equal(md_parse_choice(S("none bitmap [llbitmap]\n"), w, sizeof(w)), 0);
        assert_string_equal(w, "llbitmap");
        assert_int_equal(md_parse_choice(S("none [bitmap] llbitmap"), w, sizeof(w)), 0);
        assert_string_equal(w, "bitmap");
        snprintf(w, sizeof(w), "untouched");
        assert_int_equal(md_parse_choice(S("none bitmap\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[none] [bitmap]\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[] bitmap\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[none bitmap\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("none] bitmap\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[no ne]\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[none]\n\n"), w, sizeof(w)), -EINVAL);
        assert_int_equal(md_parse_choice(S("[averyveryverylongword]"), w, sizeof(w)), -ENOBUFS);
        assert_string_equal(w, "untouched");
}

static void test_newold(void **state) {
        md_newold v;

        (void)state;
        assert_int_equal(md_parse_newold(S("4\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 4);
        assert_int_equal(v.old_value, 4);
        assert_false(v.reshaping);

        /* 09-raid6-reshape: grown from 4 to 5 members. */
        assert_int_equal(md_parse_newold(S("5 (4)\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_NUMBER);
        assert_int_equal(v.value, 5);
        assert_int_equal(v.old_value, 4);
        assert_true(v.reshaping);

        assert_int_equal(md_parse_newold(S("524288 (65536)\n"), &v), 0);
        assert_int_equal(v.value, 524288);
        assert_int_equal(v.old_value, 65536);

        /* raid_disks_show prints nothing while an array is being assembled. */
        assert_int_equal(md_parse_newold(S(""), &v), 0);
        assert_int_equal(v.kind, MD_V_NONE);
        assert_false(v.reshaping);
        assert_int_equal(md_parse_newold(S("\n"), &v), 0);
        assert_int_equal(v.kind, MD_V_NONE);
}

static void test_newold_rejects(void **state) {
        static const char *const bad[] = {
                "5 (4", "5 4)", "5 ()", "(4)", "5 (4) ", "5  (4)", "5 (x)", "x (4)", "5 (4)(3)", "-1",
        };
        md_newold v = { .kind = MD_V_LOCAL, .value = 99, .old_value = 98, .reshaping = true };

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                assert_int_equal(md_parse_newold(S(bad[i]), &v), -EINVAL);
                assert_int_equal(v.kind, MD_V_LOCAL);
                assert_int_equal(v.value, 99);
                assert_int_equal(v.old_value, 98);
        }
        assert_int_equal(md_parse_newold(S("18446744073709551616 (4)\n"), &v), -ERANGE);
        assert_int_equal(md_parse_newold(S("4 (18446744073709551616)\n"), &v), -ERANGE);
        assert_int_equal(v.value, 99);
}

static void test_progress(void **state) {
        md_progress p;

        (void)state;
        assert_int_equal(md_parse_progress(S("261648 / 2093056\n"), &p), 0);
        assert_int_equal(p.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(p.done, 261648);
        assert_int_equal(p.total, 2093056);
        assert_int_equal(md_parse_progress(S("none\n"), &p), 0);
        assert_int_equal(p.kind, MD_PROGRESS_NONE);
        assert_int_equal(md_parse_progress(S("delayed\n"), &p), 0);
        assert_int_equal(p.kind, MD_PROGRESS_DELAYED);
        assert_int_equal(md_parse_progress(S("0 / 0\n"), &p), 0);
        assert_int_equal(p.kind, MD_PROGRESS_RUNNING);
        assert_int_equal(md_parse_progress(S("2093056 / 2093056"), &p), 0);
        assert_int_equal(p.done, 2093056);
}

static void test_progress_rejects(void **state) {
        static const char *const bad[] = {
                "",
                "\n",
                "261648/2093056",
                "261648 /2093056",
                "261648 / ",
                " / 2093056",
                "261648 / 2093056 / 1",
                "a / b",
                "2093057 / 2093056",
                "Delayed",
                "none\n\n",
        };
        md_progress p = { .kind = MD_PROGRESS_UNKNOWN, .done = 5, .total = 6 };

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                assert_int_equal(md_parse_progress(S(bad[i]), &p), -EINVAL);
                assert_int_equal(p.kind, MD_PROGRESS_UNKNOWN);
                assert_int_equal(p.done, 5);
                assert_int_equal(p.total, 6);
        }
        assert_int_equal(md_parse_progress(S("1 / 18446744073709551616\n"), &p), -ERANGE);
        assert_int_equal(p.total, 6);
}

static void test_uuid(void **state) {
        char u[37];

        (void)state;
        assert_int_equal(md_parse_uuid(S("7ac7b4d7-c925-6f89-525e-4caecab28aec\n"), u), 0);
        assert_string_equal(u, "7ac7b4d7-c925-6f89-525e-4caecab28aec");
        assert_int_equal(md_parse_uuid(S("7AC7B4D7-C925-6F89-525E-4CAECAB28AEC"), u), 0);
        assert_string_equal(u, "7ac7b4d7-c925-6f89-525e-4caecab28aec");

        memcpy(u, "sentinel", 9);
        assert_int_equal(md_parse_uuid(S("7ac7b4d7:c9256f89:525e4cae:cab28aec\n"), u), -EINVAL);
        assert_int_equal(md_parse_uuid(S("7ac7b4d7-c925-6f89-525e-4caecab28ae\n"), u), -EINVAL);
        assert_int_equal(md_parse_uuid(S("7ac7b4d7-c925-6f89-525e-4caecab28aecc"), u), -EINVAL);
        assert_int_equal(md_parse_uuid(S("7ac7b4d7-c925-6f89-525e-4caecab28aeg"), u), -EINVAL);
        assert_int_equal(md_parse_uuid(S("7ac7b4d7c-925-6f89-525e-4caecab28aec"), u), -EINVAL);
        assert_int_equal(md_parse_uuid(S(""), u), -EINVAL);
        assert_string_equal(u, "sentinel");
}

static void test_block_stat(void **state) {
        md_block_stat st = { .sectors = 7 };

        (void)state;
        /* 6.1's 17 counters, as an md device prints them: reads, then writes, ... */
        assert_int_equal(md_parse_block_stat(S("    1402        0   358912     1880       12        0       96"
                                               "       40        0     1788     1920        0        0        0"
                                               "        0        0        0\n"),
                                             &st),
                         0);
        assert_int_equal(st.sectors, 358912 + 96);
        assert_int_equal(st.requests, 1402 + 12);
        assert_int_equal(st.wait_ms, 1880 + 40);
        assert_true(st.has_wait);
        assert_int_equal(st.in_flight, 0);
        assert_true(st.has_in_flight);
        /* A reader 32 deep whose requests wait: the ninth is what is in flight now. */
        assert_int_equal(md_parse_block_stat(S("1402 0 11216 60000 0 0 0 0 32 1788 60000 0 0 0 0 0 0\n"), &st), 0);
        assert_int_equal(st.in_flight, 32);
        assert_true(st.has_in_flight);
        /* 4.x's 11 counters. */
        assert_int_equal(md_parse_block_stat(S("1 0 8 3 2 0 16 5 4 0 0"), &st), 0);
        assert_int_equal(st.sectors, 24);
        assert_int_equal(st.requests, 3);
        assert_int_equal(st.wait_ms, 8);
        assert_int_equal(st.in_flight, 4);
        /* Eight counters: the wait, nothing said of what is in flight. */
        assert_int_equal(md_parse_block_stat(S("1 0 8 3 2 0 16 5\n"), &st), 0);
        assert_true(st.has_wait);
        assert_false(st.has_in_flight);
        /* Seven counters: no write ticks, so no wait. */
        assert_int_equal(md_parse_block_stat(S("0 0 0 0 0 0 0"), &st), 0);
        assert_int_equal(st.sectors, 0);
        assert_false(st.has_wait);
        assert_false(st.has_in_flight);
        assert_int_equal(md_parse_block_stat(S("0 0 0 0 0 0 0 \n"), &st), 0);
        assert_false(st.has_wait);

        st = (md_block_stat){ .sectors = 7 };
        assert_int_equal(md_parse_block_stat(S("1 0 8 0 2 0\n"), &st), -EINVAL);
        assert_int_equal(md_parse_block_stat(S("1 0 8 0 2 0 x"), &st), -EINVAL);
        assert_int_equal(md_parse_block_stat(S("1 0 8 0 2 0 16 -1"), &st), -EINVAL);
        assert_int_equal(md_parse_block_stat(S("1 0 8 0 2 0 16 1 x"), &st), -EINVAL);
        assert_int_equal(md_parse_block_stat(S(""), &st), -EINVAL);
        assert_int_equal(md_parse_block_stat(S("0 0 18446744073709551615 0 0 0 1"), &st), -ERANGE);
        assert_int_equal(md_parse_block_stat(S("18446744073709551615 0 0 0 1 0 0"), &st), -ERANGE);
        assert_int_equal(md_parse_block_stat(S("0 0 0 18446744073709551615 0 0 0 1"), &st), -ERANGE);
        assert_int_equal(st.sectors, 7);
}

static void test_tval_format(void **state) {
        char buf[64];

        (void)state;
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_SYSTEM, .value = 1000 }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "1000 (system)");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_LOCAL, .value = 50000 }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "50000 (local)");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_NUMBER, .value = UINT64_MAX }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "18446744073709551615");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_MAX }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "max");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_NONE }, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "none");

        /* Round trip: what it prints parses back to the same value. */
        md_tval in = { .kind = MD_V_LOCAL, .value = 123456 }, out;
        assert_int_equal(md_tval_format(&in, buf, sizeof(buf)), 0);
        assert_int_equal(md_parse_tval(S(buf), &out), 0);
        assert_int_equal(out.kind, in.kind);
        assert_int_equal(out.value, in.value);

        strcpy(buf, "keep");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_ABSENT }, buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_UNKNOWN }, buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_SYSTEM, .value = 1000 }, buf, 13), -ENOBUFS);
        assert_string_equal(buf, "keep");
        assert_int_equal(md_tval_format(&(md_tval){ .kind = MD_V_SYSTEM, .value = 1000 }, buf, 14), 0);
        assert_string_equal(buf, "1000 (system)");

        /* A counter's number: a plain "N" only; anything else counts as 0. */
        assert_int_equal(md_tval_number(&(md_tval){ .kind = MD_V_NUMBER, .value = 32 }), 32);
        assert_int_equal(md_tval_number(&(md_tval){ .kind = MD_V_LOCAL, .value = 32 }), 0);
        assert_int_equal(md_tval_number(&(md_tval){ .kind = MD_V_ABSENT, .value = 32 }), 0);
        assert_int_equal(md_tval_number(&(md_tval){ .kind = MD_V_UNKNOWN, .value = 32 }), 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_u64),
                cmocka_unit_test(test_u64_rejects),
                cmocka_unit_test(test_level),
                cmocka_unit_test(test_array_state),
                cmocka_unit_test(test_sync_action),
                cmocka_unit_test(test_member_state),
                cmocka_unit_test(test_metadata),
                cmocka_unit_test(test_tval),
                cmocka_unit_test(test_tval_rejects),
                cmocka_unit_test(test_tval_negative),
                cmocka_unit_test(test_choice),
                cmocka_unit_test(test_newold),
                cmocka_unit_test(test_newold_rejects),
                cmocka_unit_test(test_progress),
                cmocka_unit_test(test_progress_rejects),
                cmocka_unit_test(test_uuid),
                cmocka_unit_test(test_tval_format),
                cmocka_unit_test(test_block_stat),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
