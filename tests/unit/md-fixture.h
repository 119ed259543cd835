/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Fixture trees for unit tests: a root directory made with mkdtemp, filled
 * with files laid out as under "/" (sys/block/md0/md/level, proc/mdstat...),
 * removed at the end. Every function returns 0 or a negative errno; paths
 * called @rel are relative to @root.
 */

#include <stddef.h>
#include <sys/types.h>

#include "array.h"
#include "root.h"

/* Creates an empty root under $TMPDIR (or /tmp); *ret_root is malloc'ed, free it after md_fixture_rm. */
int md_fixture_new(char **ret_root);

/* Creates @root/@rel holding exactly @content (no newline added), creating parent folders. */
int md_fixture_write(const char *root, const char *rel, const char *content);

/*
 * Replaces @root/@rel with a new file holding @content, by a rename: a
 * reader never sees it half-written, and a descriptor kept open on the old
 * file still reads the old one.
 */
int md_fixture_replace(const char *root, const char *rel, const char *content);

/* Renames @root/@from to @root/@to. */
int md_fixture_rename(const char *root, const char *from, const char *to);

/* Creates the folder @root/@rel and its parents. */
int md_fixture_mkdir(const char *root, const char *rel);

/* Creates the symlink @root/@rel pointing to @target, creating parent folders. */
int md_fixture_symlink(const char *root, const char *rel, const char *target);

/* Creates the character device @major:@minor at @root/@rel (needs CAP_MKNOD), creating parent folders. */
int md_fixture_device(const char *root, const char *rel, unsigned major, unsigned minor);

/* Creates a FIFO at @root/@rel, creating parent folders. */
int md_fixture_fifo(const char *root, const char *rel);

/* Removes @root/@rel (a file, a symlink, or a folder with everything in it). */
int md_fixture_remove(const char *root, const char *rel);

/* The same two, for @rel under sys/block/@array/ ("md/level", "queue/read_ahead_kb"). */
int md_fixture_write_array(const char *root, const char *array, const char *rel, const char *content);
int md_fixture_remove_array(const char *root, const char *array, const char *rel);

/* Reads @root/@rel into @buf (NUL-terminated); returns the length. */
ssize_t md_fixture_read(const char *root, const char *rel, char *buf, size_t size);

/* Copies the tree @src (files, folders, symlinks) into the existing folder @dst. */
int md_fixture_copy(const char *src, const char *dst);

/* A snapshot from tests/fixtures/ (e.g. "03-raid5-recovery"): its path in the source tree. */
const char *md_fixture_snapshot(const char *name, char *buf, size_t size);

/* md_fixture_new, then a copy of the snapshot @name in it: a tree a test may write to. */
int md_fixture_new_from(const char *name, char **ret_root);

/* Removes the whole tree @root; refuses a path md_fixture_new did not make (-EINVAL). */
int md_fixture_rm(const char *root);

/*
 * What an md unit test starts from, made by a cmocka setup and removed by
 * its teardown: a fixture tree, the md_root opened on it, and a set and an
 * array to read into (freed by the teardown). The setup also sets a 20 s
 * alarm: a read that blocked (on a FIFO, say) fails the suite instead of
 * hanging it.
 */
typedef struct md_case {
        char *dir;
        md_root root;
        md_array_set set;
        md_array a;
} md_case;

/*
 * *state = a new md_case on a copy of the snapshot @name, or on an empty
 * tree holding only sys/block/ when @name is NULL. md_case_setup_size
 * allocates @size bytes (a test's own struct, with md_case first and its
 * other fields zeroed). Return 0, or -1 as cmocka expects.
 */
int md_case_setup(void **state, const char *name);
int md_case_setup_size(void **state, const char *name, size_t size);
int md_case_teardown(void **state);
