/* SPDX-License-Identifier: MIT */
/*
 * hdd-random-rate: the model's rate of random reads kept some requests deep,
 * for tests/vm/suite-hdd.sh to hold the plugin to (the plugin serves what a
 * guest sends; this says what the model alone gives).
 *
 *   hdd-random-rate SIZE COUNT DEPTH fifo|ncq [AGE_MS]
 *
 * prints reads a second on the real disk (divide by the scale for the VM).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdd-model.h"

/* @s as a whole number from @min to @max. */
static int number(const char *s, unsigned long long min, unsigned long long max, unsigned long long *ret) {
        char *end;
        unsigned long long v;

        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v < min || v > max)
                return -EINVAL;
        *ret = v;
        return 0;
}

int main(int argc, char **argv) {
        unsigned long long size, count, depth, age = 500;

        if (argc < 5 || argc > 6 || number(argv[1], 1, UINT64_MAX, &size) < 0 ||
            number(argv[2], 1, UINT32_MAX, &count) < 0 || number(argv[3], 1, 64, &depth) < 0 ||
            (strcmp(argv[4], "fifo") != 0 && strcmp(argv[4], "ncq") != 0) ||
            (argc == 6 && number(argv[5], 0, 3600000, &age) < 0)) {
                fprintf(stderr, "usage: hdd-random-rate SIZE COUNT DEPTH(1-64) fifo|ncq [AGE_MS]\n");
                return 2;
        }
        printf("%.3f\n", hdd_random_rate(size, (uint32_t)count, (size_t)depth, strcmp(argv[4], "ncq") == 0, (double)age,
                                         200000, 1));
        return 0;
}
