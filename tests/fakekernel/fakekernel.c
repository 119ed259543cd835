/* SPDX-License-Identifier: MIT */
/*
 * A fake md kernel behind md_root_write, for tests that run on fixture trees.
 *
 * Linked with -Wl,--wrap=md_root_write, every write the library makes goes
 * through __wrap_md_root_write, which does what Linux 6.1's store methods do
 * with the value (refuse it, or turn it into what the attribute then reads)
 * and writes the resulting file content with the real md_root_write. So
 * writing "50000" to sync_speed_min leaves "50000 (local)" in the fixture,
 * as the kernel would show it, and "0" is refused with EINVAL.
 *
 * MDBOOST_FAKEKERNEL_FAIL="rel=ERRNO[,rel=ERRNO...]" makes the writes to
 * those paths fail with that errno (a name such as EIO, or a number), to
 * test how callers handle a kernel refusal; "rel=ERRNO:N" lets the first N
 * writes to that path work and fails the later ones.
 *
 * ENOMEM for stripe_cache_size fails only a write that grows the cache,
 * and leaves it half way, as md does: raid5_set_cache_size keeps the
 * stripes it could allocate; shrinking needs no memory.
 *
 * MDBOOST_FAKEKERNEL_CRASH_AFTER="rel=VALUE" kills the process with SIGKILL
 * right after the kernel took VALUE at that path: the power cut between a
 * write and whatever the caller meant to do next.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "root.h"

int __real_md_root_write(const md_root *r, const char *rel, const char *value);
int __wrap_md_root_write(const md_root *r, const char *rel, const char *value);

#define GLOBAL_MIN "proc/sys/dev/raid/speed_limit_min"
#define GLOBAL_MAX "proc/sys/dev/raid/speed_limit_max"
#define GLOBAL_IO_DEPTH "proc/sys/dev/raid/sync_io_depth" /* Linux 6.16+ */
#define OUT_MAX 128

/* A store method: 0 and the new file content in @out, or the negative errno the kernel returns. */
typedef int (*store_fn)(const md_root *r, const char *rel, const char *value, char *out);

/* kstrtoull: optional '+', decimal digits, one optional trailing newline. */
static int kstrtoull(const char *s, unsigned long long *ret) {
        unsigned long long v = 0;
        const char *p = s;

        if (*p == '+')
                p++;
        if (*p < '0' || *p > '9')
                return -EINVAL;
        for (; *p >= '0' && *p <= '9'; p++) {
                unsigned d = (unsigned)(*p - '0');

                if (v > (ULLONG_MAX - d) / 10)
                        return -ERANGE;
                v = v * 10 + d;
        }
        if (*p == '\n')
                p++;
        if (*p != '\0')
                return -EINVAL;
        *ret = v;
        return 0;
}

/* proc_dointvec: an optional sign, then an int. */
static int dointvec(const char *s, long long *ret) {
        unsigned long long v;
        bool neg = s[0] == '-';
        int k;

        k = kstrtoull(neg ? s + 1 : s, &v);
        if (k < 0)
                return -EINVAL;
        if (v > (unsigned long long)INT_MAX + (neg ? 1 : 0))
                return -EINVAL;
        *ret = neg ? -(long long)v : (long long)v;
        return 0;
}

/* cmd_match: the word, optionally followed by a newline. */
static bool cmd_match(const char *value, const char *word) {
        size_t n = strlen(word);

        return strncmp(value, word, n) == 0 && (value[n] == '\0' || strcmp(value + n, "\n") == 0);
}

static int read_global(const md_root *r, const char *rel, unsigned long long fallback, long long *ret) {
        char buf[64];
        ssize_t n;

        n = md_root_read(r, rel, buf, sizeof(buf));
        if (n < 0) {
                *ret = (long long)fallback;
                return 0;
        }
        return dointvec(buf, ret);
}

/*
 * sync_speed_min/max_store: "system" (a prefix match in the kernel) drops the
 * array's own value and the attribute shows the global sysctl; a number must
 * be a positive unsigned int. The show method prints "%d (local|system)".
 */
static int store_speed(const md_root *r, const char *value, char *out, const char *global,
                       unsigned long long fallback) {
        unsigned long long v;
        long long g;
        int k;

        if (strncmp(value, "system", 6) == 0) {
                k = read_global(r, global, fallback, &g);
                if (k < 0)
                        return -EIO;
                snprintf(out, OUT_MAX, "%d (system)\n", (int)g);
                return 0;
        }
        if (kstrtoull(value, &v) < 0 || v > UINT_MAX || v == 0)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%d (local)\n", (int)(unsigned)v);
        return 0;
}

static int store_speed_min(const md_root *r, const char *rel, const char *value, char *out) {
        (void)rel;
        return store_speed(r, value, out, GLOBAL_MIN, 1000);
}

