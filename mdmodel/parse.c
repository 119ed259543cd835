/* SPDX-License-Identifier: MIT */
/*
 * Pure parsers for md's sysfs formats. Each works on (buf, len), which need
 * not be NUL-terminated, and accepts the one trailing newline every md
 * show method prints.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

static size_t strip_newline(const char *buf, size_t len) {
        if (len > 0 && buf[len - 1] == '\n')
                len--;
        return len;
}

static bool equals(const char *buf, size_t len, const char *word) {
        size_t n = strlen(word);

        return len == n && memcmp(buf, word, n) == 0;
}

static bool is_digit(char c) {
        return c >= '0' && c <= '9';
}

/* Digits only, at least one; no sign, no spaces. */
static int parse_digits(const char *buf, size_t len, uint64_t *ret) {
        uint64_t v = 0;

        if (len == 0)
                return -EINVAL;
        for (size_t i = 0; i < len; i++) {
                unsigned d;

                if (!is_digit(buf[i]))
                        return -EINVAL;
                d = (unsigned)(buf[i] - '0');
                if (v > (UINT64_MAX - d) / 10)
                        return -ERANGE;
                v = v * 10 + d;
        }
        *ret = v;
        return 0;
}

int md_parse_u64(const char *buf, size_t len, uint64_t *ret) {
        uint64_t v;
        int k;

        if (!buf || !ret)
                return -EINVAL;
        k = parse_digits(buf, strip_newline(buf, len), &v);
        if (k < 0)
                return k;
        *ret = v;
        return 0;
}

/* Looks @buf up in a table of words indexed by enum value. */
static int lookup(const char *buf, size_t len, const char *const *table, int n) {
        for (int i = 0; i < n; i++)
                if (table[i] && equals(buf, len, table[i]))
                        return i;
        return -EINVAL;
}

/* md's personality names, as level_show prints them. */
static const char *const level_names[_MD_LEVEL_MAX] = {
        [MD_LEVEL_LINEAR] = "linear", [MD_LEVEL_RAID0] = "raid0",
        [MD_LEVEL_RAID1] = "raid1",   [MD_LEVEL_RAID4] = "raid4",
        [MD_LEVEL_RAID5] = "raid5",   [MD_LEVEL_RAID6] = "raid6",
        [MD_LEVEL_RAID10] = "raid10", [MD_LEVEL_MULTIPATH] = "multipath",
        [MD_LEVEL_FAULTY] = "faulty", [MD_LEVEL_CONTAINER] = "container",
        [MD_LEVEL_NONE] = "",
};

/*
 * Before a personality is attached, level_show prints the level number
 * (mddev->level) instead of a name: 0, 1, 4, 5, 6, 10, or -1 for linear.
 */
static int level_from_number(const char *buf, size_t len) {
        static const struct {
                const char *word;
                md_level level;
        } numbers[] = {
                { "-1", MD_LEVEL_LINEAR }, { "0", MD_LEVEL_RAID0 }, { "1", MD_LEVEL_RAID1 },   { "4", MD_LEVEL_RAID4 },
                { "5", MD_LEVEL_RAID5 },   { "6", MD_LEVEL_RAID6 }, { "10", MD_LEVEL_RAID10 },
        };

        for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
                if (equals(buf, len, numbers[i].word))
                        return numbers[i].level;
        return -EINVAL;
}

int md_parse_level(const char *buf, size_t len, md_level *ret) {
        int l;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);
        l = lookup(buf, len, level_names, _MD_LEVEL_MAX);
        if (l < 0)
                l = level_from_number(buf, len);
        if (l < 0)
                return l;
        *ret = (md_level)l;
        return 0;
}

static const char *const array_state_names[_MD_ARRAY_STATE_MAX] = {
        [MD_ARRAY_CLEAR] = "clear",
        [MD_ARRAY_INACTIVE] = "inactive",
        [MD_ARRAY_SUSPENDED] = "suspended",
        [MD_ARRAY_READONLY] = "readonly",
        [MD_ARRAY_READ_AUTO] = "read-auto",
        [MD_ARRAY_CLEAN] = "clean",
        [MD_ARRAY_ACTIVE] = "active",
        [MD_ARRAY_WRITE_PENDING] = "write-pending",
        [MD_ARRAY_ACTIVE_IDLE] = "active-idle",
        [MD_ARRAY_BROKEN] = "broken",
};

int md_parse_array_state(const char *buf, size_t len, md_array_state *ret) {
        int s;

        if (!buf || !ret)
                return -EINVAL;
        s = lookup(buf, strip_newline(buf, len), array_state_names, _MD_ARRAY_STATE_MAX);
        if (s < 0)
                return s;
        *ret = (md_array_state)s;
        return 0;
}

