/* SPDX-License-Identifier: MIT */
/*
 * The sysfs value parsers, each on the same bytes. A tunable value that
 * parses is formatted and parsed again: it must come back the same.
 */
#include <stdbool.h>
#include <stdio.h>

#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *buf = (const char *)data;
        char uuid[37], text[128], choice[16];
        md_array_state state;
        md_sync_action action;
        md_metadata metadata;
        md_progress progress;
        md_newold newold;
        md_block_stat st;
        md_level level;
        md_tval v, back;
        uint64_t u;
        unsigned flags;

        (void)md_parse_u64(buf, size, &u);
        (void)md_parse_level(buf, size, &level);
        (void)md_parse_array_state(buf, size, &state);
        (void)md_parse_sync_action(buf, size, &action);
        (void)md_parse_metadata(buf, size, &metadata);
        (void)md_parse_member_state(buf, size, &flags);
        (void)md_parse_newold(buf, size, &newold);
        (void)md_parse_progress(buf, size, &progress);
        (void)md_parse_block_stat(buf, size, &st);
        if (md_parse_uuid(buf, size, uuid) == 0 && strlen(uuid) != 36)
                abort();
        /* A choice is one bracketed word: no space, no bracket. */
        if (md_parse_choice(buf, size, choice, sizeof(choice)) == 0 &&
            (choice[0] == 0 || strpbrk(choice, " []") != NULL))
                abort();
        if (md_parse_tval(buf, size, &v) == 0 && md_tval_format(&v, text, sizeof(text)) >= 0) {
                bool numeric = md_tval_has_number(&v);

                if (md_parse_tval(text, strlen(text), &back) < 0 || back.kind != v.kind ||
                    (numeric && back.value != v.value)) {
                        fprintf(stderr, "'%s' does not parse back to itself\n", text);
                        abort();
                }
        }
        return 0;
}