static int store_speed_max(const md_root *r, const char *rel, const char *value, char *out) {
        (void)rel;
        return store_speed(r, value, out, GLOBAL_MAX, 200000);
}

/* sync_io_depth_store (Linux 6.16+): the same rules and format as the speed limits. */
static int store_io_depth(const md_root *r, const char *rel, const char *value, char *out) {
        (void)rel;
        return store_speed(r, value, out, GLOBAL_IO_DEPTH, 32);
}

/* raid5_set_cache_size: refuses size <= 16 and size > 32768. */
static int store_stripe_cache(const md_root *r, const char *rel, const char *value, char *out) {
        unsigned long long v;

        (void)r, (void)rel;
        if (kstrtoull(value, &v) < 0 || v <= 16 || v > 32768)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%llu\n", v);
        return 0;
}

/* raid5_store_group_thread_cnt: an unsigned int, at most 8192. */
static int store_group_threads(const md_root *r, const char *rel, const char *value, char *out) {
        unsigned long long v;

        (void)r, (void)rel;
        if (kstrtoull(value, &v) < 0 || v > 8192)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%llu\n", v);
        return 0;
}

/* A sibling of @rel ("sys/block/md0/md/sync_action") by name, into @buf; false when unreadable. */
static bool read_sibling(const md_root *r, const char *rel, const char *name, char *buf, size_t size) {
        char path[PATH_MAX];
        const char *slash = strrchr(rel, '/');
        ssize_t n;

        if (!slash)
                return false;
        snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - rel), rel, name);
        n = md_root_read(r, path, buf, size);
        return n > 0;
}

/* The sibling md/sync_action of @rel ("sys/block/md0/md/sync_max") reads reshape. */
static bool reshaping(const md_root *r, const char *rel) {
        char buf[64];

        return read_sibling(r, rel, "sync_action", buf, sizeof(buf)) && cmd_match(buf, "reshape");
}

/*
 * max_sync_store: "max" (prefix match) always; a number moves the limit,
 * which the kernel refuses with EBUSY while a reshape runs, and with EINVAL
 * unless it is a multiple of the array's chunk (md/chunk_size, bytes; 0 on
 * raid1 takes any number), as 6.1 and 7.3 do.
 */
static int store_sync_max(const md_root *r, const char *rel, const char *value, char *out) {
        unsigned long long v, chunk = 0;
        char buf[64];

        if (strncmp(value, "max", 3) == 0) {
                snprintf(out, OUT_MAX, "max\n");
                return 0;
        }
        if (kstrtoull(value, &v) < 0)
                return -EINVAL;
        if (reshaping(r, rel))
                return -EBUSY;
        if (read_sibling(r, rel, "chunk_size", buf, sizeof(buf)) && sscanf(buf, "%llu", &chunk) == 1 && chunk >= 512 &&
            v % (chunk / 512) != 0)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%llu\n", v);
        return 0;
}

/* min_sync_store: a number, rounded down to a multiple of 8 sectors (4 KiB). */
static int store_sync_min(const md_root *r, const char *rel, const char *value, char *out) {
        unsigned long long v;

        (void)r, (void)rel;
        if (kstrtoull(value, &v) < 0)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%llu\n", v & ~7ull);
        return 0;
}

/* queue/read_ahead_kb: kstrtoul. */
static int store_number(const md_root *r, const char *rel, const char *value, char *out) {
        unsigned long long v;

        (void)r, (void)rel;
        if (kstrtoull(value, &v) < 0)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%llu\n", v);
        return 0;
}

/* proc_dointvec: any int, no range check. */
static int store_sysctl(const md_root *r, const char *rel, const char *value, char *out) {
        long long v;

        (void)r, (void)rel;
        if (dointvec(value, &v) < 0)
                return -EINVAL;
        snprintf(out, OUT_MAX, "%lld\n", v);
        return 0;
}

static void write_sibling(const md_root *r, const char *rel, const char *name, const char *value) {
        char path[PATH_MAX];
        const char *slash = strrchr(rel, '/');

        snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - rel), rel, name);
        (void)__real_md_root_write(r, path, value);
}

/*
 * What md does to a check or repair around action_store: "idle" or
 * "frozen" interrupts it, sync_min keeping where it stopped (6.12 and
 * later) and sync_completed reading none; "check" or "repair" on an idle
 * array starts one from sync_min, its total the member size in sectors,
 * mismatch_cnt counting afresh.
 */
