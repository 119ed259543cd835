/* SPDX-License-Identifier: MIT */
/* /etc/mdboost/mdboostd.conf: a refused text leaves the settings as they were. */
#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = fuzz_strndup(data, size), errbuf[256];
        config c = CONFIG_DEFAULT, before = c;

        if (config_parse(text, &c, errbuf, sizeof(errbuf)) < 0) {
                if (memcmp(&c, &before, sizeof(c)) != 0)
                        abort();
                if (!errbuf[0])
                        abort(); /* a refusal always says why */
        }
        free(text);
        return 0;
}