static const char *const sync_action_names[_MD_SYNC_ACTION_MAX] = {
        [MD_SYNC_IDLE] = "idle",     [MD_SYNC_RESYNC] = "resync", [MD_SYNC_RECOVER] = "recover",
        [MD_SYNC_CHECK] = "check",   [MD_SYNC_REPAIR] = "repair", [MD_SYNC_RESHAPE] = "reshape",
        [MD_SYNC_FROZEN] = "frozen",
};

/*
 * last_sync_action uses slightly different words than sync_action: it says
 * "recovery" for a recover and "none" before any operation ran.
 */
int md_parse_sync_action(const char *buf, size_t len, md_sync_action *ret) {
        int a;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);
        a = lookup(buf, len, sync_action_names, _MD_SYNC_ACTION_MAX);
        if (a < 0 && equals(buf, len, "recovery"))
                a = MD_SYNC_RECOVER;
        if (a < 0 && equals(buf, len, "none"))
                a = MD_SYNC_IDLE;
        if (a < 0)
                return a;
        *ret = (md_sync_action)a;
        return 0;
}

/* metadata_version_show: "none", "external:...", or "MAJOR.MINOR". */
int md_parse_metadata(const char *buf, size_t len, md_metadata *ret) {
        size_t i;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);
        if (equals(buf, len, "none")) {
                *ret = MD_METADATA_NONE;
                return 0;
        }
        if (len > 9 && memcmp(buf, "external:", 9) == 0) {
                *ret = MD_METADATA_EXTERNAL;
                return 0;
        }
        for (i = 0; i < len && is_digit(buf[i]); i++)
                ;
        if (i == 0 || i >= len || buf[i] != '.')
                return -EINVAL;
        for (i++; i < len && is_digit(buf[i]); i++)
                ;
        if (i != len || !is_digit(buf[len - 1]))
                return -EINVAL;
        *ret = MD_METADATA_NATIVE;
        return 0;
}

/* The words of state_show in drivers/md/md.c. */
static const struct {
        const char *word;
        md_member_flag flag;
} member_words[] = {
        { "faulty", MD_MEMBER_FAULTY },
        { "in_sync", MD_MEMBER_IN_SYNC },
        { "write_mostly", MD_MEMBER_WRITE_MOSTLY },
        { "blocked", MD_MEMBER_BLOCKED },
        { "spare", MD_MEMBER_SPARE },
        { "write_error", MD_MEMBER_WRITE_ERROR },
        { "want_replacement", MD_MEMBER_WANT_REPLACEMENT },
        { "replacement", MD_MEMBER_REPLACEMENT },
        { "journal", MD_MEMBER_JOURNAL },
        { "failfast", MD_MEMBER_FAILFAST },
        { "external_bbl", MD_MEMBER_EXTERNAL_BBL },
        { "cluster_add", MD_MEMBER_CLUSTER_ADD },
};

static bool is_word_char(char c) {
        return (c >= 'a' && c <= 'z') || c == '_';
}

/* One word of the list: a known flag, MD_MEMBER_OTHER for an unknown word, -EINVAL for junk. */
static int member_word(const char *w, size_t n, unsigned *flag) {
        if (n == 0)
                return -EINVAL;
        for (size_t i = 0; i < n; i++)
                if (!is_word_char(w[i]))
                        return -EINVAL;
        for (size_t i = 0; i < sizeof(member_words) / sizeof(member_words[0]); i++)
                if (equals(w, n, member_words[i].word)) {
                        *flag = member_words[i].flag;
                        return 0;
                }
        *flag = MD_MEMBER_OTHER;
        return 0;
}

int md_parse_member_state(const char *buf, size_t len, unsigned *ret_flags) {
        unsigned flags = 0;
        size_t start = 0;

        if (!buf || !ret_flags)
                return -EINVAL;
        len = strip_newline(buf, len);
        while (start < len) {
                const char *comma = memchr(buf + start, ',', len - start);
                size_t end = comma ? (size_t)(comma - buf) : len;
                unsigned flag;
                int k;

                k = member_word(buf + start, end - start, &flag);
                if (k < 0)
                        return k;
                flags |= flag;
                /* A trailing comma leaves an empty last word: junk. */
                if (comma && end + 1 == len)
                        return -EINVAL;
                start = end + 1;
        }
        *ret_flags = flags;
        return 0;
}

static bool has_suffix(const char *buf, size_t len, const char *suffix, size_t *ret_stem) {
        size_t n = strlen(suffix);

        if (len < n || memcmp(buf + len - n, suffix, n) != 0)
                return false;
        *ret_stem = len - n;
        return true;
}