static void check_moves(const md_root *r, const char *rel, const char *now, const char *word) {
        char buf[128], text[64];
        unsigned long long done, total, kib;

        if ((cmd_match(word, "idle") || cmd_match(word, "frozen")) &&
            (cmd_match(now, "check") || cmd_match(now, "repair"))) {
                if (read_sibling(r, rel, "sync_completed", buf, sizeof(buf)) &&
                    sscanf(buf, "%llu / %llu", &done, &total) == 2) {
                        snprintf(text, sizeof(text), "%llu\n", done);
                        write_sibling(r, rel, "sync_min", text);
                }
                write_sibling(r, rel, "sync_completed", "none\n");
        } else if ((cmd_match(word, "check") || cmd_match(word, "repair")) && cmd_match(now, "idle")) {
                if (!read_sibling(r, rel, "sync_min", buf, sizeof(buf)) || sscanf(buf, "%llu", &done) != 1)
                        done = 0;
                if (!read_sibling(r, rel, "component_size", buf, sizeof(buf)) || sscanf(buf, "%llu", &kib) != 1)
                        kib = 0;
                snprintf(text, sizeof(text), "%llu / %llu\n", done, kib * 2);
                write_sibling(r, rel, "sync_completed", text);
                write_sibling(r, rel, "mismatch_cnt", "0\n");
                write_sibling(r, rel, "last_sync_action", word);
        }
}

/* action_store: the words sync_action shows; the kernel starts or stops the thread. */
static int store_sync_action(const md_root *r, const char *rel, const char *value, char *out) {
        static const char *const words[] = { "idle", "frozen", "resync", "recover", "check", "repair", "reshape" };
        char now[32] = "";

        for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
                if (cmd_match(value, words[i])) {
                        if (md_root_read(r, rel, now, sizeof(now)) > 0)
                                check_moves(r, rel, now, words[i]);
                        snprintf(out, OUT_MAX, "%s\n", words[i]);
                        return 0;
                }
        return -EINVAL;
}

/* What the kernel does per attribute. Paths ending in @suffix (or equal to it for globals). */
static const struct store_rule {
        const char *suffix;
        bool exact;
        store_fn store;
} rules[] = {
        { "/md/sync_speed_min", false, store_speed_min },
        { "/md/sync_speed_max", false, store_speed_max },
        { "/md/sync_io_depth", false, store_io_depth },
        { "/md/stripe_cache_size", false, store_stripe_cache },
        { "/md/group_thread_cnt", false, store_group_threads },
        { "/md/sync_max", false, store_sync_max },
        { "/md/sync_min", false, store_sync_min },
        { "/md/sync_action", false, store_sync_action },
        { "/queue/read_ahead_kb", false, store_number },
        { GLOBAL_MIN, true, store_sysctl },
        { GLOBAL_MAX, true, store_sysctl },
        { GLOBAL_IO_DEPTH, true, store_sysctl },
};

static const struct store_rule *find_rule(const char *rel) {
        size_t len = strlen(rel);

        for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
                size_t n = strlen(rules[i].suffix);

                if (rules[i].exact ? strcmp(rel, rules[i].suffix) == 0
                                   : len > n && strcmp(rel + len - n, rules[i].suffix) == 0)
                        return &rules[i];
        }
        return NULL;
}

static int errno_from_name(const char *s) {
        static const struct {
                const char *name;
                int value;
        } names[] = {
                { "EPERM", EPERM },   { "ENOENT", ENOENT },   { "EIO", EIO },       { "ENXIO", ENXIO },
                { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },   { "EACCES", EACCES }, { "EBUSY", EBUSY },
                { "ENODEV", ENODEV }, { "EINVAL", EINVAL },   { "ENOSPC", ENOSPC }, { "EROFS", EROFS },
                { "ERANGE", ERANGE }, { "ENODATA", ENODATA },
        };
        char *end;
        long v;

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (strcmp(s, names[i].name) == 0)
                        return names[i].value;
        errno = 0;
        v = strtol(s, &end, 10);
        if (errno != 0 || end == s || *end != '\0' || v <= 0 || v > 4095)
                return EIO;
        return (int)v;
}

/*
 * Writes seen so far per path, for "rel=ERRNO:N": counted from when
 * MDBOOST_FAKEKERNEL_FAIL took its current value, so a test that sets it
 * anew counts afresh.
 */
static struct {
        char rel[PATH_MAX];
        unsigned n;
} write_counts[32];
static char counted_for[1024];

static unsigned count_write(const char *rel) {
        const char *env = getenv("MDBOOST_FAKEKERNEL_FAIL") ?: "";

        if (strncmp(env, counted_for, sizeof(counted_for)) != 0) {
                memset(write_counts, 0, sizeof(write_counts));
                snprintf(counted_for, sizeof(counted_for), "%s", env);
        }
        for (size_t i = 0; i < sizeof(write_counts) / sizeof(write_counts[0]); i++) {
                if (!write_counts[i].rel[0])
                        snprintf(write_counts[i].rel, sizeof(write_counts[i].rel), "%s", rel);
                if (strcmp(write_counts[i].rel, rel) == 0)
                        return ++write_counts[i].n;
        }
        return 1;
}

