/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "checkwindow.h"

#define DAY_MINUTES 1440u
#define WEEK_MINUTES (7u * DAY_MINUTES)
#define ALL_DAYS 0x7fu

static const char *const day_words[7] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };

static int day_parse(const char *s, size_t len) {
        if (len != 3)
                return -EINVAL;
        for (int d = 0; d < 7; d++)
                if (strncasecmp(s, day_words[d], 3) == 0)
                        return d;
        return -EINVAL;
}

/* "Mon" or "Mon-Fri" (wrapping: "Fri-Mon"), into a mask. */
static int days_parse(const char *s, size_t len, unsigned *ret) {
        const char *dash = memchr(s, '-', len);
        int a, b;
        unsigned m = 0;

        if (!dash) {
                a = day_parse(s, len);
                if (a < 0)
                        return a;
                *ret = 1u << a;
                return 0;
        }
        a = day_parse(s, (size_t)(dash - s));
        b = day_parse(dash + 1, len - (size_t)(dash - s) - 1);
        if (a < 0 || b < 0)
                return -EINVAL;
        for (int d = a;; d = (d + 1) % 7) {
                m |= 1u << d;
                if (d == b)
                        break;
        }
        *ret = m;
        return 0;
}

/* "HH:MM", 00:00 .. 24:00. */
static int clock_parse(const char *s, size_t len, unsigned *ret) {
        unsigned h, m;

        if (len != 5 || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) || s[2] != ':' ||
            !isdigit((unsigned char)s[3]) || !isdigit((unsigned char)s[4]))
                return -EINVAL;
        h = (unsigned)(s[0] - '0') * 10 + (unsigned)(s[1] - '0');
        m = (unsigned)(s[3] - '0') * 10 + (unsigned)(s[4] - '0');
        if (m > 59 || h > 24 || (h == 24 && m != 0))
                return -EINVAL;
        *ret = h * 60 + m;
        return 0;
}

/* "HH:MM-HH:MM" into a window's start and end. */
static int span_parse(const char *s, size_t len, check_window *w) {
        unsigned start, end;

        if (len != 11 || s[5] != '-' || clock_parse(s, 5, &start) < 0 || clock_parse(s + 6, 5, &end) < 0)
                return -EINVAL;
        if (start == DAY_MINUTES || start == end)
                return -EINVAL; /* a window starts within its day and lasts */
        w->start = start;
        w->end = end > start ? end : end + DAY_MINUTES;
        return 0;
}

int check_windows_parse(const char *text, check_windows *ret) {
        check_windows s = {};
        unsigned days = 0;
        const char *p = text;

        if (!text)
                return -EINVAL;
        while (*p == ' ' || *p == '\t')
                p++;
        if (strcmp(p, "any") == 0) {
                *ret = s;
                return 0;
        }
        while (*p) {
                size_t len = strcspn(p, ", \t");
                unsigned m;

                if (len == 0) {
                        p++;
                        continue;
                }
                if (len == 11 && p[2] == ':') {
                        check_window w = {};

                        if (span_parse(p, len, &w) < 0)
                                return -EINVAL;
                        if (s.n == CHECK_WINDOWS_MAX)
                                return -E2BIG;
                        w.days = days ? days : ALL_DAYS;
                        s.w[s.n++] = w;
                        days = 0;
                } else if (days_parse(p, len, &m) == 0)
                        days |= m;
                else
                        return -EINVAL;
                p += len;
        }
        if (s.n == 0 || days != 0)
                return -EINVAL; /* nothing, or days without their times */
        *ret = s;
        return 0;
}

/* The days of @mask as "Mon-Fri", "Sat,Sun" or "" for every day: runs from Monday, as people write them. */
static void days_format(unsigned mask, char *buf, size_t size) {
        static const int order[7] = { 1, 2, 3, 4, 5, 6, 0 };
        size_t n = 0;

        buf[0] = '\0';
        if (mask == ALL_DAYS)
                return;
        for (int i = 0; i < 7 && n < size;) {
                int j = i;

                if (!(mask & (1u << order[i]))) {
                        i++;
                        continue;
                }
                while (j + 1 < 7 && (mask & (1u << order[j + 1])))
                        j++;
                n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", day_words[order[i]]);
                if (j > i && n < size)
                        n += (size_t)snprintf(buf + n, size - n, "%s%s", j == i + 1 ? "," : "-", day_words[order[j]]);
                i = j + 1;
        }
}

void check_windows_format(const check_windows *s, char *buf, size_t size) {
        size_t n = 0;

        if (size == 0)
                return;
        buf[0] = '\0';
        if (s->n == 0) {
                snprintf(buf, size, "any");
                return;
        }
        for (unsigned i = 0; i < s->n && n < size; i++) {
                const check_window *w = &s->w[i];
                /* Midnight ends a window as 00:00, but a whole day's as 24:00 (00:00-00:00 is no window). */
                unsigned end = w->start == 0 && w->end == DAY_MINUTES ? DAY_MINUTES : w->end % DAY_MINUTES;
                char days[40];

                days_format(w->days, days, sizeof(days));
                n += (size_t)snprintf(buf + n, size - n, "%s%s%s%02u:%02u-%02u:%02u", i ? ", " : "", days,
                                      days[0] ? " " : "", w->start / 60, w->start % 60, end / 60, end % 60);
        }
}

/* Minute @t of the week (0: Sunday 00:00) inside a window. */
static bool open_at(const check_windows *s, unsigned t) {
        if (s->n == 0)
                return true;
        for (unsigned i = 0; i < s->n; i++) {
                const check_window *w = &s->w[i];

                /* The window of the day the minute is on, and the one that started the day before. */
                for (unsigned back = 0; back < 2; back++) {
                        unsigned day = (t / DAY_MINUTES + 7 - back) % 7;
                        unsigned off = t % DAY_MINUTES + back * DAY_MINUTES;

                        if ((w->days & (1u << day)) && off >= w->start && off < w->end)
                                return true;
                }
        }
        return false;
}

bool check_windows_open(const check_windows *s, unsigned wday, unsigned minute) {
        return open_at(s, (wday % 7) * DAY_MINUTES + minute % DAY_MINUTES);
}

int check_windows_minutes_until(const check_windows *s, unsigned wday, unsigned minute, bool closing) {
        unsigned now = (wday % 7) * DAY_MINUTES + minute % DAY_MINUTES;

        /* A week of minutes is short enough to walk. */
        for (unsigned i = 0; i <= WEEK_MINUTES; i++)
                if (open_at(s, (now + i) % WEEK_MINUTES) != closing)
                        return (int)i;
        return -1;
}