int md_parse_choice(const char *buf, size_t len, char *ret, size_t size) {
        size_t start = 0, end = 0;
        unsigned found = 0;

        if (!buf || !ret || size == 0)
                return -EINVAL;
        len = strip_newline(buf, len);
        for (size_t i = 0; i < len; i++) {
                if (buf[i] == '[') {
                        size_t j = i + 1;

                        while (j < len && buf[j] != ']' && buf[j] != '[' && buf[j] != ' ')
                                j++;
                        if (j >= len || buf[j] != ']' || j == i + 1)
                                return -EINVAL;
                        start = i + 1;
                        end = j;
                        found++;
                        i = j;
                } else if (buf[i] == ']' || (unsigned char)buf[i] < 0x20)
                        return -EINVAL;
        }
        if (found != 1)
                return -EINVAL;
        if (end - start >= size)
                return -ENOBUFS;
        memcpy(ret, buf + start, end - start);
        ret[end - start] = 0;
        return 0;
}

int md_parse_tval(const char *buf, size_t len, md_tval *ret) {
        md_tval v = { .kind = MD_V_NUMBER };
        size_t stem;
        int k;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);

        if (equals(buf, len, "max")) {
                *ret = (md_tval){ .kind = MD_V_MAX };
                return 0;
        }
        if (equals(buf, len, "none")) {
                *ret = (md_tval){ .kind = MD_V_NONE };
                return 0;
        }
        /* sync_speed_min/max: "%d (%s)" with "system" or "local". */
        if (has_suffix(buf, len, " (system)", &stem))
                v.kind = MD_V_SYSTEM;
        else if (has_suffix(buf, len, " (local)", &stem))
                v.kind = MD_V_LOCAL;
        else
                stem = len;

        /*
         * The "(system|local)" attributes are ints printed with %d that the
         * store method fills from an unsigned int: 4294967295 written reads
         * back "-1 (local)". A negative one is kept as the unsigned value
         * that makes it, which writing back restores.
         */
        if (v.kind != MD_V_NUMBER && stem > 1 && buf[0] == '-') {
                uint64_t neg;

                k = parse_digits(buf + 1, stem - 1, &neg);
                if (k < 0)
                        return k;
                if (neg == 0 || neg > UINT64_C(1) << 31)
                        return -ERANGE;
                v.value = (UINT64_C(1) << 32) - neg;
                *ret = v;
                return 0;
        }
        k = parse_digits(buf, stem, &v.value);
        if (k < 0)
                return k;
        *ret = v;
        return 0;
}

int md_parse_newold(const char *buf, size_t len, md_newold *ret) {
        md_newold v = { .kind = MD_V_NUMBER };
        const char *space;
        int k;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);

        /* raid_disks prints nothing at all while an array is being assembled. */
        if (len == 0) {
                *ret = (md_newold){ .kind = MD_V_NONE };
                return 0;
        }

        /* During a reshape: "%d (%d)", the new value then the old one. */
        space = memchr(buf, ' ', len);
        if (!space) {
                k = parse_digits(buf, len, &v.value);
                if (k < 0)
                        return k;
                v.old_value = v.value;
                *ret = v;
                return 0;
        }

        size_t head = (size_t)(space - buf);
        const char *old = space + 1;
        size_t old_len = len - head - 1;

        if (old_len < 3 || old[0] != '(' || old[old_len - 1] != ')')
                return -EINVAL;
        k = parse_digits(buf, head, &v.value);
        if (k < 0)
                return k;
        k = parse_digits(old + 1, old_len - 2, &v.old_value);
        if (k < 0)
                return k;
        v.reshaping = true;
        *ret = v;
        return 0;
}

int md_parse_progress(const char *buf, size_t len, md_progress *ret) {
        md_progress p = { .kind = MD_PROGRESS_RUNNING };
        const char *sep;
        size_t head;
        int k;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);

        if (equals(buf, len, "none")) {
                *ret = (md_progress){ .kind = MD_PROGRESS_NONE };
                return 0;
        }
        if (equals(buf, len, "delayed")) {
                *ret = (md_progress){ .kind = MD_PROGRESS_DELAYED };
                return 0;
        }

        /* "%llu / %llu": done then total, both in sectors. */
        sep = memmem(buf, len, " / ", 3);
        if (!sep)
                return -EINVAL;
        head = (size_t)(sep - buf);
        k = parse_digits(buf, head, &p.done);
        if (k < 0)
                return k;
        k = parse_digits(sep + 3, len - head - 3, &p.total);
        if (k < 0)
                return k;
        if (p.done > p.total)
                return -EINVAL;
        *ret = p;
        return 0;
}

