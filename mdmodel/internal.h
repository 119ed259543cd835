/* SPDX-License-Identifier: MIT */
#pragma once

/* Shared by the library's own files; not part of its interface. */

#include <sys/types.h>

#include "array.h"
#include "root.h"

/*
 * Calls @cb for every entry of the directory @rel under @r except "." and
 * "..", reading entries with getdents64 into a stack buffer (no DIR*, no
 * allocation). Stops at the first negative return of @cb and returns it.
 * -ENOENT / -ENOTDIR when @rel is not a directory.
 */
int md_dir_scan(const md_root *r, const char *rel, int (*cb)(const char *name, void *userdata),
                void *userdata);

/* Opens @rel under @r as a new root (O_PATH directory): paths below it stay short. */
int md_root_open_at(const md_root *r, const char *rel, md_root *ret);

/* Reads the dev-* member folders of the array whose folder is @dir into @a. */
int md_members_read(const md_root *dir, md_array *a);