/* The errno MDBOOST_FAKEKERNEL_FAIL asks for @rel, or 0. */
static int injected_failure(const char *rel) {
        const char *env = getenv("MDBOOST_FAKEKERNEL_FAIL");
        size_t len = strlen(rel);
        unsigned seen = count_write(rel);

        while (env && *env) {
                const char *comma = strchr(env, ',');
                size_t item = comma ? (size_t)(comma - env) : strlen(env);
                char name[32], *colon;

                if (item > len + 1 && strncmp(env, rel, len) == 0 && env[len] == '=') {
                        snprintf(name, sizeof(name), "%.*s", (int)(item - len - 1), env + len + 1);
                        /* ERRNO:N: the first N writes work, the later ones fail. */
                        colon = strchr(name, ':');
                        if (colon) {
                                *colon = 0;
                                if (seen <= (unsigned)atoi(colon + 1))
                                        return 0;
                        }
                        return errno_from_name(name);
                }
                env = comma ? comma + 1 : NULL;
        }
        return 0;
}

/* Dies as a power cut would, when MDBOOST_FAKEKERNEL_CRASH_AFTER names this write. */
static void crash_after(const char *rel, const char *value) {
        const char *env = getenv("MDBOOST_FAKEKERNEL_CRASH_AFTER");
        size_t len = strlen(rel), vlen = strcspn(value, "\n");

        if (env && strncmp(env, rel, len) == 0 && env[len] == '=' && strlen(env + len + 1) == vlen &&
            strncmp(env + len + 1, value, vlen) == 0)
                raise(SIGKILL);
}

/*
 * Arrays in "(system)" mode show the sysctl's current value, so a write to
 * the global limit changes what their sync_speed_min/max read.
 */
static void follow_global(const md_root *r, const char *attr, long long value) {
        char path[PATH_MAX], buf[64], out[OUT_MAX];
        struct dirent *d;
        DIR *dir;
        int fd;

        fd = openat(r->fd, "sys/block", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return;
        dir = fdopendir(fd);
        if (!dir) {
                close(fd);
                return;
        }
        for (;;) {
                d = readdir(dir);
                if (!d)
                        break;
                if (strncmp(d->d_name, "md", 2) != 0)
                        continue;
                snprintf(path, sizeof(path), "sys/block/%s/md/%s", d->d_name, attr);
                if (md_root_read(r, path, buf, sizeof(buf)) <= 0 || !strstr(buf, "(system)"))
                        continue;
                snprintf(out, sizeof(out), "%d (system)\n", (int)value);
                (void)__real_md_root_write(r, path, out);
        }
        closedir(dir);
}

/*
 * md out of memory while growing the stripe cache at @rel to @value: it
 * keeps half the stripes it meant to add. False when the write does not
 * grow it.
 */
static bool stripe_cache_part_way(const md_root *r, const char *rel, const char *value) {
        unsigned long long cur, want;
        char buf[64], out[OUT_MAX];

        if (md_root_read(r, rel, buf, sizeof(buf)) <= 0 || kstrtoull(buf, &cur) < 0 || kstrtoull(value, &want) < 0 ||
            want <= cur)
                return false;
        snprintf(out, sizeof(out), "%llu\n", cur + (want - cur) / 2);
        (void)__real_md_root_write(r, rel, out);
        return true;
}

int __wrap_md_root_write(const md_root *r, const char *rel, const char *value) {
        const struct store_rule *rule;
        char cur[MD_ATTR_MAX], out[OUT_MAX];
        long long global;
        ssize_t n;
        int k;

        if (!r || !rel || !value)
                return -EINVAL;
        k = injected_failure(rel);
        if (k == ENOMEM && find_rule(rel) && find_rule(rel)->store == store_stripe_cache &&
            !stripe_cache_part_way(r, rel, value))
                k = 0;
        if (k > 0)
                return -k;
        rule = find_rule(rel);
        if (!rule) {
                k = __real_md_root_write(r, rel, value);
                if (k == 0)
                        crash_after(rel, value);
                return k;
        }

        /* sysfs has no way to create an attribute: a level without it gives ENOENT first. */
        n = md_root_read(r, rel, cur, sizeof(cur));
        if (n < 0)
                return (int)n;

        k = rule->store(r, rel, value, out);
        if (k < 0)
                return k;
        k = __real_md_root_write(r, rel, out);
        if (k < 0)
                return k;
        if (rule->store == store_sysctl && dointvec(out, &global) == 0)
                follow_global(r,
                              strcmp(rel, GLOBAL_MIN) == 0   ? "sync_speed_min"
                              : strcmp(rel, GLOBAL_MAX) == 0 ? "sync_speed_max"
                                                             : "sync_io_depth",
                              global);
        crash_after(rel, value);
        return 0;
}