static bool is_hex(char c) {
        return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int md_parse_uuid(const char *buf, size_t len, char ret[37]) {
        char out[37];

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);
        if (len != 36)
                return -EINVAL;
        /* The kernel prints %pU: 8-4-4-4-12 lower-case hex digits. */
        for (size_t i = 0; i < 36; i++) {
                char c = buf[i];

                if (i == 8 || i == 13 || i == 18 || i == 23) {
                        if (c != '-')
                                return -EINVAL;
                } else if (!is_hex(c))
                        return -EINVAL;
                out[i] = (c >= 'A' && c <= 'F') ? (char)(c - 'A' + 'a') : c;
        }
        out[36] = '\0';
        memcpy(ret, out, sizeof(out));
        return 0;
}

/*
 * sys/block/<dev>/stat is one line of unsigned counters padded with spaces
 * (Documentation/block/stat.rst): 11 on old kernels, 15 with discards, 17
 * with flushes. Fields 3 and 7 are the sectors read and written since the
 * device appeared; for an md device they count its users' requests only, as
 * a rebuild reads and writes the members directly. Field 9 is no counter:
 * the requests in flight now, submitted and not yet completed.
 */
int md_parse_block_stat(const char *buf, size_t len, md_block_stat *ret) {
        uint64_t field[9];
        md_block_stat st = { 0 };
        size_t i = 0;
        unsigned n = 0;

        if (!buf || !ret)
                return -EINVAL;
        len = strip_newline(buf, len);
        while (n < 9) {
                size_t start;

                while (i < len && buf[i] == ' ')
                        i++;
                if (i == len && (n == 7 || n == 8))
                        break; /* seven counters: no write ticks; eight: nothing in flight told */
                start = i;
                while (i < len && buf[i] != ' ')
                        i++;
                if (i == start || md_parse_u64(buf + start, i - start, &field[n]) < 0)
                        return -EINVAL;
                n++;
        }
        for (; i < len; i++)
                if (buf[i] != ' ' && (buf[i] < '0' || buf[i] > '9'))
                        return -EINVAL;
        /* Counters 0..3 are reads (requests, merges, sectors, ms), 4..7 the same for writes. */
        st.sectors = field[2] + field[6];
        st.requests = field[0] + field[4];
        if (st.sectors < field[2] || st.requests < field[0])
                return -ERANGE;
        if (n >= 8) {
                st.wait_ms = field[3] + field[7];
                if (st.wait_ms < field[3])
                        return -ERANGE;
                st.has_wait = true;
        }
        if (n == 9) {
                st.in_flight = field[8];
                st.has_in_flight = true;
        }
        *ret = st;
        return 0;
}

const char *md_level_to_string(md_level l) {
        if (l < 0 || l >= _MD_LEVEL_MAX)
                return NULL;
        return level_names[l];
}

const char *md_array_state_to_string(md_array_state s) {
        if (s < 0 || s >= _MD_ARRAY_STATE_MAX)
                return NULL;
        return array_state_names[s];
}

const char *md_sync_action_to_string(md_sync_action a) {
        if (a < 0 || a >= _MD_SYNC_ACTION_MAX)
                return NULL;
        return sync_action_names[a];
}

int md_tval_format(const md_tval *v, char *buf, size_t size) {
        char tmp[48]; /* "18446744073709551615 (system)" and a NUL */
        int n;

        if (!v || !buf || size == 0)
                return -EINVAL;
        switch (v->kind) {
        case MD_V_NUMBER:
                n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v->value);
                break;
        case MD_V_SYSTEM:
        case MD_V_LOCAL:
                /* As md prints them, %d: an unsigned value above INT_MAX shows negative (md_parse_tval). */
                if (v->value > INT32_MAX && v->value <= UINT32_MAX)
                        n = snprintf(tmp, sizeof(tmp), "%" PRId32 " %s", (int32_t)(uint32_t)v->value,
                                     v->kind == MD_V_SYSTEM ? "(system)" : "(local)");
                else
                        n = snprintf(tmp, sizeof(tmp), "%" PRIu64 " %s", v->value,
                                     v->kind == MD_V_SYSTEM ? "(system)" : "(local)");
                break;
        case MD_V_MAX:
                n = snprintf(tmp, sizeof(tmp), "max");
                break;
        case MD_V_NONE:
                n = snprintf(tmp, sizeof(tmp), "none");
                break;
        default:
                return -EINVAL;
        }
        if (n < 0 || (size_t)n >= sizeof(tmp))
                return -EINVAL;
        if ((size_t)n >= size)
                return -ENOBUFS;
        memcpy(buf, tmp, (size_t)n + 1);
        return 0;
}
