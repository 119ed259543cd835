/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "root.h"

/* "MemTotal:  16318424 kB" out of /proc/meminfo's text, in bytes. -ENOENT without the line. */
int meminfo_parse_total(const char *text, size_t len, uint64_t *ret_bytes);

/* Reads <root>/proc/meminfo. -ENOENT when the file or line is absent. */
int meminfo_read_total(const md_root *r, uint64_t *ret_bytes);
