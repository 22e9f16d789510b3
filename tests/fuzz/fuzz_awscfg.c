/* fuzz_awscfg: libFuzzer harness for the config-file parser. The first byte picks the
 * file kind; the rest is the file text. Every lookup must stay in bounds and every
 * error must be one line naming file:line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/awscfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };
	enum awscfg_file which = size > 0 && (data[0] & 1) ? AWSCFG_CREDENTIALS : AWSCFG_CONFIG;
	const char *text = size > 0 ? (const char *)data + 1 : "";
	size_t len = size > 0 ? size - 1 : 0;

	if (awscfg_parse_text(cfg, text, len, which, "fuzz", &err) != 0) {
		if (strncmp(err.msg, "fuzz:", 5) != 0 || strchr(err.msg, '\n') != NULL)
			abort();
	}
	for (int k = AWSCFG_PROFILE; k <= AWSCFG_SERVICES; k++) {
		for (size_t i = 0; i < awscfg_section_count(cfg, (enum awscfg_kind)k); i++) {
			const char *name = awscfg_section_name(cfg, (enum awscfg_kind)k, i);
			size_t n = awscfg_property_count(cfg, (enum awscfg_kind)k, name);
			for (size_t j = 0; j < n; j++) {
				const char *key, *value;
				if (awscfg_property_at(cfg, (enum awscfg_kind)k, name, j, &key, &value) != 0)
					abort();
				if (k == AWSCFG_PROFILE && awscfg_get(cfg, name, key) != value)
					abort();
				(void)awscfg_get_sub(cfg, name, key, "endpoint_url");
				(void)awscfg_services_get(cfg, name, key, "endpoint_url");
			}
		}
	}
	awscfg_free(cfg);
	return 0;
}
