/* SPDX-License-Identifier: MIT */
/* The boost journal: round trip, atomic save, corrupt and truncated files moved aside. */
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
        assert_string_equal(a->fit, b->fit);
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
         * md127's floor was fitted and its ceiling held at it: the values they
         * replaced are kept as the boost's too.
         */
        snprintf(e2.fit, sizeof(e2.fit), JOURNAL_FIT_HELD);
        e2.earlier[MD_T_SYNC_SPEED_MIN] = e2.written[MD_T_SYNC_SPEED_MIN];
        e2.written[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_LOCAL, .value = 5652 };
        e2.earlier[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_SYSTEM, .value = 200000 };
        e2.written[MD_T_SYNC_SPEED_MAX] = (md_tval){ .kind = MD_V_LOCAL, .value = 5652 };
        snprintf(e1.fit, sizeof(e1.fit), JOURNAL_FIT_PENDING);
        assert_int_equal(journal_put(&j, &e1), 0);
        assert_int_equal(journal_put(&j, &e2), 0);
        text = journal_format(&j);
        assert_non_null(text);
        /* The kernel's own words are what is kept. */
        assert_non_null(strstr(text, "\"1000 (system)\""));
        assert_non_null(strstr(text, "\"5000 (local)\""));
        assert_non_null(strstr(text, "\"8192\""));
        assert_non_null(strstr(text, "\"pending\""));
        assert_non_null(strstr(text, "\"held\""));
        assert_non_null(strstr(text, "\"200000 (system)\""));
        assert_non_null(strstr(text, "\"earlier\""));
        assert_int_equal(journal_parse(text, &back), 0);
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
                "{\"version\":1,\"clean\":true,\"boosts\":{",                     /* truncated */
                "{\"version\":2,\"clean\":true,\"boosts\":{}}",                    /* unknown version */
                "{\"version\":1,\"boosts\":{}}",                                   /* no clean */
                "{\"version\":1,\"clean\":true,\"boosts\":[]}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"not-a-uuid\":{}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"../../etc/passwd\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1}}}",
                "{\"version\":1,\"clean\":true,\"boosts\":{\"" UUID1 "\":{\"array\":\"md0\","
                "\"profile\":\"fast\",\"operation\":\"idle\",\"since\":1,\"originals\":{\"sync_speed_min\":\"fast\"}}}}",
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
                int r = journal_parse(bad[i], &j);
                if (r == 0)
                        fail_msg("accepted: %s", bad[i]);
                assert_int_equal(j.n, 42);
        }
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
        journal_entry e = entry(UUID1, "md0");
        struct stat st;
        int fd;

        (void)state;
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);

        /* Nothing saved yet: an empty, clean journal. */
        assert_int_equal(journal_load(fd, &back, NULL, 0), 0);
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

        assert_int_equal(journal_load(fd, &back, NULL, 0), 0);
        assert_int_equal(back.n, 1);
        assert_false(back.clean);
        assert_entry_equal(&back.entries[0], &e);
        journal_free(&back);

        /* Saving again replaces the file whole. */
        assert_int_equal(journal_remove(&j, UUID1), 0);
        j.clean = true;
        assert_int_equal(journal_save(fd, &j), 0);
        assert_int_equal(journal_load(fd, &back, NULL, 0), 0);
        assert_int_equal(back.n, 0);
        assert_true(back.clean);

        journal_free(&back);
        journal_free(&j);
        close(fd);
        remove_dir(dir);
        free(dir);
}

static void check_moved_aside(const char *content, size_t len) {
        char *dir = make_dir(), names[512], aside[64] = "", path[4096];
        journal back = { .n = 5 };
        FILE *f;
        int fd;

        snprintf(path, sizeof(path), "%s/" JOURNAL_FILE, dir);
        f = fopen(path, "we");
        assert_non_null(f);
        assert_int_equal(fwrite(content, 1, len, f), len);
        fclose(f);
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);

        assert_int_equal(journal_load(fd, &back, aside, sizeof(aside)), 1);
        assert_int_equal(back.n, 0);
        assert_true(back.clean);
        assert_int_equal(strncmp(aside, JOURNAL_FILE ".corrupt-", strlen(JOURNAL_FILE ".corrupt-")), 0);
        list_dir(dir, names, sizeof(names));
        assert_null(strstr(names, JOURNAL_FILE " "));
        assert_non_null(strstr(names, aside));

        /* The next load starts afresh. */
        assert_int_equal(journal_load(fd, &back, aside, sizeof(aside)), 0);
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
                cmocka_unit_test(test_save_load),
                cmocka_unit_test(test_corrupt_moved_aside),
                cmocka_unit_test(test_truncated_moved_aside),
                cmocka_unit_test(test_open_dir),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
