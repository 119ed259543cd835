/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Root-prefixed access to sysfs and procfs.
 *
 * Every path mdboost touches is relative ("sys/block/md0/md/level",
 * "proc/sys/dev/raid/speed_limit_min") and resolved against one root
 * directory: "/" on a real machine, a fixture tree in tests, "/host" for a
 * containerised collectd. This is the only place that opens files.
 *
 * All functions return 0 (or a length) on success and a negative errno on
 * failure; they never log. Output parameters are written only on success.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* sysfs attributes are at most one page; anything longer is not an attribute. */
#define MD_ATTR_MAX 4096

/* The kernel's DISK_NAME_LEN and BDEVNAME_SIZE are 32. */
#define MD_NAME_MAX 32

/*
 * True for a kernel md name: "md" then one or more of [A-Za-z0-9_], at most
 * MD_NAME_MAX bytes. Rejects "..", "/" and anything that could leave
 * sys/block: every function that puts an array's name into a path checks it.
 */
bool md_name_valid(const char *name);

typedef struct md_root {
        int fd; /* O_PATH|O_DIRECTORY descriptor of the root */
} md_root;

#define MD_ROOT_NULL ((md_root){ .fd = -1 })

/* Opens @path (NULL means "/") as the root. */
int md_root_open(const char *path, md_root *ret);
void md_root_close(md_root *r);

/*
 * Reads the whole attribute at @rel (relative to the root) into @buf with a
 * single read, NUL-terminates it and returns its length (>= 0).
 * -ENOENT: the attribute does not exist (absent on this kernel or level);
 * -EFBIG: longer than @size - 1 bytes; -EISDIR / -EINVAL: not a regular file
 * (a FIFO or device is refused without blocking); -ELOOP: symlink loop.
 */
ssize_t md_root_read(const md_root *r, const char *rel, char *buf, size_t size);

/*
 * As md_root_read, for a procfs file such as /proc/mdstat that one read may
 * not return whole: a seq_file hands out a page of records per read. Reads
 * until end of file; -EFBIG when the file does not fit in @size - 1 bytes.
 */
ssize_t md_root_read_file(const md_root *r, const char *rel, char *buf, size_t size);

/*
 * Writes @value to the attribute at @rel in one write(2) and returns 0.
 * The kernel reports a refusal as the write's errno (EINVAL, EBUSY, ...),
 * which is returned negated.
 */
int md_root_write(const md_root *r, const char *rel, const char *value);

/*
 * Called for every entry of a directory except "." and "..", with its d_type
 * (DT_REG, DT_DIR, DT_LNK, ..., or DT_UNKNOWN on a filesystem that does not
 * say) and inode number. A negative return stops the listing and is returned.
 */
typedef int (*md_dir_cb)(const char *name, unsigned char type, ino_t ino, void *userdata);

/*
 * Lists the directory @rel under @r (beneath the root, as every open is),
 * reading entries with getdents64 into a stack buffer (no DIR*, no
 * allocation). -ENOENT / -ENOTDIR when @rel is not a directory.
 */
int md_dir_scan(const md_root *r, const char *rel, md_dir_cb cb, void *userdata);

/* Returns 1 if @rel is a directory, 0 if not or absent, negative errno on other errors. */
int md_root_is_dir(const md_root *r, const char *rel);
