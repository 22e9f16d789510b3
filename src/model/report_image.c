/* report_image: the image columns, computed from image_task_info() when a cell is asked
 * for (a handful of images per run: the lookups are cheap). */
#include <inttypes.h>
#include <stdio.h>

#include "ecsprof/phase.h"
#include "report_image.h"

const char *
report_image_text(const struct image_set *s, const struct task *t, enum col_id c)
{
	struct image_task_info in;
	const char *v = NULL;

	image_task_info(s, t, &in);
	switch (c) {
	case COL_IMAGE_COMPRESSION:
		v = in.compression[0] == '\0' ? NULL :
		    in.compression[0] == 'g' ? "gzip" : in.compression[0] == 'z' ? "zstd" :
		    in.compression[0] == 'n' ? "none" : "mixed";
		break;
	case COL_SOCI_INDEX:
		v = image_soci_name(in.soci);
		break;
	case COL_SOCI_ADVICE:
		v = soci_advice_name(in.advice);
		break;
	default:
		break;
	}
	return v != NULL && *v != '\0' ? v : NULL;
}

bool
report_image_is_number(enum col_id c)
{
	return c == COL_IMAGE_SIZE || c == COL_IMAGE_LAYERS || c == COL_PULL_MBPS;
}

/* MB/s with two decimals as the integer hundredths, -1 when unknown */
static int64_t
mbps_x100(const struct image_task_info *in, const struct task *t)
{
	int64_t pull = phase_ms(t, PHASE_PULL);

	if (in->size_bytes < 0 || pull == TS_NONE || pull <= 0)
		return -1;
	/* bytes / 10^6 / (ms / 1000), rounded half up, in hundredths */
	return (int64_t)(((double)in->size_bytes / 1e6 / ((double)pull / 1000.0)) * 100.0 + 0.5);
}

bool
report_image_number(const struct image_set *s, const struct task *t, enum col_id c,
    char *out, size_t size)
{
	struct image_task_info in;
	int64_t v;

	if (!report_image_is_number(c))
		return false;
	out[0] = '\0';
	image_task_info(s, t, &in);
	switch (c) {
	case COL_IMAGE_SIZE:
		if (in.size_bytes >= 0)
			snprintf(out, size, "%" PRId64, in.size_bytes);
		break;
	case COL_IMAGE_LAYERS:
		if (in.layers >= 0)
			snprintf(out, size, "%ld", in.layers);
		break;
	default:
		v = mbps_x100(&in, t);
		if (v >= 0)
			snprintf(out, size, "%" PRId64 ".%02" PRId64, v / 100, v % 100);
		break;
	}
	return true;
}

int64_t
report_image_sort_value(const struct image_set *s, const struct task *t, enum col_id c)
{
	struct image_task_info in;

	image_task_info(s, t, &in);
	if (c == COL_IMAGE_SIZE)
		return in.size_bytes >= 0 ? in.size_bytes : TS_NONE;
	if (c == COL_IMAGE_LAYERS)
		return in.layers >= 0 ? in.layers : TS_NONE;
	int64_t v = mbps_x100(&in, t);
	return v >= 0 ? v : TS_NONE;
}
