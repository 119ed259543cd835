/* SPDX-License-Identifier: MIT */
/* The root-prefixed reader and writer against hostile trees. */

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "md-fixture.h"
#include "root.h"

typedef md_case ctx;

static int setup(void **state) {
        return md_case_setup(state, NULL);
}

static int teardown(void **state) {
        return md_case_teardown(state);
}

static void test_open(void **state) {
        md_root r = { .fd = 12345 };
        ctx *c = *state;

        assert_int_equal(md_root_open("/nonexistent/mdboost", &r), -ENOENT);
        assert_int_equal(r.fd, 12345);
        assert_int_equal(md_fixture_write(c->dir, "file", "x"), 0);
        {
                char path[4096];

                snprintf(path, sizeof(path), "%s/file", c->dir);
                assert_int_equal(md_root_open(path, &r), -ENOTDIR);
                assert_int_equal(r.fd, 12345);
        }
        assert_int_equal(md_root_open(NULL, &r), 0);
        assert_true(r.fd >= 0);
        assert_int_equal(md_root_is_dir(&r, "proc"), 1);
        md_root_close(&r);
        assert_int_equal(r.fd, -1);
        md_root_close(&r); /* twice is harmless */
}

static void test_read(void **state) {
        char buf[MD_ATTR_MAX];
        ctx *c = *state;

        assert_int_equal(md_fixture_write(c->dir, "sys/block/md0/md/level", "raid5\n"), 0);
        assert_int_equal(md_root_read(&c->root, "sys/block/md0/md/level", buf, sizeof(buf)), 6);
        assert_string_equal(buf, "raid5\n");

        assert_int_equal(md_fixture_write(c->dir, "empty", ""), 0);
        memset(buf, 'x', 8);
        assert_int_equal(md_root_read(&c->root, "empty", buf, sizeof(buf)), 0);
        assert_string_equal(buf, "");
}

static void test_read_real_snapshot(void **state) {
        char src[4096], buf[MD_ATTR_MAX];
        md_root r;

        (void)state;
        assert_non_null(md_fixture_snapshot("03-raid5-recovery", src, sizeof(src)));
        assert_int_equal(md_root_open(src, &r), 0);
        assert_int_equal(md_root_read(&r, "sys/block/md0/md/sync_completed", buf, sizeof(buf)), 17);
        assert_string_equal(buf, "261648 / 2093056\n");
        assert_int_equal(md_root_read(&r, "proc/sys/dev/raid/speed_limit_max", buf, sizeof(buf)), 6);
        assert_string_equal(buf, "10000\n");
        md_root_close(&r);
}

/* Exactly size - 1 bytes fit; size bytes do not: the single read fills the buffer. */
static void test_read_size_limit(void **state) {
        char big[MD_ATTR_MAX * 3], buf[MD_ATTR_MAX];
        ctx *c = *state;

        memset(big, '7', sizeof(big) - 1);
        big[MD_ATTR_MAX - 1] = '\0';
        assert_int_equal(md_fixture_write(c->dir, "fits", big), 0);
        assert_int_equal(md_root_read(&c->root, "fits", buf, sizeof(buf)), MD_ATTR_MAX - 1);
        assert_int_equal(strlen(buf), MD_ATTR_MAX - 1);

        big[MD_ATTR_MAX - 1] = '7';
        big[MD_ATTR_MAX] = '\0';
        assert_int_equal(md_fixture_write(c->dir, "page", big), 0);
        assert_int_equal(md_root_read(&c->root, "page", buf, sizeof(buf)), -EFBIG);

        big[MD_ATTR_MAX] = '7';
        big[sizeof(big) - 1] = '\0';
        assert_int_equal(md_fixture_write(c->dir, "huge", big), 0);
        assert_int_equal(md_root_read(&c->root, "huge", buf, sizeof(buf)), -EFBIG);

        /* A small buffer: "raid5\n" needs 7 bytes. */
        assert_int_equal(md_fixture_write(c->dir, "level", "raid5\n"), 0);
        assert_int_equal(md_root_read(&c->root, "level", buf, 6), -EFBIG);
        assert_int_equal(md_root_read(&c->root, "level", buf, 7), 6);
}

