/* SPDX-License-Identifier: MIT */
/* /proc/mdstat: the parser, then what the plugin and the service read from its entries. */
#include "fuzz.h"
#include "mdstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        md_mdstat_entry e[8];
        int n = md_mdstat_parse((const char *)data, size, e, 8);

        for (int i = 0; i < n && i < 8; i++) {
                md_disk_counts counts;

                md_mdstat_disk_counts(&e[i], 4, &counts);
                if (md_mdstat_find(e, (size_t)n < 8 ? (size_t)n : 8, e[i].name) == NULL)
                        abort(); /* every parsed name is found again */
        }
        return 0;
}
