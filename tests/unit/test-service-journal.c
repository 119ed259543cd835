/* SPDX-License-Identifier: MIT */
/* The boost journal: round trip, atomic save, corrupt files moved aside, bad entries set aside. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"

#define UUID1 "7ac7b4d7-c925-6f89-525e-4caecab28aec"
#define UUID2 "11111111-2222-3333-4444-555555555555"

static journal_entry entry(const char *uuid, const char *array) {
        journal_entry e = { .since_usec = 1764445000123456ull };

        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                e.originals[t] = e.written[t] = e.earlier[t] = (md_tval){ .kind = MD_V_ABSENT };
        snprintf(e.uuid, sizeof(e.uuid), "%s", uuid);
        snprintf(e.array, sizeof(e.array), "%s", array);
        snprintf(e.profile, sizeof(e.profile), "fast");
        snprintf(e.operation, sizeof(e.operation), "recover");
        e.originals[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_SYSTEM, .value = 1000 };
        e.written[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_LOCAL, .value = 50000 };
        e.originals[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_LOCAL, .value = 5000 };
        e.written[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_LOCAL, .value = 200000 };
        e.originals[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_NUMBER, .value = 8192 };
        e.written[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_MAX };
        return e;
}

static void assert_entry_equal(const journal_entry *a, const journal_entry *b) {
        assert_string_equal(a->uuid, b->uuid);
        assert_string_equal(a->array, b->array);
        assert_string_equal(a->profile, b->profile);
        assert_string_equal(a->operation, b->operation);
        assert_int_equal(a->fit, b->fit);
        assert_int_equal(a->users_share, b->users_share);
        assert_int_equal(a->users_latency_ms, b->users_latency_ms);
        assert_string_equal(a->policy, b->policy);
        assert_true(journal_tval_equal(&a->lift_ceiling, &b->lift_ceiling));
        assert_int_equal(a->pace_low, b->pace_low);
        assert_int_equal(a->pace_high, b->pace_high);
        assert_int_equal(a->cache_low, b->cache_low);
        assert_int_equal(a->since_usec, b->since_usec);
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                assert_true(journal_tval_equal(&a->originals[t], &b->originals[t]));
                assert_true(journal_tval_equal(&a->written[t], &b->written[t]));
                assert_true(journal_tval_equal(&a->earlier[t], &b->earlier[t]));
        }
}

static void test_round_trip(void **state) {
        journal j = { .clean = false }, back = { .n = 99 };
        journal_entry e1 = entry(UUID1, "md0"), e2 = entry(UUID2, "md127");
        char *text;

        (void)state;
        /*
         * md127's floor was fitted and the governor steers it with a share the
         * boost gave: the values they replaced are kept as the boost's too, and
         * the ceiling it lifts to.
         */
        e2.fit = GOVERNOR_STEERING;
        e2.users_share = 70;
        snprintf(e2.policy, sizeof(e2.policy), "escalate");
        e2.lift_ceiling = (md_tval){ .kind = MD_V_SYSTEM, .value = 200000 };
        e2.earlier[MD_T_SYNC_SPEED_MIN] = e2.written[MD_T_SYNC_SPEED_MIN];
        e2.written[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_LOCAL, .value = 5652 };
        e2.earlier[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_SYSTEM, .value = 200000 };
        e2.written[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_LOCAL, .value = 5652 };
        e2.pace_low = 1413;
        e2.pace_high = 22608;
        /* It chose the stripe cache itself (8192), which the governor may grow. */
        e2.cache_low = 8192;
        /* md0's boost keeps its users under a latency bound, with a sync_io_depth it set. */
        e1.fit = GOVERNOR_FITTING;
        e1.users_latency_ms = 40;
        e1.originals[MD_T_SYNC_IO_DEPTH] = (md_tval){ .kind = MD_V_SYSTEM, .value = 32 };
        e1.written[MD_T_SYNC_IO_DEPTH] = (md_tval){ .kind = MD_V_LOCAL, .value = 4 };
        assert_int_equal(journal_put(&j, &e1), 0);
        assert_int_equal(journal_put(&j, &e2), 0);
        text = journal_format(&j);
        assert_non_null(text);
        /* The kernel's own words are what is kept. */
        assert_non_null(strstr(text, "\"1000 (system)\""));
        assert_non_null(strstr(text, "\"5000 (local)\""));
        assert_non_null(strstr(text, "\"8192\""));
        assert_non_null(strstr(text, "\"pending\""));
        assert_non_null(strstr(text, "\"steering\""));
        assert_non_null(strstr(text, "\"users_share\":70"));
        assert_non_null(strstr(text, "\"users_latency_ms\":40"));
        assert_non_null(strstr(text, "\"sync_io_depth\":\"4 (local)\""));
        assert_non_null(strstr(text, "\"policy\":\"escalate\""));
        assert_non_null(strstr(text, "\"ceiling\":\"200000 (system)\""));
        assert_non_null(strstr(text, "\"200000 (system)\""));
        assert_non_null(strstr(text, "\"earlier\""));
        assert_non_null(strstr(text, "\"paced\":{"));
        assert_non_null(strstr(text, "\"low\":1413"));
        assert_non_null(strstr(text, "\"cache_low\":8192"));
        assert_non_null(strstr(text, "\"high\":22608"));
        assert_int_equal(journal_parse(text, &back, NULL), 0);
        free(text);
        assert_int_equal(back.n, 2);
        assert_false(back.clean);
        assert_entry_equal(journal_find(&back, UUID1), &e1);
        assert_entry_equal(journal_find(&back, UUID2), &e2);
        journal_free(&back);
        journal_free(&j);
}

