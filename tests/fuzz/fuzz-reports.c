/* SPDX-License-Identifier: MIT */
/*
 * The report file: whatever reads as reports writes back to JSON that reads
 * as the same reports, and every report's summary line fits its buffer.
 */
#include <stdio.h>

#include "fuzz.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = fuzz_strndup(data, size), line[512];
        report_book b, back;
        json_object *o = json_tokener_parse(text), *again;
        unsigned skipped;

        free(text);
        if (!o)
                return 0;
        if (report_book_from_json(o, &b, &skipped) == 0) {
                for (unsigned i = 0; i < b.n; i++) {
                        report_summary(&b.reports[i], line, sizeof(line));
                        if (strlen(line) >= sizeof(line))
                                abort();
                }
                again = report_book_to_json(&b);
                if (!again || report_book_from_json(again, &back, &skipped) < 0 || skipped != 0 || back.n != b.n)
                        abort();
                for (unsigned i = 0; i < b.n; i++)
                        if (memcmp(&b.reports[i], &back.reports[i], sizeof(op_report)) != 0)
                                abort();
                json_object_put(again);
                report_book_free(&back);
                report_book_free(&b);
        }
        json_object_put(o);
        return 0;
}
