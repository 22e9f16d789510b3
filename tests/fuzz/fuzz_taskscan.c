/* fuzz_taskscan: libFuzzer entry point checking taskscan.c against the jansson path: the
 * input read as JSON Lines both ways must give the same tasks, warnings and errors
 * (taskscan_diff.h); otherwise it aborts. Giving up on a line is always allowed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taskscan_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exactly size bytes of heap, so ASan sees a read past the end */
	char *in = malloc(size ? size : 1);
	const char *why;
	size_t scanned;

	if (in == NULL)
		abort();
	memcpy(in, data, size);
	if ((why = taskscan_diff(in, size, &scanned)) != NULL) {
		fprintf(stderr, "fuzz_taskscan: taskscan and jansson differ: %s\n", why);
		abort();
	}
	free(in);
	return 0;
}