static void test_put_find_remove(void **state) {
        journal j = {};
        journal_entry e = entry(UUID1, "md0");

        (void)state;
        assert_null(journal_find(&j, UUID1));
        assert_int_equal(journal_put(&j, &e), 0);
        snprintf(e.profile, sizeof(e.profile), "max");
        assert_int_equal(journal_put(&j, &e), 0); /* replaces */
        assert_int_equal(j.n, 1);
        assert_string_equal(journal_find(&j, UUID1)->profile, "max");
        assert_int_equal(journal_remove(&j, UUID2), -ENOENT);
        assert_int_equal(journal_remove(&j, UUID1), 0);
        assert_int_equal(j.n, 0);
        journal_free(&j);
}

static void test_parse_refuses(void **state) {
        static const char *const bad[] = {
                "",
                "{",
                "[]",
                "{\"version\":1,\"clean\":true,\"boosts\":{",   /* truncated */
                "{\"version\":2,\"clean\":true,\"boosts\":{}}", /* unknown version */
                "{\"version\":1,\"boosts\":{}}",                /* no clean */
                "{\"version\":1,\"clean\":true,\"boosts\":[]}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"not-a-uuid\":{}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"../../etc/passwd\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1,\"originals\":{\"sync_speed_min\":\"fast\"}}}"
                "}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1,\"originals\":{\"rm -rf\":\"1\"}}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":-5}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1,\"fit\":\"soon\"}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1,\"earlier\":[]}}}",
        };
        journal j = { .n = 42 };

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                int r = journal_parse(bad[i], &j, NULL);
                if (r == 0)
                        fail_msg("accepted: %s", bad[i]);
                assert_int_equal(j.n, 42);
        }
}

/*
 * Told to, the parser keeps every good entry and lists the bad ones with
 * why: one entry a newer version wrote (a tunable this one does not know, a
 * longer profile word) must not cost the other arrays their originals.
 */
