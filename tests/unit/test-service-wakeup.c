/* SPDX-License-Identifier: MIT */
/*
 * The files md wakes the service with: which are opened for which arrays,
 * closed with their arrays, and whether sleeping on them is safe. poll()
 * on the real md driver's files is tested in the VM (tests/vm/suite-policy.sh).
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "md-fixture.h"
#include "notify.h"
#include "wakeup.h"

static bool has(const wakeup_set *w, const char *rel) {
        for (unsigned i = 0; i < w->n; i++)
                if (strcmp(w->entries[i].rel, rel) == 0 && w->entries[i].file.fd >= 0)
                        return true;
        return false;
}

/* A test tree is made of regular files: opened, never waited on. */
static void test_tree_is_not_notified(void **state) {
        md_case *c = *state;
        wakeup_set w = {};

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 2);
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 5);
        assert_true(has(&w, "proc/mdstat"));
        assert_true(has(&w, "sys/block/md10/md/sync_action"));
        assert_true(has(&w, "sys/block/md10/md/degraded"));
        assert_true(has(&w, "sys/block/md11/md/sync_action"));
        assert_true(has(&w, "sys/block/md11/md/degraded"));
        assert_false(w.complete);
        assert_int_equal(wakeup_count(&w), 0);
        /* Kept open: nothing new to open on the next read. */
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 0);
        assert_int_equal(w.n, 5);
        wakeup_free(&w);
}

/* An array gone: its files are closed; one that comes back is opened again. */
static void test_gone_array_closed(void **state) {
        md_case *c = *state;
        wakeup_set w = {};

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 5);
        assert_int_equal(md_fixture_remove(c->dir, "sys/block/md11"), 0);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(c->set.n, 1);
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 0);
        assert_int_equal(w.n, 3);
        assert_false(has(&w, "sys/block/md11/md/sync_action"));
        wakeup_free(&w);
}

/* A file that cannot be opened leaves the set incomplete: the service keeps its timer. */
static void test_missing_file_incomplete(void **state) {
        md_case *c = *state;
        wakeup_set w = {};

        assert_int_equal(md_fixture_remove(c->dir, "proc/mdstat"), 0);
        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 4);
        assert_false(has(&w, "proc/mdstat"));
        assert_false(w.complete);
        wakeup_free(&w);
}

/* procfs is a kernel file system: a file there is one md_notify_open trusts to notify. */
static void test_kernel_file_kind(void **state) {
        md_case *c = *state;
        md_notify_file f;
        md_root slash;

        assert_int_equal(md_notify_open(&c->root, "sys/block/md10/md/sync_action", &f), 0);
        assert_false(f.kernel);
        assert_int_equal(md_notify_rearm(&f), 0);
        md_notify_close(&f);
        assert_int_equal(f.fd, -1);
        assert_int_equal(md_notify_rearm(&f), -EBADF);

        assert_int_equal(md_root_open("/", &slash), 0);
        assert_int_equal(md_notify_open(&slash, "proc/version", &f), 0);
        assert_true(f.kernel);
        md_notify_close(&f);
        assert_int_equal(md_notify_open(&slash, "proc/no-such-file", &f), -ENOENT);
        assert_int_equal(md_notify_open(&slash, "/proc/version", &f), -EINVAL);
        md_root_close(&slash);
}

/* poll() reports what wakeup_take is given: an event re-reads the file, a closed one is dropped. */
static void test_take(void **state) {
        md_case *c = *state;
        wakeup_set w = {};
        struct pollfd fds[8] = {};

        assert_int_equal(md_read_arrays(&c->root, &c->set), 0);
        assert_int_equal(wakeup_sync(&w, &c->root, &c->set), 5);
        /* Made to look like the kernel's, so that poll() would be asked about them. */
        for (unsigned i = 0; i < w.n; i++)
                w.entries[i].file.kernel = true;
        w.complete = true;
        assert_int_equal(wakeup_count(&w), 5);
        wakeup_fill(&w, fds);
        for (unsigned i = 0; i < 5; i++)
                assert_int_equal(fds[i].events, POLLPRI);
        assert_false(wakeup_take(&w, fds));
        fds[1].revents = POLLPRI | POLLERR;
        assert_true(wakeup_take(&w, fds));
        assert_true(w.complete);
        /* A file whose read fails (a removed attribute: ENODEV) is closed until the next sync. */
        close(w.entries[2].file.fd);
        fds[2].revents = POLLPRI;
        fds[1].revents = 0;
        assert_true(wakeup_take(&w, fds));
        assert_false(w.complete);
        assert_int_equal(w.entries[2].file.fd, -1);
        assert_int_equal(wakeup_count(&w), 4);
        wakeup_free(&w);
}

static int setup(void **state) {
        return md_case_setup(state, "10-two-raid1-resync-delayed");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_tree_is_not_notified, setup, md_case_teardown),
                cmocka_unit_test_setup_teardown(test_gone_array_closed, setup, md_case_teardown),
                cmocka_unit_test_setup_teardown(test_missing_file_incomplete, setup, md_case_teardown),
                cmocka_unit_test_setup_teardown(test_kernel_file_kind, setup, md_case_teardown),
                cmocka_unit_test_setup_teardown(test_take, setup, md_case_teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