static void test_read_refuses(void **state) {
        char buf[64];
        ctx *c = *state;

        strcpy(buf, "sentinel");
        assert_int_equal(md_root_read(&c->root, "missing", buf, sizeof(buf)), -ENOENT);
        assert_int_equal(md_fixture_mkdir(c->dir, "adir"), 0);
        assert_int_equal(md_root_read(&c->root, "adir", buf, sizeof(buf)), -EISDIR);
        assert_int_equal(md_fixture_symlink(c->dir, "loop1", "loop2"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "loop2", "loop1"), 0);
        assert_int_equal(md_root_read(&c->root, "loop1", buf, sizeof(buf)), -ELOOP);
        assert_int_equal(md_fixture_symlink(c->dir, "self", "self"), 0);
        assert_int_equal(md_root_read(&c->root, "self", buf, sizeof(buf)), -ELOOP);
        /* An absolute link leaves the root: refused. A character device is not an attribute. */
        assert_int_equal(md_fixture_symlink(c->dir, "null", "/dev/null"), 0);
        assert_int_equal(md_root_read(&c->root, "null", buf, sizeof(buf)), -EXDEV);
        assert_int_equal(md_fixture_device(c->dir, "dev/null", 1, 3), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "to-null", "dev/null"), 0);
        assert_int_equal(md_root_read(&c->root, "to-null", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_read(&c->root, "dev/null", buf, sizeof(buf)), -EINVAL);
        /* A path through a file. */
        assert_int_equal(md_fixture_write(c->dir, "f", "1\n"), 0);
        assert_int_equal(md_root_read(&c->root, "f/x", buf, sizeof(buf)), -ENOTDIR);
        assert_string_equal(buf, "sentinel");
}

/* No writer: opening and reading must return at once, not wait. */
static void test_read_fifo(void **state) {
        char buf[64];
        ctx *c = *state;

        assert_int_equal(md_fixture_fifo(c->dir, "sys/block/md0/md/level"), 0);
        strcpy(buf, "sentinel");
        assert_int_equal(md_root_read(&c->root, "sys/block/md0/md/level", buf, sizeof(buf)), -EINVAL);
        assert_string_equal(buf, "sentinel");
        /* Refused before it is opened: the open would have failed with ENXIO or waited. */
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/level", "raid1"), -EINVAL);
        assert_int_equal(md_root_is_dir(&c->root, "sys/block/md0/md/level"), 0);
}

/* Read to the end, however many reads that takes; only a regular file. */
static void test_read_file(void **state) {
        enum {
                LEN = 10000
        };
        char *text = malloc(LEN + 1), *buf = malloc(2 * LEN);
        ctx *c = *state;

        assert_non_null(text);
        assert_non_null(buf);
        memset(text, 'x', LEN);
        text[LEN] = '\0';
        assert_int_equal(md_fixture_write(c->dir, "proc/mdstat", text), 0);
        assert_int_equal(md_root_read_file(&c->root, "proc/mdstat", buf, 2 * LEN), LEN);
        assert_memory_equal(buf, text, LEN + 1);
        /* Exactly full still fits; one byte less room does not. */
        assert_int_equal(md_root_read_file(&c->root, "proc/mdstat", buf, LEN + 1), LEN);
        assert_int_equal(md_root_read_file(&c->root, "proc/mdstat", buf, LEN), -EFBIG);

        assert_int_equal(md_root_read_file(&c->root, "missing", buf, LEN), -ENOENT);
        assert_int_equal(md_fixture_fifo(c->dir, "fifo"), 0);
        assert_int_equal(md_root_read_file(&c->root, "fifo", buf, LEN), -EINVAL);
        /* A device that never ends is refused before it is opened. */
        assert_int_equal(md_fixture_device(c->dir, "dev/zero", 1, 5), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "zero", "dev/zero"), 0);
        assert_int_equal(md_root_read_file(&c->root, "zero", buf, LEN), -EINVAL);
        assert_int_equal(md_root_read_file(&c->root, "proc/mdstat", NULL, LEN), -EINVAL);
        free(text);
        free(buf);
}

