/* SPDX-License-Identifier: MIT */
/*
 * nbdkit-mdboost-hdd-plugin: serves a file as the hard disk of hdd-model.h.
 *
 *   nbdkit --unix SOCKET build/diskmodel/nbdkit-mdboost-hdd-plugin.so \
 *          file=DISK.img [scale=10] [seed=N] [queue=fifo|ncq] [age=500]
 *
 * Each request takes the model's time multiplied by scale: at scale=10 the
 * disk seeks ten times slower and transfers ten times slower (8.2 MB/s on
 * its outer zone), so an emulated CPU keeps up with it while seeking costs
 * what it costs on the real disk against the same transfer. One request is
 * served at a time, across every connection: in the order they arrive
 * (queue=fifo, a disk without command queueing), or, as a SATA disk with
 * NCQ does, the queued one it reaches soonest, waiting counted against
 * reaching (queue=ncq, hdd_next()).
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hdd-model.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

static char *filename;
static unsigned scale = 10;
static uint64_t seed = 1;
static bool ncq;              /* queue=ncq: the queued request the head reaches soonest first */
static uint64_t age_ms = 500; /* queue=ncq: waiting this long (the real disk's ms) outweighs any seek */
static int fd = -1;
static hdd_disk disk;
static pthread_cond_t disk_free; /* queue=ncq: the actuator took a request */

/* The queue's waits end at times of the model's timeline, CLOCK_MONOTONIC. */
static void hdd_load(void) {
        pthread_condattr_t attr;

        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_init(&disk_free, &attr);
        pthread_condattr_destroy(&attr);
}

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
        if (strcmp(key, "queue") == 0) {
                if (strcmp(value, "fifo") != 0 && strcmp(value, "ncq") != 0) {
                        nbdkit_error("queue is fifo or ncq, not '%s'", value);
                        return -1;
                }
                ncq = strcmp(value, "ncq") == 0;
                return 0;
        }
        if (strcmp(key, "age") == 0)
                return nbdkit_parse_uint64_t("age", value, &age_ms);
        nbdkit_error("unknown parameter '%s' (file=, scale=, seed=, queue=, age=)", key);
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

/*
 * The disk's own timeline. nbdkit hands every request to the plugin as it
 * arrives (the parallel thread model), so the moment a request is queued
 * here is its arrival at the disk. queue=fifo serves them one after the
 * other in that order: a request that arrives while the disk is busy starts
 * when the one before it ends by the model, not when this process got round
 * to answering that one (a busy host may wake a sleep late; a real disk
 * does not wait for its host to read one answer before serving the next).
 * Two requests the guest sent together may reach the model the other way
 * round (nbdkit's threads race for the lock); the model serves the late
 * one from what the platter turned past, and it ends with the queue ahead
 * of it.
 */
static pthread_mutex_t disk_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t busy_until; /* CLOCK_MONOTONIC ns the last queued request ends */

/* queue=fifo: queues a request arriving now; returns when it ends by the model. */
static uint64_t queue_fifo(uint32_t count, uint64_t offset) {
        uint64_t arrival = now_nsec(), start, end;
        double ms;

        pthread_mutex_lock(&disk_lock);
        ms = hdd_request_ms(&disk, offset, count) * scale;
        start = arrival > busy_until ? arrival : busy_until;
        end = start + (uint64_t)(ms * 1e6);
        busy_until = end;
        pthread_mutex_unlock(&disk_lock);
        return end;
}

/*
 * queue=ncq: the requests wait in the disk's queue in the order they
 * arrived. Each time the actuator is free by the model's timeline, it takes
 * of those that had arrived by then the one hdd_next() picks. Whoever holds
 * the lock makes the choices that are due; a request not yet chosen waits
 * until the actuator is next free, so a late wake-up changes when the host
 * answers, never what the disk chose or when by the model.
 */

/* SATA's NCQ holds 32 commands (qemu's NBD client sends at most 16 at once). */
#define QUEUE_MAX 32

