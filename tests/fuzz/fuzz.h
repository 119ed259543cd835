/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Each harness here defines LLVMFuzzerTestOneInput. Built with clang's
 * -fsanitize=fuzzer it is a libFuzzer target (make fuzz); linked with
 * replay.c instead, any compiler builds it into a program that runs every
 * file of a corpus once (make check replays the corpora under ASan and
 * UBSan). A harness must never keep state between inputs.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input, for the parsers that take C strings. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size) {
        char *s = malloc(size + 1);

        if (!s)
                abort();
        memcpy(s, data, size);
        s[size] = 0;
        return s;
}
