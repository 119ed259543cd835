/* SPDX-License-Identifier: MIT */
/*
 * CPU cost of the mdraid plugin's read callback, and heap growth across reads.
 *
 *   plugin-bench ROOT READS
 *
 * Loads the plugin through the mock daemon with RootDir ROOT, reads once to
 * warm up, then READS times, and prints the process CPU time per read and
 * per array per read, and the heap in use after the warm-up and at the end.
 * Then runs the same reads again with the library's I/O replayed from memory,
 * so the plugin's own share shows. Exits 1 if the heap grew or a read failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../unit/collectd-mock.h"
#include "array.h"
#include "mdstat.h"

static double cpu_seconds(void) {
        struct timespec ts;

        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int parse_reads(const char *s, unsigned long *ret) {
        char *end;
        unsigned long n;

        errno = 0;
        n = strtoul(s, &end, 10);
        if (errno != 0 || end == s || *end != '\0' || n == 0)
                return -EINVAL;
        *ret = n;
        return 0;
}

/*
 * The library's three reading calls are wrapped (-Wl,--wrap): in replay mode
 * they return the previous read's data untouched, so the same read callback
 * runs without any I/O and its time is the plugin's own work.
 */
int __real_md_read_arrays_of(const md_root *r, md_array_set *set, uint64_t attrs);
int __real_md_read_globals(const md_root *r, md_globals *ret);
int __real_md_read_mdstat(const md_root *r, md_mdstat *m);

static bool replay;
static md_globals replay_globals;

int __wrap_md_read_arrays_of(const md_root *r, md_array_set *set, uint64_t attrs);
int __wrap_md_read_arrays_of(const md_root *r, md_array_set *set, uint64_t attrs) {
        return replay ? 0 : __real_md_read_arrays_of(r, set, attrs);
}

int __wrap_md_read_mdstat(const md_root *r, md_mdstat *m);
int __wrap_md_read_mdstat(const md_root *r, md_mdstat *m) {
        return replay ? 0 : __real_md_read_mdstat(r, m);
}

int __wrap_md_read_globals(const md_root *r, md_globals *ret);
int __wrap_md_read_globals(const md_root *r, md_globals *ret) {
        int k;

        if (replay) {
                *ret = replay_globals;
                return 0;
        }
        k = __real_md_read_globals(r, ret);
        if (k == 0)
                replay_globals = *ret;
        return k;
}

/* CPU seconds for @reads calls of the read callback. */
static int time_reads(unsigned long reads, double *ret) {
        double t0 = cpu_seconds();

        for (unsigned long i = 0; i < reads; i++)
                if (mock.read() != 0)
                        return -EIO;
        *ret = cpu_seconds() - t0;
        return 0;
}

int main(int argc, char **argv) {
        mock_config_item c;
        unsigned long reads;
        size_t arrays, heap_before, heap_after;
        double total, own;

        if (argc != 3 || parse_reads(argv[2], &reads) < 0) {
                fprintf(stderr, "usage: %s ROOT READS\n", argv[0]);
                return 2;
        }
        mock.unchecked = true;
        module_register();
        mock_config_init(&c, "mdraid");
        mock_config_add_string(&c, "RootDir", argv[1]);
        if (mock.config(&c.block) != 0 || mock.init() != 0 || mock.read() != 0)
                return 1;

        /* every array dispatches md_disks-active exactly once per read */
        arrays = 0;
        for (size_t i = 0; i < mock.n_values; i++)
                if (strcmp(mock.values[i].type_instance, "active") == 0)
                        arrays++;
        if (arrays == 0 || mock.n_logs != 0) {
                fprintf(stderr, "%s: %zu arrays, %zu log lines: not a clean tree\n", argv[1], arrays, mock.n_logs);
                return 1;
        }

        heap_before = mallinfo2().uordblks;
        if (time_reads(reads, &total) < 0)
                return 1;
        replay = true;
        if (time_reads(reads, &own) < 0)
                return 1;
        heap_after = mallinfo2().uordblks;
        mock.shutdown();

        total *= 1e6 / (double)reads;
        own *= 1e6 / (double)reads;
        printf("%3zu arrays  %6lu reads  %8.1f us/read  %6.1f us/array/read"
               " (plugin's own work %4.1f, library reading %6.1f)  heap %zu -> %zu bytes\n",
               arrays, reads, total, total / (double)arrays, own / (double)arrays, (total - own) / (double)arrays,
               heap_before, heap_after);
        return heap_after > heap_before ? 1 : 0;
}