typedef struct waiting {
        uint64_t arrival, offset, end;
        uint32_t count;
        bool served;
        struct waiting *next;
} waiting;

static waiting *queued; /* arrival order */

/* The requests that had arrived by @at, as the disk's queue then, and which it takes. */
static waiting **choose(uint64_t at) {
        hdd_queued q[QUEUE_MAX];
        waiting **from[QUEUE_MAX];
        size_t n = 0;

        for (waiting **w = &queued; *w && (*w)->arrival <= at && n < QUEUE_MAX; w = &(*w)->next) {
                q[n] = (hdd_queued){ .offset = (*w)->offset,
                                     .count = (*w)->count,
                                     .waited_ms = (double)(at - (*w)->arrival) / 1e6 / scale };
                from[n++] = w;
        }
        return from[hdd_next(&disk, q, n, (double)age_ms)];
}

static void dispatch(uint64_t now) {
        while (queued) {
                uint64_t at = queued->arrival > busy_until ? queued->arrival : busy_until;
                waiting **w, *r;

                if (at > now)
                        break;
                w = choose(at);
                r = *w;
                *w = r->next;
                r->end = at + (uint64_t)(hdd_request_ms(&disk, r->offset, r->count) * scale * 1e6);
                r->served = true;
                busy_until = r->end;
                pthread_cond_broadcast(&disk_free);
        }
}

static uint64_t queue_ncq(uint32_t count, uint64_t offset) {
        waiting r = { .offset = offset, .count = count }, **tail;

        pthread_mutex_lock(&disk_lock);
        r.arrival = now_nsec(); /* under the lock: the queue stays in arrival order */
        for (tail = &queued; *tail; tail = &(*tail)->next)
                ;
        *tail = &r;
        for (;;) {
                struct timespec until;

                dispatch(now_nsec());
                if (r.served)
                        break;
                until.tv_sec = (time_t)(busy_until / 1000000000u);
                until.tv_nsec = (long)(busy_until % 1000000000u);
                pthread_cond_timedwait(&disk_free, &disk_lock, &until);
        }
        pthread_mutex_unlock(&disk_lock);
        return r.end;
}

static uint64_t queue(uint32_t count, uint64_t offset) {
        return ncq ? queue_ncq(count, offset) : queue_fifo(count, offset);
}

/* Sleeps until @end, the request's end by the model. */
static int serve(uint64_t end) {
        uint64_t now = now_nsec();

        if (now >= end)
                return 0;
        return nbdkit_nanosleep((end - now) / 1000000000u, (end - now) % 1000000000u);
}

static int hdd_pread(void *handle, void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        uint64_t end = queue(count, offset);
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
        return serve(end);
}

static int hdd_pwrite(void *handle, const void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        uint64_t end = queue(count, offset);
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
        return serve(end);
}

static struct nbdkit_plugin plugin = {
        .name = "mdboost-hdd",
        .longname = "mdboost's modelled 7200 rpm hard disk",
        .version = "1",
        .description = "Serves a file as a 7200 rpm disk that seeks, turns and transfers slower inward",
        .load = hdd_load,
        .unload = hdd_unload,
        .config = hdd_config,
        .config_complete = hdd_config_complete,
        .config_help = "file=<PATH>     (required) the disk's contents; its size is the disk's\n"
                       "scale=<N>       every time multiplied by N (default 10)\n"
                       "seed=<N>        the rotational draws' seed (default 1)\n"
                       "queue=fifo|ncq  in arrival order, or the one the head reaches soonest (default fifo)\n"
                       "age=<MS>        queue=ncq: waiting MS (the real disk's) outweighs any seek (default 500)",
        .magic_config_key = "file",
        .errno_is_preserved = 1, /* pread and pwrite leave errno for the client */
        .open = hdd_open,
        .get_size = hdd_get_size,
        .pread = hdd_pread,
        .pwrite = hdd_pwrite,
};

NBDKIT_REGISTER_PLUGIN(plugin)
