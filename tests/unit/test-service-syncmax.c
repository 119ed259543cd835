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
        (void)state;
        if (md_fixture_new(&dir) < 0 || md_fixture_mkdir(dir, "proc") < 0 || md_root_open(dir, &root) < 0)
                return -1;
        return 0;
}

static int teardown(void **state) {
        (void)state;
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
        (void)state;
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

        (void)state;
        assert_int_equal(md_fixture_new(&d), 0);
        assert_int_equal(md_root_open(d, &r), 0);
        assert_true(syncmax_mdadm_running(&r) < 0);
        md_root_close(&r);
        md_fixture_rm(d);
        free(d);
}

/* A raid6 reshape in place, held by mdadm's sync_max at 65536 sectors. */
static md_array held_reshape(md_member m[4]) {
        md_array a = { .name = "md0", .metadata = MD_METADATA_NATIVE, .sync_action = MD_SYNC_RESHAPE };

        for (unsigned i = 0; i < 4; i++)
                m[i] = (md_member){ .slot = (int64_t)i,
                                    .role = MD_ROLE_IN_SYNC,
                                    .offset = { .kind = MD_V_NUMBER, .value = 4096 },
                                    .new_offset = { .kind = MD_V_NUMBER, .value = 4096 } };
        a.members = m;
        a.n_members = 4;
        a.tunables[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_NUMBER, .value = 65536 };
        a.reshape_position = (md_tval){ .kind = MD_V_NUMBER, .value = 196608 };
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 65536, .total = 2093056 };
        return a;
}

#define SEC 1000000ull

static void test_stuck_reshape(void **state) {
        syncmax_watch w = {};
        md_member m[4];
        md_array a = held_reshape(m);

        (void)state;
        assert_true(syncmax_at_limit(&a));
        /* At the limit: the clock starts; not stuck before a minute. */
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 100 * SEC, 60 * SEC));
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 159 * SEC, 60 * SEC));
        assert_string_equal(w.stuck, "");
        assert_true(syncmax_watch_update(&w, &a, 0, "/root/md0.backup", 160 * SEC, 60 * SEC));
        assert_string_equal(w.stuck, "The reshape of md0 has stopped at sync_max (sector 65536) and nothing "
                                     "drives it. Resume it safely with: mdadm --grow --continue /dev/md0 "
                                     "--backup-file=/root/md0.backup");
        /* Said once. */
        assert_false(syncmax_watch_update(&w, &a, 0, "/root/md0.backup", 161 * SEC, 60 * SEC));

        /* mdadm is back and steps sync_max on: no longer stuck. */
        assert_true(syncmax_watch_update(&w, &a, 1, NULL, 162 * SEC, 60 * SEC));
        assert_string_equal(w.stuck, "");
        a.tunables[MD_T_SYNC_MAX].value = 131072;
        assert_false(syncmax_at_limit(&a));
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 300 * SEC, 60 * SEC));

        /* Moving, then held again: the minute counts from the new stop. */
        a.progress.done = 131072;
        a.reshape_position.value = 393216;
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 400 * SEC, 60 * SEC));
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 459 * SEC, 60 * SEC));
        assert_true(syncmax_watch_update(&w, &a, 0, NULL, 460 * SEC, 60 * SEC));
        /* Without a recorded backup file, the command says which file it needs. */
        assert_non_null(strstr(w.stuck, "--backup-file=FILE (the backup file given to mdadm --grow)"));

        /* A frozen reshape that nothing drives is stuck too. */
        w = (syncmax_watch){};
        a.sync_action = MD_SYNC_FROZEN;
        a.progress = (md_progress){ .kind = MD_PROGRESS_NONE };
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 0, 60 * SEC));
        assert_true(syncmax_watch_update(&w, &a, 0, NULL, 60 * SEC, 60 * SEC));

        /* A reshape that moves the data offset resumes without a backup. */
        w = (syncmax_watch){};
        for (unsigned i = 0; i < 4; i++)
                m[i].new_offset.value = 1024;
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 0, 60 * SEC));
        assert_true(syncmax_watch_update(&w, &a, 0, NULL, 60 * SEC, 60 * SEC));
        /* mdadm --grow --continue does nothing for it: sync_max is lifted, and a frozen one unfrozen. */
        assert_non_null(strstr(w.stuck, "Resume it safely with: echo max > /sys/block/md0/md/sync_max && "
                                        "echo idle > /sys/block/md0/md/sync_action (it moves the data offset, "
                                        "so it needs no backup)"));
        assert_null(strstr(w.stuck, "backup-file"));
        w = (syncmax_watch){};
        a.sync_action = MD_SYNC_RESHAPE;
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 131072, .total = 2093056 };
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 0, 60 * SEC));
        assert_true(syncmax_watch_update(&w, &a, 0, NULL, 60 * SEC, 60 * SEC));
        assert_non_null(strstr(w.stuck, "Resume it safely with: echo max > /sys/block/md0/md/sync_max (it moves"));

        /* A resync held by an admin's sync_max is not a reshape: never stuck. */
        w = (syncmax_watch){};
        a.sync_action = MD_SYNC_RESYNC;
        a.reshape_position = (md_tval){ .kind = MD_V_NONE };
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 65536, .total = 2093056 };
        a.tunables[MD_T_SYNC_MAX].value = 65536;
        assert_false(syncmax_at_limit(&a));
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 0, 60 * SEC));
        assert_false(syncmax_watch_update(&w, &a, 0, NULL, 600 * SEC, 60 * SEC));
}

static void test_backup_file(void **state) {
        char buf[256];

        (void)state;
        assert_int_equal(syncmax_backup_file(&root, "md0", buf, sizeof(buf)), -ENOENT);
        assert_int_equal(md_fixture_symlink(dir, "run/mdadm/backup_file-md0", "/root/md0.backup"), 0);
        assert_int_equal(syncmax_backup_file(&root, "md0", buf, sizeof(buf)), 0);
        assert_string_equal(buf, "/root/md0.backup");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_mdadm_running, setup, teardown),
                cmocka_unit_test(test_no_proc_is_unknown),
                cmocka_unit_test(test_stuck_reshape),
                cmocka_unit_test_setup_teardown(test_backup_file, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
