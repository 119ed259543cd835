/* SPDX-License-Identifier: MIT */
/*
 * nbdkit-mdboost-hdd-plugin: serves a file as the hard disk of hdd-model.h.
 *
 *   nbdkit --unix SOCKET build/diskmodel/nbdkit-mdboost-hdd-plugin.so \
 *          file=DISK.img [scale=10] [seed=N]
 *
 * Each request takes the model's time multiplied by scale: at scale=10 the
 * disk seeks ten times slower and transfers ten times slower (8.2 MB/s on
 * its outer zone), so an emulated CPU keeps up with it while seeking costs
 * what it costs on the real disk against the same transfer. One request is
 * served at a time, across every connection, as one actuator does.
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hdd-model.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_SERIALIZE_REQUESTS

static char *filename;
static unsigned scale = 10;
static uint64_t seed = 1;
static int fd = -1;
static hdd_disk disk;

static void hdd_unload(void) {
        if (fd >= 0)
                close(fd);
        free(filename);
}

static int hdd_config(const char *key, const char *value) {
        if (strcmp(key, "file") == 0) {
                free(filename);
                filename = nbdkit_absolute_path(value);
                return filename ? 0 : -1;
        }
        if (strcmp(key, "scale") == 0) {
                if (nbdkit_parse_unsigned("scale", value, &scale) < 0)
                        return -1;
                if (scale == 0 || scale > 1000) {
                        nbdkit_error("scale must be 1 to 1000, not %u", scale);
                        return -1;
                }
                return 0;
        }
        if (strcmp(key, "seed") == 0)
                return nbdkit_parse_uint64_t("seed", value, &seed);
        nbdkit_error("unknown parameter '%s' (file=, scale=, seed=)", key);
        return -1;
}

static int hdd_config_complete(void) {
        struct stat st;

        if (!filename) {
                nbdkit_error("file=DISK.img is required");
                return -1;
        }
        fd = open(filename, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
                nbdkit_error("open %s: %m", filename);
                return -1;
        }
        if (fstat(fd, &st) < 0) {
                nbdkit_error("fstat %s: %m", filename);
                return -1;
        }
        if (st.st_size <= 0) {
                nbdkit_error("%s is empty: the disk's size is the file's", filename);
                return -1;
        }
        hdd_init(&disk, (uint64_t)st.st_size, seed);
        return 0;
}

static void *hdd_open(int readonly) {
        (void)readonly;
        return &disk;
}

static int64_t hdd_get_size(void *handle) {
        (void)handle;
        return (int64_t)disk.size;
}

static uint64_t now_nsec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps until @start plus the model's time for the request, scaled. */
static int serve(uint64_t start, uint32_t count, uint64_t offset) {
        double ms = hdd_request_ms(&disk, offset, count) * scale;
        uint64_t end = start + (uint64_t)(ms * 1e6), now = now_nsec();

        if (now >= end)
                return 0;
        return nbdkit_nanosleep((end - now) / 1000000000u, (end - now) % 1000000000u);
}

static int hdd_pread(void *handle, void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        uint64_t start = now_nsec();
        char *p = buf;

        (void)handle;
        (void)flags;
        for (uint32_t done = 0; done < count;) {
                ssize_t n = pread(fd, p + done, count - done, (off_t)(offset + done));
                if (n < 0) {
                        nbdkit_error("pread at %" PRIu64 ": %m", offset + done);
                        return -1;
                }
                if (n == 0) {
                        memset(p + done, 0, count - done);
                        break;
                }
                done += (uint32_t)n;
        }
        return serve(start, count, offset);
}

static int hdd_pwrite(void *handle, const void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        uint64_t start = now_nsec();
        const char *p = buf;

        (void)handle;
        (void)flags;
        for (uint32_t done = 0; done < count;) {
                ssize_t n = pwrite(fd, p + done, count - done, (off_t)(offset + done));
                if (n <= 0) {
                        if (n == 0)
                                errno = EIO;
                        nbdkit_error("pwrite at %" PRIu64 ": %m", offset + done);
                        return -1;
                }
                done += (uint32_t)n;
        }
        return serve(start, count, offset);
}

static struct nbdkit_plugin plugin = {
        .name = "mdboost-hdd",
        .longname = "mdboost's modelled 7200 rpm hard disk",
        .version = "1",
        .description = "Serves a file as a 7200 rpm disk that seeks, turns and transfers slower inward",
        .unload = hdd_unload,
        .config = hdd_config,
        .config_complete = hdd_config_complete,
        .config_help = "file=<PATH>     (required) the disk's contents; its size is the disk's\n"
                       "scale=<N>       every time multiplied by N (default 10)\n"
                       "seed=<N>        the rotational draws' seed (default 1)",
        .magic_config_key = "file",
        .errno_is_preserved = 1, /* pread and pwrite leave errno for the client */
        .open = hdd_open,
        .get_size = hdd_get_size,
        .pread = hdd_pread,
        .pwrite = hdd_pwrite,
};

NBDKIT_REGISTER_PLUGIN(plugin)
