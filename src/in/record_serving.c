/* record_serving: the observed health a `watch --record` line carries beside its task. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

char *
record_line_add_healthy(char *line, int64_t healthy_at_ms, int64_t resolution_ms)
{
	/* record_line_new() writes ...,"source":"live","task":{...}}: insert before "task" */
	const char *at = strstr(line, ",\"task\":");
	char iso[TIMEUTIL_ISO_LEN], *out;

	if (at == NULL || healthy_at_ms == TS_NONE)
		return line;
	timeutil_format_iso(healthy_at_ms, iso);
	out = xasprintf("%.*s,\"healthy_at\":\"%s\",\"healthy_resolution_ms\":%" PRId64 "%s",
			(int)(at - line), line, iso, resolution_ms < 0 ? 0 : resolution_ms, at);
	free(line);
	return out;
}