static void test_bad_arguments(void **state) {
        md_root closed = MD_ROOT_NULL;
        char buf[64];
        ctx *c = *state;

        assert_int_equal(md_fixture_write(c->dir, "f", "1\n"), 0);
        /* An absolute path would escape the root. */
        assert_int_equal(md_root_read(&c->root, "/etc/passwd", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_write(&c->root, "/tmp/x", "1"), -EINVAL);
        assert_int_equal(md_root_is_dir(&c->root, "/"), -EINVAL);
        assert_int_equal(md_root_read(&c->root, "", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_read(&c->root, NULL, buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_read(&c->root, "f", buf, 0), -EINVAL);
        assert_int_equal(md_root_read(&c->root, "f", NULL, 10), -EINVAL);
        assert_int_equal(md_root_read(&closed, "f", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_read(NULL, "f", buf, sizeof(buf)), -EINVAL);
        assert_int_equal(md_root_write(&c->root, "f", ""), -EINVAL);
        assert_int_equal(md_root_write(&c->root, "f", NULL), -EINVAL);
        assert_int_equal(md_root_write(&closed, "f", "1"), -EINVAL);
}

static void test_write(void **state) {
        char buf[64];
        ctx *c = *state;

        assert_int_equal(md_fixture_write(c->dir, "sys/block/md0/md/stripe_cache_size", "32768\n"), 0);
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/stripe_cache_size", "256"), 0);
        /* O_TRUNC: the file holds exactly what was written, not "256\n8\n". */
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/stripe_cache_size", buf, sizeof(buf)), 3);
        assert_string_equal(buf, "256");

        /* sysfs cannot create attributes: neither does the writer. */
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/nope", "1"), -ENOENT);
        assert_int_equal(md_fixture_read(c->dir, "sys/block/md0/md/nope", buf, sizeof(buf)), -ENOENT);

        assert_int_equal(md_fixture_mkdir(c->dir, "sys/block/md0/md/dir"), 0);
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/dir", "1"), -EISDIR);
        assert_int_equal(md_fixture_symlink(c->dir, "loop", "loop"), 0);
        assert_int_equal(md_root_write(&c->root, "loop", "1"), -ELOOP);
        assert_int_equal(md_fixture_device(c->dir, "dev/null", 1, 3), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "null", "dev/null"), 0);
        assert_int_equal(md_root_write(&c->root, "null", "1"), -EINVAL);
        assert_int_equal(md_fixture_symlink(c->dir, "abs-null", "/dev/null"), 0);
        assert_int_equal(md_root_write(&c->root, "abs-null", "1"), -EXDEV);
}

/*
 * A test tree's links that point out of it, absolute or by "..", are
 * refused: the file outside is neither written nor emptied. A relative link
 * that stays inside is followed as usual.
 */
static void test_writes_stay_beneath(void **state) {
        char outside[4096], *other, buf[64];
        ctx *c = *state;

        assert_int_equal(md_fixture_new(&other), 0);
        assert_int_equal(md_fixture_write(other, "victim", "precious\n"), 0);
        snprintf(outside, sizeof(outside), "%s/victim", other);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/stripe_cache_size", outside), 0);
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/stripe_cache_size", "1024"), -EXDEV);
        assert_int_equal(md_root_read(&c->root, "sys/block/md0/md/stripe_cache_size", buf, sizeof(buf)), -EXDEV);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/stripe_cache_size"), 0);
        snprintf(outside, sizeof(outside), "../../../../../../../../../../../../..%s/victim", other);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/stripe_cache_size", outside), 0);
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/stripe_cache_size", "1024"), -EXDEV);
        assert_int_equal(md_root_write(&c->root, "../victim", "1024"), -EXDEV);
        assert_int_equal(md_fixture_read(other, "victim", buf, sizeof(buf)), 9);
        assert_string_equal(buf, "precious\n");

        /* A relative link that stays inside, as sysfs's own do: followed and written. */
        assert_int_equal(md_fixture_write(c->dir, "sys/devices/virtual/block/md0/md/stripe_cache_size", "256\n"), 0);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md0/md/stripe_cache_size"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0/md/stripe_cache_size",
                                            "../../../devices/virtual/block/md0/md/stripe_cache_size"),
                         0);
        assert_int_equal(md_root_write(&c->root, "sys/block/md0/md/stripe_cache_size", "1024"), 0);
        assert_int_equal(
                md_fixture_read(c->dir, "sys/devices/virtual/block/md0/md/stripe_cache_size", buf, sizeof(buf)), 4);
        assert_string_equal(buf, "1024");
        md_fixture_rm(other);
        free(other);
}

/* A write the kernel takes only partly is a failure: the value is not what was asked. */
static void test_short_write(void **state) {
        ctx *c = *state;
        int status;
        pid_t pid;

        assert_int_equal(md_fixture_write(c->dir, "attr", "0\n"), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                struct rlimit rl = { .rlim_cur = 3, .rlim_max = 3 };

                signal(SIGXFSZ, SIG_IGN);
                if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
                        _exit(2);
                _exit(md_root_write(&c->root, "attr", "123456") == -EIO ? 0 : 1);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_is_dir(void **state) {
        ctx *c = *state;

        assert_int_equal(md_fixture_mkdir(c->dir, "sys/devices/virtual/block/md0/md"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "sys/block/md0", "../devices/virtual/block/md0"), 0);
        assert_int_equal(md_fixture_write(c->dir, "file", "x"), 0);
        assert_int_equal(md_fixture_symlink(c->dir, "loop", "loop"), 0);

        assert_int_equal(md_root_is_dir(&c->root, "sys/block/md0/md"), 1);
        assert_int_equal(md_root_is_dir(&c->root, "sys/block/md0"), 1);
        assert_int_equal(md_root_is_dir(&c->root, "file"), 0);
        assert_int_equal(md_root_is_dir(&c->root, "missing"), 0);
        assert_int_equal(md_root_is_dir(&c->root, "file/below"), 0);
        assert_int_equal(md_root_is_dir(&c->root, "loop"), -ELOOP);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_open, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read_real_snapshot, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read_file, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read_size_limit, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read_refuses, setup, teardown),
                cmocka_unit_test_setup_teardown(test_read_fifo, setup, teardown),
                cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
                cmocka_unit_test_setup_teardown(test_write, setup, teardown),
                cmocka_unit_test_setup_teardown(test_short_write, setup, teardown),
                cmocka_unit_test_setup_teardown(test_writes_stay_beneath, setup, teardown),
                cmocka_unit_test_setup_teardown(test_is_dir, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
