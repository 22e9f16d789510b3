/* scaleout_int: what the files of the scale-out story share (scaleout_story.c finds the
 * rows and their tasks, scaleout_stages.c measures them, scaleout_advice.c advises).
 * Ownership: as scaleout_story.h; nothing here allocates beyond the story's rows. */
#ifndef ECSPROF_SCALEOUT_INT_H
#define ECSPROF_SCALEOUT_INT_H

#include "ecsprof/scaleout.h"
#include "ecsprof/scaleout_story.h"

const struct so_service *so_service_of(const struct so_sources *src, const char *name);
/* "(service web) has started 5 tasks: ..." */
bool so_event_started(const char *msg);
/* Every stage of r with its instants, from the sources and r's tasks. */
void so_row_stages(const struct so_sources *src, const struct so_story *st, struct so_row *r);
/* The story's notes: each source that was not read and what it leaves empty, through
 * add (which takes the line). */
void so_story_notes(const struct so_sources *src, const struct task_set *ts,
		    struct so_story *st, void (*add)(struct so_story *, char *));

#endif