static void test_parse_sets_aside_bad_entries(void **state) {
        static const char text[] =
                "{\"version\":1,\"clean\":false,\"boosts\":{"
                "\"" UUID1 "\":{\"array\":\"md0\",\"profile\":\"fast\",\"operation\":\"recover\",\"since\":1,"
                "\"originals\":{\"sync_speed_min\":\"1000 (system)\",\"sync_future_depth\":\"32\"}},"
                "\"" UUID2 "\":{\"array\":\"md1\",\"profile\":\"fast\",\"operation\":\"recover\",\"since\":2,"
                "\"originals\":{\"sync_speed_min\":\"1000 (system)\"},"
                "\"written\":{\"sync_speed_min\":\"50000 (local)\"}},"
                "\"22222222-2222-3333-4444-555555555555\":{\"array\":\"md2\",\"profile\":\"a-much-longer-profile\","
                "\"operation\":\"resync\",\"since\":3},"
                "\"bad\\nkey\":{}}}";
        journal_load_report rep;
        journal j = { .n = 42 };

        (void)state;
        /* Strict, as a round trip wants it: refused whole. */
        assert_int_equal(journal_parse(text, &j, NULL), -EINVAL);
        assert_int_equal(j.n, 42);

        assert_int_equal(journal_parse(text, &j, &rep), 0);
        assert_int_equal(j.n, 1);
        assert_string_equal(j.entries[0].uuid, UUID2);
        assert_int_equal(j.entries[0].originals[MD_T_SYNC_SPEED_MIN].value, 1000);
        assert_false(j.clean);
        assert_false(rep.corrupt);
        assert_int_equal(rep.n_rejected, 3);
        for (unsigned i = 0; i < 3; i++) {
                const journal_reject *k = &rep.rejected[i];

                if (strcmp(k->key, UUID1) == 0) {
                        assert_non_null(strstr(k->why, "unknown tunable \"sync_future_depth\""));
                        assert_non_null(strstr(k->held, "\"sync_future_depth\":\"32\""));
                } else if (strcmp(k->key, "22222222-2222-3333-4444-555555555555") == 0) {
                        assert_non_null(strstr(k->why, "\"profile\" is longer than"));
                        assert_non_null(strstr(k->held, "a-much-longer-profile"));
                } else {
                        /* The key as the file had it, made one printable line. */
                        assert_string_equal(k->key, "bad?key");
                        assert_non_null(strstr(k->why, "not an array UUID"));
                }
        }
        journal_free(&j);
}

static char *make_dir(void) {
        char tmpl[] = "/tmp/test-service-journal-XXXXXX";
        char *d = mkdtemp(tmpl);

        assert_non_null(d);
        return strdup(d);
}

static void remove_dir(const char *path) {
        DIR *d = opendir(path);
        struct dirent *de;
        char p[4096];

        assert_non_null(d);
        for (de = readdir(d); de; de = readdir(d)) {
                if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
                        continue;
                snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
                unlink(p);
        }
        closedir(d);
        assert_int_equal(rmdir(path), 0);
}

/* Names in @dir, other than . and .., joined with spaces. */
static void list_dir(const char *path, char *buf, size_t size) {
        DIR *d = opendir(path);
        struct dirent *de;
        size_t len = 0;

        buf[0] = 0;
        assert_non_null(d);
        for (de = readdir(d); de; de = readdir(d))
                if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                        len += (size_t)snprintf(buf + len, size - len, "%s ", de->d_name);
        closedir(d);
}

