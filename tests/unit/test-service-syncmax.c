/* SPDX-License-Identifier: MIT */
/* Who may be driving an array: the mdadm processes under a root's proc/. */

#include <errno.h>
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

#include "md-fixture.h"
#include "syncmax.h"

static char *dir;
static md_root root = MD_ROOT_NULL;

static int setup(void **state) {
        (void) state;
        if (md_fixture_new(&dir) < 0 || md_fixture_mkdir(dir, "proc") < 0 || md_root_open(dir, &root) < 0)
                return -1;
        return 0;
}

static int teardown(void **state) {
        (void) state;
        md_root_close(&root);
        md_fixture_rm(dir);
        free(dir);
        return 0;
}

/* A process @pid named @comm with @args (NUL-separated, as the kernel shows them). */
static void process(const char *pid, const char *comm, const char *args, size_t len) {
        char rel[64], path[4096];
        FILE *f;

        snprintf(rel, sizeof(rel), "proc/%s", pid);
        assert_int_equal(md_fixture_mkdir(dir, rel), 0);
        snprintf(rel, sizeof(rel), "proc/%s/comm", pid);
        assert_int_equal(md_fixture_write(dir, rel, comm), 0);
        snprintf(path, sizeof(path), "%s/proc/%s/cmdline", dir, pid);
        f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(args, 1, len, f), len);
        fclose(f);
}

#define ARGS(s) s, sizeof(s) - 1

static void test_mdadm_running(void **state) {
        (void) state;
        assert_int_equal(syncmax_mdadm_running(&root), 0);

        process("1", "init\n", ARGS("/sbin/init\0"));
        process("77", "bash\n", ARGS("bash\0-c\0mdadm --grow\0"));
        assert_int_equal(syncmax_mdadm_running(&root), 0);

        /* Debian's mdmonitor: watches, never drives. */
        process("313", "mdadm\n", ARGS("/sbin/mdadm\0--monitor\0--scan\0"));
        process("314", "mdadm\n", ARGS("mdadm\0-F\0--scan\0"));
        assert_int_equal(syncmax_mdadm_running(&root), 0);

        /* mdadm-grow-continue@md0.service, or the --grow that forked it. */
        process("4242", "mdadm\n", ARGS("/sbin/mdadm\0--grow\0--continue\0/dev/md0\0"));
        assert_int_equal(syncmax_mdadm_running(&root), 1);
        md_fixture_remove(dir, "proc/4242");
        assert_int_equal(syncmax_mdadm_running(&root), 0);

        /* Its command line cannot be read: it may be driving. */
        process("4243", "mdadm\n", ARGS(""));
        md_fixture_remove(dir, "proc/4243/cmdline");
        assert_int_equal(md_fixture_mkdir(dir, "proc/4243/cmdline"), 0);
        assert_int_equal(syncmax_mdadm_running(&root), 1);
}

static void test_no_proc_is_unknown(void **state) {
        md_root r;
        char *d;

        (void) state;
        assert_int_equal(md_fixture_new(&d), 0);
        assert_int_equal(md_root_open(d, &r), 0);
        assert_true(syncmax_mdadm_running(&r) < 0);
        md_root_close(&r);
        md_fixture_rm(d);
        free(d);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_mdadm_running, setup, teardown),
                cmocka_unit_test(test_no_proc_is_unknown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
