/* SPDX-License-Identifier: MIT */
#pragma once

#include "report.h"

#define REPORT_FILE_DEFAULT "/var/lib/mdboost/reports.json"

/* A missing file is an empty book. -EBADMSG: not a report file; -EINVAL: not a regular file. */
int report_file_load(const char *path, report_book *ret, unsigned *ret_skipped);

/* Replaces the file atomically (file_replace). */
int report_file_save(const char *path, const report_book *b);

/* Renames a file that could not be read to "<path>.bad", named in @ret_aside. */
int report_file_set_aside(const char *path, char *ret_aside, size_t size);