static void test_save_load(void **state) {
        char *dir = make_dir(), names[512], path[4096];
        journal j = { .clean = false }, back;
        journal_load_report rep;
        journal_entry e = entry(UUID1, "md0");
        struct stat st;
        int fd;

        (void)state;
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);

        /* Nothing saved yet: an empty, clean journal. */
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_int_equal(back.n, 0);
        assert_true(back.clean);

        assert_int_equal(journal_put(&j, &e), 0);
        assert_int_equal(journal_save(fd, &j), 0);
        /* Only the journal is left: the temporary file was renamed over it. */
        list_dir(dir, names, sizeof(names));
        assert_string_equal(names, JOURNAL_FILE " ");
        snprintf(path, sizeof(path), "%s/" JOURNAL_FILE, dir);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0600);

        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_int_equal(back.n, 1);
        assert_false(back.clean);
        assert_entry_equal(&back.entries[0], &e);
        journal_free(&back);

        /* Saving again replaces the file whole. */
        assert_int_equal(journal_remove(&j, UUID1), 0);
        j.clean = true;
        assert_int_equal(journal_save(fd, &j), 0);
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_int_equal(back.n, 0);
        assert_true(back.clean);

        journal_free(&back);
        journal_free(&j);
        close(fd);
        remove_dir(dir);
        free(dir);
}

static void write_file(const char *dir, const char *name, const char *content, size_t len) {
        char path[4096];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        f = fopen(path, "we");
        assert_non_null(f);
        assert_int_equal(fwrite(content, 1, len, f), len);
        assert_int_equal(fclose(f), 0);
}

/* The file @name in @dir holds exactly @content. */
static void assert_file_is(const char *dir, const char *name, const char *content, size_t len) {
        char path[4096], *buf = malloc(len + 2);
        size_t n;
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        f = fopen(path, "re");
        assert_non_null(f);
        n = fread(buf, 1, len + 1, f);
        fclose(f);
        assert_int_equal(n, len);
        assert_memory_equal(buf, content, len);
        free(buf);
}

static void check_moved_aside(const char *content, size_t len) {
        char *dir = make_dir(), names[512], first[64];
        journal_load_report rep;
        journal back = { .n = 5 };
        int fd;

        write_file(dir, JOURNAL_FILE, content, len);
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);

        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_true(rep.corrupt);
        assert_int_equal(back.n, 0);
        assert_true(back.clean);
        assert_int_equal(strncmp(rep.aside, JOURNAL_FILE ".corrupt-", strlen(JOURNAL_FILE ".corrupt-")), 0);
        list_dir(dir, names, sizeof(names));
        assert_null(strstr(names, JOURNAL_FILE " "));
        assert_file_is(dir, rep.aside, content, len);
        snprintf(first, sizeof(first), "%s", rep.aside);

        /* The next load starts afresh. */
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_false(rep.corrupt);
        assert_string_equal(rep.aside, "");

        /* A second corrupt file, in the same second, never replaces the first copy. */
        write_file(dir, JOURNAL_FILE, "{", 1);
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_true(rep.corrupt);
        assert_string_not_equal(rep.aside, first);
        assert_file_is(dir, first, content, len);
        assert_file_is(dir, rep.aside, "{", 1);
        journal_free(&back);
        close(fd);
        remove_dir(dir);
        free(dir);
}

static void test_corrupt_moved_aside(void **state) {
        static const char garbage[] = "\x00\x01not json at all";

        (void)state;
        check_moved_aside(garbage, sizeof(garbage) - 1);
        check_moved_aside("", 0);
}

static void test_truncated_moved_aside(void **state) {
        journal j = {};
        journal_entry e = entry(UUID1, "md0");
        char *text;

        (void)state;
        assert_int_equal(journal_put(&j, &e), 0);
        text = journal_format(&j);
        assert_non_null(text);
        /* A crash in the middle of a (non-atomic) write would leave half a file. */
        check_moved_aside(text, strlen(text) / 2);
        free(text);
        journal_free(&j);
}

