/* report_image: the image columns, computed from image_task_info() when a cell is asked
 * for (a handful of images per run: the lookups are cheap). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/numfmt.h"

#include "ecsprof/phase.h"
#include "report_image.h"

const char *
report_image_text_of(const struct image_task_info *in, enum col_id c)
{
	const char *v = NULL;

	switch (c) {
	case COL_IMAGE_COMPRESSION:
		v = in->compression[0] == '\0' ? NULL :
		    in->compression[0] == 'g' ? "gzip" : in->compression[0] == 'z' ? "zstd" :
		    in->compression[0] == 'n' ? "none" : "mixed";
		break;
	case COL_SOCI_INDEX:
		v = image_soci_name(in->soci);
		break;
	case COL_SOCI_ADVICE:
		v = soci_advice_name(in->advice);
		break;
	default:
		break;
	}
	return v != NULL && *v != '\0' ? v : NULL;
}

const char *
report_image_text(const struct image_set *s, const struct task *t, enum col_id c)
{
	struct image_task_info in;

	image_task_info(s, t, &in);
	return report_image_text_of(&in, c);
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

size_t
report_image_number_of(const struct image_task_info *in, const struct task *t, enum col_id c,
    char out[REPORT_IMAGE_NUM_LEN])
{
	int64_t v;
	size_t n;

	out[0] = '\0';
	switch (c) {
	case COL_IMAGE_SIZE:
		return in->size_bytes >= 0 ? numfmt_i64(out, in->size_bytes) : 0;
	case COL_IMAGE_LAYERS:
		return in->layers >= 0 ? numfmt_i64(out, (int64_t)in->layers) : 0;
	case COL_PULL_MBPS:
		v = mbps_x100(in, t);
		if (v < 0)
			return 0;
		/* "%" PRId64 ".%02" PRId64 of the whole and the hundredths */
		n = numfmt_i64(out, v / 100);
		out[n++] = '.';
		out[n++] = (char)('0' + v % 100 / 10);
		out[n++] = (char)('0' + v % 10);
		out[n] = '\0';
		return n;
	default:
		return 0;
	}
}

bool
report_image_number(const struct image_set *s, const struct task *t, enum col_id c,
    char *out, size_t size)
{
	struct image_task_info in;
	char num[REPORT_IMAGE_NUM_LEN];
	size_t n;

	if (!report_image_is_number(c))
		return false;
	if (size == 0)
		return true;
	image_task_info(s, t, &in);
	n = report_image_number_of(&in, t, c, num);
	/* cut as snprintf cuts */
	if (n >= size)
		n = size - 1;
	memcpy(out, num, n);
	out[n] = '\0';
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
