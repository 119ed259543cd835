/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * /proc/mdstat, for the one number sysfs does not give: the live position of
 * a running operation. sync_completed is checkpointed (it moves in steps of
 * about 1/16 of the device), mdstat's "(done/total)" is the live resync
 * position. Read sysfs for everything else; mdstat is for humans.
 *
 * Grammar (drivers/md/md.c md_seq_show and status_resync):
 *
 *   file   := "Personalities : " {"[" pers "] "} "\n" {array} "unused devices: " ... "\n"
 *   array  := NAME " : " ("active"|"inactive") [" (read-only)"|" (auto-read-only)"] [" " level]
 *             {" " DEV "[" N "]" ["(F)"|"(S)"|"(W)"|"(R)"|"(J)"]} "\n"
 *             "      " BLOCKS " blocks" ... ["[" n "/" m "] [" "U_"... "]"] "\n"
 *             [progress "\n"] ["      bitmap: " ... "\n"] blank line
 *   progress := "      [" bar "]  " ACTION " =" PCT "% (" DONE "/" TOTAL ") finish=" F "min speed=" S "K/sec"
 *             | "      \t" ("resync=DELAYED" | "resync=PENDING")
 *   ACTION := "reshape" | "check" | "resync" | "recovery"   (a repair prints "resync")
 *   PCT    := "%3u.%u": space-padded below 10 %
 *
 * DONE and TOTAL are KiB (1 KiB blocks), unlike sysfs' sectors.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

typedef enum md_mdstat_op {
        MD_MDSTAT_IDLE,     /* no progress line */
        MD_MDSTAT_RESYNC,   /* resync or repair */
        MD_MDSTAT_RECOVERY,
        MD_MDSTAT_CHECK,
        MD_MDSTAT_RESHAPE,
        MD_MDSTAT_DELAYED,
        MD_MDSTAT_PENDING,
        _MD_MDSTAT_OP_MAX,
} md_mdstat_op;

typedef struct md_mdstat_entry {
        char name[MD_NAME_MAX + 1];
        bool active;
        md_mdstat_op op;
        uint64_t done_kib;   /* live position, valid for RESYNC..RESHAPE */
        uint64_t total_kib;
        uint64_t speed_kib;  /* "speed=" KiB/s, 0 when absent */
} md_mdstat_entry;

/*
 * Parses @buf (the whole file) and fills up to @n entries of @ret, one per
 * array, in file order. Returns the number of arrays found (which may exceed
 * @n; only @n are filled) or -EINVAL for a file that is not mdstat.
 */
int md_mdstat_parse(const char *buf, size_t len, md_mdstat_entry *ret, size_t n);

/* Finds @name in the parsed entries; NULL if absent. */
const md_mdstat_entry *md_mdstat_find(const md_mdstat_entry *e, size_t n, const char *name);