/* Bad entries are set aside in a copy of the file as it was; the good ones load. */
/* A governor's share and ceiling that are not what this version writes set the entry aside, with why. */
static void test_parse_rejects_governor_fields(void **state) {
        static const struct {
                const char *fields, *why;
        } cases[] = {
                { "\"users_share\":0", "\"users_share\" is not from 1 to 100" },
                { "\"users_share\":101", "\"users_share\" is not from 1 to 100" },
                { "\"users_latency_ms\":0", "\"users_latency_ms\" is not from 1 to 60000" },
                { "\"users_latency_ms\":60001", "\"users_latency_ms\" is not from 1 to 60000" },
                { "\"users_latency_ms\":2.5", "\"users_latency_ms\" is not a whole number" },
                { "\"users_share\":50,\"users_latency_ms\":20", "exclude each other" },
                { "\"users_share\":\"50\"", "\"users_share\" is not a whole number" },
                { "\"ceiling\":\"none\"", "\"ceiling\" is no limit md shows" },
                { "\"ceiling\":200000", "\"ceiling\" is not a string" },
                { "\"policy\":\"nightly\"", "\"policy\" is an unknown rule" },
                { "\"cache_low\":16", "\"cache_low\" is not from 17 to 32768" },
                { "\"cache_low\":32769", "\"cache_low\" is not from 17 to 32768" },
                { "\"cache_low\":\"1024\"", "\"cache_low\" is not a whole number" },
                { "\"paced\":[1000,4000]", "\"paced\" is not {\"low\": N, \"high\": N}" },
                { "\"paced\":{\"low\":1000}", "\"paced\" is not {\"low\": N, \"high\": N}" },
                { "\"paced\":{\"low\":\"1000\",\"high\":4000}", "\"paced\" is not {\"low\": N, \"high\": N}" },
                { "\"paced\":{\"low\":0,\"high\":4000}", "\"paced\" is no band of limits md takes" },
                { "\"paced\":{\"low\":5000,\"high\":4000}", "\"paced\" is no band of limits md takes" },
                { "\"paced\":{\"low\":1000,\"high\":-1}", "\"paced\" is no band of limits md takes" },
        };

        (void)state;
        for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char text[512];
                journal_load_report rep;
                journal j = {};

                snprintf(text, sizeof(text),
                         "{\"version\":1,\"clean\":false,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                         "\"profile\":\"fast\",\"operation\":\"recover\",\"since\":1,\"fit\":\"steering\",%s}}}",
                         cases[i].fields);
                assert_int_equal(journal_parse(text, &j, &rep), 0);
                assert_int_equal(j.n, 0);
                assert_int_equal(rep.n_rejected, 1);
                assert_non_null(strstr(rep.rejected[0].why, cases[i].why));
                journal_free(&j);
        }
}

static void test_rejected_entries_copied(void **state) {
        static const char text[] =
                "{\"version\":1,\"clean\":false,\"boosts\":{"
                "\"" UUID1 "\":{\"array\":\"md0\",\"profile\":\"fast\",\"operation\":\"recover\",\"since\":1,"
                "\"originals\":{\"sync_future_mode\":\"on\"}},"
                "\"" UUID2 "\":{\"array\":\"md1\",\"profile\":\"max\",\"operation\":\"recover\",\"since\":2}}}";
        char *dir = make_dir(), first[64];
        journal_load_report rep;
        journal back;
        int fd;

        (void)state;
        write_file(dir, JOURNAL_FILE, text, strlen(text));
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_false(rep.corrupt);
        assert_int_equal(rep.n_rejected, 1);
        assert_string_equal(rep.rejected[0].key, UUID1);
        assert_int_equal(back.n, 1);
        assert_string_equal(back.entries[0].uuid, UUID2);
        assert_int_equal(strncmp(rep.aside, JOURNAL_FILE ".rejected-", strlen(JOURNAL_FILE ".rejected-")), 0);
        assert_file_is(dir, rep.aside, text, strlen(text));
        /* The journal itself is left for the caller's next save. */
        assert_file_is(dir, JOURNAL_FILE, text, strlen(text));
        journal_free(&back);
        snprintf(first, sizeof(first), "%s", rep.aside);
        assert_int_equal(journal_load(fd, &back, &rep), 0);
        assert_string_not_equal(rep.aside, first);
        assert_file_is(dir, first, text, strlen(text));
        journal_free(&back);
        close(fd);
        remove_dir(dir);
        free(dir);
}

