/* scaleout_bar: where each stage of a scale-out sits on its bar (scaleout_story.h), one
 * layout for every writer and the TUI, so that the table, the page, the workbook and the
 * screen draw the same bar from the model's rows; and the words for its desired counts, for
 * the same reason (the TUI cannot call out/, and two copies of the rule drifted apart). */
#include <stdio.h>

#include "ecsprof/scaleout_story.h"
#include "ecsprof/timeutil.h"

/* Where a row's bar starts: the first breaching datapoint, else the trigger */
int64_t
so_row_bar_start(const struct so_row *r)
{
	int64_t s = r->trigger_ms;

	for (int k = SO_DETECT; k <= SO_SCHEDULE; k++)
		if (r->span[k].from_ms != TS_NONE && (s == TS_NONE || r->span[k].from_ms < s))
			s = r->span[k].from_ms;
	return s;
}

size_t
so_row_pieces(const struct so_row *r, struct so_piece *p)
{
	int64_t start = so_row_bar_start(r), at = r->span[SO_LAUNCH].from_ms;
	size_t n = 0;

	if (start == TS_NONE)
		return 0;
	for (int k = SO_DETECT; k <= SO_SCHEDULE; k++)
		if (r->span[k].from_ms != TS_NONE && r->span[k].to_ms != TS_NONE &&
		    r->span[k].to_ms >= r->span[k].from_ms)
			p[n++] = (struct so_piece){ (enum so_stage)k, r->span[k].from_ms - start,
							  r->span[k].to_ms - start,
							  so_row_estimated(r, (enum so_stage)k) };
	for (int k = SO_PROVISION; at != TS_NONE && k <= SO_HEALTH; k++) {
		int64_t d;

		if (k == SO_ATTACH || k == SO_WAIT || r->dist[k].n == 0)
			continue;
		d = (int64_t)(r->dist[k].p50_s * 1000.0);
		p[n++] = (struct so_piece){ (enum so_stage)k, at - start, at + d - start, false };
		at += d;
	}
	if (r->span[SO_REGISTER].from_ms != TS_NONE && r->span[SO_REGISTER].to_ms != TS_NONE &&
	    r->span[SO_REGISTER].to_ms >= r->span[SO_REGISTER].from_ms)
		p[n++] = (struct so_piece){ SO_REGISTER, r->span[SO_REGISTER].from_ms - start,
						  r->span[SO_REGISTER].to_ms - start,
						  so_row_estimated(r, SO_REGISTER) };
	return n;
}

int64_t
so_story_scale(const struct so_story *st)
{
	struct so_piece p[SO_PIECES_MAX];
	int64_t scale = 0;

	for (size_t i = 0; i < st->n; i++) {
		size_t n = so_row_pieces(&st->rows[i], p);

		for (size_t k = 0; k < n; k++)
			if (p[k].to_ms > scale)
				scale = p[k].to_ms;
		if (so_row_bar_start(&st->rows[i]) != TS_NONE && st->rows[i].span[SO_TOTAL].to_ms != TS_NONE &&
		    st->rows[i].span[SO_TOTAL].to_ms - so_row_bar_start(&st->rows[i]) > scale)
			scale = st->rows[i].span[SO_TOTAL].to_ms - so_row_bar_start(&st->rows[i]);
	}
	return scale;
}

/* The per-task stages in their phase's colour (phase.c's phase_colours, repeated: C has no
 * constant initialiser from another table; test_scaleout checks they agree), the stages
 * before any task exists in greys, health as ready, register its own */
const struct phase_colour so_stage_colours[SO_STAGE_COUNT] = {
	[SO_DETECT] = { 0x9e9e9e, 7, 247 },
	[SO_REACT] = { 0x757575, 7, 243 },
	[SO_SCHEDULE] = { 0xbdbdbd, 7, 250 },
	[SO_LAUNCH] = { 0xcfd8dc, 7, 252 },
	[SO_PROVISION] = { 0x3d7cc9, 4, -1 },
	[SO_ATTACH] = { 0x3d7cc9, 4, -1 },
	[SO_WAIT] = { 0x3d7cc9, 4, -1 },
	[SO_PULL] = { 0xd78700, 3, 172 },
	[SO_START] = { 0x3f9e5a, 2, -1 },
	[SO_HEALTH] = { 0x1fa2b5, 6, -1 },
	[SO_REGISTER] = { 0xb07aa1, 5, 139 },
	[SO_TOTAL] = { 0, -1, -1 },
};

char *
so_row_desired_text(const struct so_row *r, const char *arrow, bool brief, char *out,
		    size_t size)
{
	const char *w = brief ? "" : "desired ";

	if (size == 0)
		return out;
	out[0] = '\0';
	/* a deployment that replaces tasks at the same count is a row too: it started them */
	if (r->desired_from >= 0 && r->desired_from == r->desired_to)
		snprintf(out, size, brief ? "%ld rolling" : "desired %ld (unchanged: a rolling "
			 "replacement)", r->desired_to);
	else if (r->desired_from >= 0 && r->desired_to >= 0)
		snprintf(out, size, "%s%ld%s%s%s%ld", w, r->desired_from, brief ? "" : " ", arrow,
			 brief ? "" : " ", r->desired_to);
	else if (r->desired_to >= 0)
		snprintf(out, size, "%sto %ld", w, r->desired_to);
	else if (r->desired_from >= 0)
		snprintf(out, size, "%sfrom %ld", w, r->desired_from);
	return out;
}
