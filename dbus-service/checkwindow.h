/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Check windows (docs/checks.md): the times a check or a repair may run,
 * as an administrator writes them. Pure: no I/O, no clock; the caller
 * gives the local weekday and minute.
 *
 * Words: "any" (no window: checks run whenever md runs them), or one or
 * more windows "[DAYS] HH:MM-HH:MM", separated by commas or spaces, DAYS
 * being weekdays ("Sat,Sun"), ranges ("Mon-Fri", "Fri-Mon") or both; a
 * window without days is every day's. A window whose end is before its
 * start runs past midnight and belongs to the day it starts on
 * ("Fri 22:00-06:00" ends on Saturday 06:00). "24:00" ends at midnight
 * too, and reads back as "00:00" but in "00:00-24:00", the whole day.
 */

#include <stdbool.h>
#include <stddef.h>

#define CHECK_WINDOWS_MAX 8
#define CHECK_WINDOW_TEXT_MAX 160

typedef struct check_window {
        unsigned days;  /* bit 0 Sunday .. bit 6 Saturday, as struct tm's tm_wday */
        unsigned start; /* minutes after midnight, 0..1439 */
        unsigned end;   /* minutes after the start day's midnight, start+1 .. start+1440 */
} check_window;

typedef struct check_windows {
        unsigned n; /* 0: "any" */
        check_window w[CHECK_WINDOWS_MAX];
} check_windows;

/* Parses @text into @ret (unchanged on failure): -EINVAL for words it does not know, -E2BIG for too many windows. */
int check_windows_parse(const char *text, check_windows *ret);

/* The windows in their canonical words ("any", "Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00"). */
void check_windows_format(const check_windows *s, char *buf, size_t size);

/* Whether the local time (@wday 0 Sunday .. 6, @minute 0..1439) is inside a window; always with "any". */
bool check_windows_open(const check_windows *s, unsigned wday, unsigned minute);

/*
 * Minutes from the local time until the windows next open (0 when open
 * now) or, with @closing, until they next close; -1 when they never do
 * ("any" never closes; windows that cover the whole week never close).
 */
int check_windows_minutes_until(const check_windows *s, unsigned wday, unsigned minute, bool closing);
