/* SPDX-License-Identifier: MIT */
#pragma once

/* Writing the service's own files so that a crash leaves the old one or the new one, never half. */

#include <stddef.h>
#include <sys/types.h>

/*
 * Reads the regular file @name in @dir_fd (AT_FDCWD: a path) whole into a
 * NUL-terminated buffer the caller frees. -EINVAL: not a regular file (a
 * symlink, a FIFO: never waited on); -EFBIG: larger than @max bytes.
 */
int file_read_at(int dir_fd, const char *name, size_t max, char **ret, size_t *ret_len);

/* Writes all @len bytes of @text to @fd, through short writes and EINTR. */
int file_write_all(int fd, const char *text, size_t len);

/*
 * Replaces @name in the folder @dir_fd with @text: a temporary file beside
 * it (mode @mode), fsync, rename over the old one, fsync of the folder. On
 * failure the old file stays and the temporary one is gone.
 */
int file_replace_at(int dir_fd, const char *name, const char *text, mode_t mode);

/* file_replace_at() of @path, making its folder (not its parents) when it is missing. */
int file_replace(const char *path, const char *text, mode_t mode);
