/* SPDX-License-Identifier: MIT */
/*
 * The boost journal: whatever parses, strictly or entry by entry, formats to
 * a text that parses strictly to the same entries, and formats the same again.
 */
#include <stdio.h>

#include "fuzz.h"
#include "journal.h"

static void same_entries(const journal *a, const journal *b) {
        if (a->n != b->n || a->clean != b->clean)
                abort();
        for (unsigned i = 0; i < a->n; i++) {
                const journal_entry *x = &a->entries[i], *y = journal_find((journal *)b, x->uuid);

                if (!y || strcmp(x->array, y->array) || strcmp(x->profile, y->profile) ||
                    strcmp(x->operation, y->operation) || x->fit != y->fit || x->since_usec != y->since_usec)
                        abort();
                for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                        if (!journal_tval_equal(&x->originals[t], &y->originals[t]) ||
                            !journal_tval_equal(&x->written[t], &y->written[t]) ||
                            !journal_tval_equal(&x->earlier[t], &y->earlier[t]))
                                abort();
        }
}

static void round_trip(const journal *j) {
        char *text = journal_format(j), *again;
        journal back;

        if (!text)
                abort();
        if (journal_parse(text, &back, NULL) < 0) {
                fprintf(stderr, "the journal's own text does not parse:\n%s\n", text);
                abort();
        }
        same_entries(j, &back);
        again = journal_format(&back);
        if (!again || strcmp(text, again) != 0)
                abort();
        free(again);
        free(text);
        journal_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = fuzz_strndup(data, size);
        journal_load_report report;
        journal j;

        if (journal_parse(text, &j, NULL) == 0) {
                round_trip(&j);
                journal_free(&j);
        }
        if (journal_parse(text, &j, &report) == 0) {
                if (report.corrupt)
                        abort();
                round_trip(&j);
                journal_free(&j);
        }
        free(text);
        return 0;
}
