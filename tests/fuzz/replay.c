/* SPDX-License-Identifier: MIT */
/*
 * Runs a fuzz harness once over each file named on the command line, or each
 * file in each folder named there, or (without arguments) over its seed
 * corpus FUZZ_CORPUS: a corpus replayed without libFuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path) {
        FILE *f = fopen(path, "rbe");
        uint8_t *buf;
        long len;

        if (!f) {
                perror(path);
                return 1;
        }
        if (fseek(f, 0, SEEK_END) < 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0) {
                fclose(f);
                return 1;
        }
        buf = malloc((size_t)len + 1);
        if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
                fclose(f);
                free(buf);
                return 1;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, (size_t)len);
        free(buf);
        return 0;
}

int main(int argc, char **argv) {
        char *corpus[] = { argv[0], (char *)FUZZ_CORPUS, NULL };
        unsigned n = 0;
        int failed = 0;

        if (argc < 2) {
                argv = corpus;
                argc = 2;
        }
        for (int i = 1; i < argc; i++) {
                struct stat st;
                DIR *d;
                struct dirent *de;

                if (stat(argv[i], &st) < 0) {
                        perror(argv[i]);
                        return 1;
                }
                if (!S_ISDIR(st.st_mode)) {
                        failed |= run_file(argv[i]);
                        n++;
                        continue;
                }
                d = opendir(argv[i]);
                if (!d)
                        return 1;
                while ((de = readdir(d))) {
                        char path[4096];

                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
                        failed |= run_file(path);
                        n++;
                }
                closedir(d);
        }
        printf("%s: %u inputs replayed\n", argv[0], n);
        return failed || n == 0;
}