/* A journal that cannot be read is an error, and stays where it is. */
static void test_unreadable_refused(void **state) {
        char *dir = make_dir(), names[512], path[4096], *big;
        journal_load_report rep;
        journal back = { .n = 7 };
        int fd;

        (void)state;
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);

        /* Larger than any journal of real arrays. */
        big = malloc(5u << 20);
        assert_non_null(big);
        memset(big, ' ', 5u << 20);
        write_file(dir, JOURNAL_FILE, big, 5u << 20);
        free(big);
        assert_int_equal(journal_load(fd, &back, &rep), -EFBIG);
        assert_int_equal(back.n, 7);
        list_dir(dir, names, sizeof(names));
        assert_string_equal(names, JOURNAL_FILE " ");
        snprintf(path, sizeof(path), "%s/" JOURNAL_FILE, dir);
        assert_int_equal(unlink(path), 0);

        /* Not a regular file: a folder, a FIFO (which must not block). */
        assert_int_equal(mkdir(path, 0700), 0);
        assert_int_equal(journal_load(fd, &back, &rep), -EINVAL);
        assert_int_equal(rmdir(path), 0);
        assert_int_equal(mkfifo(path, 0600), 0);
        assert_int_equal(journal_load(fd, &back, &rep), -EINVAL);
        list_dir(dir, names, sizeof(names));
        assert_string_equal(names, JOURNAL_FILE " ");
        assert_int_equal(back.n, 7);
        close(fd);
        remove_dir(dir);
        free(dir);
}

static void test_open_dir(void **state) {
        char *dir = make_dir(), path[4096];
        struct stat st;
        int fd = -1;

        (void)state;
        snprintf(path, sizeof(path), "%s/a", dir);
        strcat(path, "/state");
        assert_int_equal(journal_open_dir(path, &fd), 0);
        assert_true(fd >= 0);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0700);
        assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
        close(fd);
        /* Existing: opened as is. */
        fd = -1;
        assert_int_equal(journal_open_dir(path, &fd), 0);
        close(fd);
        /* Writable by others: refused. */
        assert_int_equal(chmod(path, 0777), 0);
        assert_int_equal(journal_open_dir(path, &fd), -EPERM);
        assert_int_equal(chmod(path, 0720), 0);
        assert_int_equal(journal_open_dir(path, &fd), -EPERM);
        assert_int_equal(chmod(path, 0755), 0);
        assert_int_equal(journal_open_dir(path, &fd), 0);
        close(fd);
        /* Owned by someone else: refused. */
        if (geteuid() == 0) {
                assert_int_equal(chown(path, 65534, 65534), 0);
                assert_int_equal(journal_open_dir(path, &fd), -EPERM);
        }
        rmdir(path);
        /* A symlink in its place, even to a good folder: refused. */
        {
                char target[4096];

                snprintf(target, sizeof(target), "%s/real", dir);
                assert_int_equal(mkdir(target, 0700), 0);
                assert_int_equal(symlink(target, path), 0);
                assert_int_equal(journal_open_dir(path, &fd), -ELOOP);
                unlink(path);
                rmdir(target);
        }
        snprintf(path, sizeof(path), "%s/a", dir);
        rmdir(path);
        remove_dir(dir);
        free(dir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_round_trip),
                cmocka_unit_test(test_put_find_remove),
                cmocka_unit_test(test_parse_refuses),
                cmocka_unit_test(test_parse_sets_aside_bad_entries),
                cmocka_unit_test(test_rejected_entries_copied),
                cmocka_unit_test(test_parse_rejects_governor_fields),
                cmocka_unit_test(test_unreadable_refused),
                cmocka_unit_test(test_save_load),
                cmocka_unit_test(test_corrupt_moved_aside),
                cmocka_unit_test(test_truncated_moved_aside),
                cmocka_unit_test(test_open_dir),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
