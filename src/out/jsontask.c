/* jsontask: a task line written straight into the buffer. The columns, the phases and
 * their keys go at a pointer after one reservation of their worst case (issue 35: each
 * of the line's ~100 pieces checked the buffer's room, moved its length and wrote a NUL,
 * and each short text was looked at a byte at a time); the containers and tags, and any
 * line whose cells are too large to reserve for at once, take jsonfmt's checked writes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/numfmt.h"
#include "ecsprof/phase.h"
#include "ecsprof/task.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "jsonfmt.h"
#include "jsontask.h"

#define CELL_MAX JSONTASK_CELL_MAX

/* A copy of s that is valid UTF-8: each stray byte becomes U+FFFD. The parsers hand us
 * valid UTF-8, but jansson refuses anything else and a field must not silently vanish. */
char *
jsontask_utf8_fix(const char *s)
{
	size_t o = 0;
	char *fixed = xmalloc(strlen(s) * 3 + 1);

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t len = utf8_len(p);

		if (len == 0) {
			memcpy(fixed + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		} else {
			memcpy(fixed + o, p, len);
			o += len;
			p += len;
		}
	}
	fixed[o] = '\0';
	return fixed;
}

struct cellbuf {
	char *data;
	size_t size;
	struct report_cells *cells;   /* the row's cells at once (report_row_cells) */
};

/* report_cell() cuts at the buffer size; grow so a long text is never truncated */
static const char *
cell(const struct report *r, const struct report_row *row, enum col_id c, struct cellbuf *cb)
{
	for (;;) {
		report_cell(r, row, c, cb->data, cb->size);
		if (strlen(cb->data) + 1 < cb->size || cb->size >= CELL_MAX)
			return cb->data;
		cb->size *= 2;
		cb->data = xrealloc(cb->data, cb->size);
	}
}

#define PUTS(b, lit) jsonfmt_put((b), (lit), sizeof(lit) - 1)

/* The key a tag has in the "tags" object: its key with invalid UTF-8 fixed (a copy in
 * *fixed, which the caller frees, only when it needed fixing). */
static const char *
tag_key(const struct tag *tag, char **fixed)
{
	*fixed = NULL;
	for (const unsigned char *p = (const unsigned char *)tag->key; *p != '\0';) {
		size_t len = *p < 0x80 ? 1 : utf8_len(p);   /* ASCII: no call a byte */

		if (len == 0)
			return *fixed = jsontask_utf8_fix(tag->key);
		p += len;
	}
	return tag->key;
}

/* b's end after making room there for need bytes and the NUL, to write at; NULL when b
 * refuses to grow that far (its cap): the caller takes jsonfmt's checked writes */
static inline char *
room(struct buf *b, size_t need)
{
	if ((need >= b->cap - b->len || need > b->max - b->len) && buf_reserve(b, need) != 0)
		return NULL;
	return b->data + b->len;
}

/* what was written at room()'s pointer, up to o, is b's */
static inline void
room_done(struct buf *b, char *o)
{
	b->len = (size_t)(o - b->data);
	b->data[b->len] = '\0';
}

struct tag_item {
	const char *key;
	size_t pos;
};

/* tags a task may have sorted without an allocation (ECS allows 50) */
#define TAGS_HERE 64
/* up to this many, sorted in place by insertion */
#define TAGS_INSERTION 16

static int
tag_item_cmp(const void *pa, const void *pb)
{
	const struct tag_item *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* "tags":{...} as a jansson object held it: a key set twice keeps its first place and
 * its last value */
static int
write_tags(struct buf *b, const struct task *t)
{
	/* a task's few tags sorted on the stack: no allocation a task (issue 35) */
	struct tag_item items_here[TAGS_HERE];
	size_t last_here[TAGS_HERE];
	char *fixed_here[TAGS_HERE];
	bool here = t->prof->ntags <= TAGS_HERE;
	struct tag_item *items = here ? items_here : xreallocarray(NULL, t->prof->ntags, sizeof *items);
	size_t *last = here ? last_here : xreallocarray(NULL, t->prof->ntags, sizeof *last);
	char **fixed = here ? fixed_here : xreallocarray(NULL, t->prof->ntags, sizeof *fixed);
	size_t n = 0, written = 0;
	int rc = PUTS(b, "\"tags\":{");

	for (size_t i = 0; i < t->prof->ntags; i++) {
		last[i] = SIZE_MAX;   /* SIZE_MAX: not the first of its key */
		fixed[i] = NULL;
		if (t->prof->tags[i].key == NULL)
			continue;
		items[n].key = tag_key(&t->prof->tags[i], &fixed[i]);
		items[n++].pos = i;
	}
	if (n > TAGS_INSERTION) {
		qsort(items, n, sizeof *items, tag_item_cmp);
	} else {
		/* a task's usual few tags: qsort's set-up was most of their cost; the order is
		 * total (key, then place), so any sort gives this one */
		for (size_t i = 1; i < n; i++) {
			struct tag_item x = items[i];
			size_t j = i;

			for (; j > 0 && tag_item_cmp(&items[j - 1], &x) > 0; j--)
				items[j] = items[j - 1];
			items[j] = x;
		}
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && strcmp(items[j + 1].key, items[i].key) == 0)
			j++;
		last[items[i].pos] = items[j].pos;
		i = j + 1;
	}
	for (size_t i = 0; i < t->prof->ntags; i++) {
		if (last[i] == SIZE_MAX)
			continue;
		const char *key = fixed[i] != NULL ? fixed[i] : t->prof->tags[i].key;
		const char *value = t->prof->tags[last[i]].value;
		size_t kn = strlen(key), vn = value != NULL ? strlen(value) : 0;
		char *o = room(b, 6 * (kn + vn) + 8);

		if (o == NULL) {
			rc |= written++ > 0 ? jsonfmt_putc(b, ',') : 0;
			rc |= jsonfmt_key(b, key);
			rc |= jsonfmt_string(b, value);
			continue;
		}
		*o = ',';
		o += written++ > 0;
		/* a key "" stays "" (jsonfmt_key) */
		if (kn == 0) {
			memcpy(o, "\"\"", 2);
			o += 2;
		} else {
			o = jsonfmt_at_string(o, key, kn);
		}
		*o++ = ':';
		o = jsonfmt_at_string(o, vn > 0 ? value : "", vn);
		room_done(b, o);
	}
	for (size_t i = 0; i < t->prof->ntags; i++)
		free(fixed[i]);
	if (!here) {
		free(fixed);
		free(last);
		free(items);
	}
	return rc | jsonfmt_putc(b, '}');
}

/* n bytes of s, where w bytes (a constant) may be read at s: one copy of a fixed size,
 * which the compiler makes a few moves, where n varies and memcpy was a call (issue 35:
 * the 47 keys and 16 durations of a task line) */
static inline int
put_upto(struct buf *b, const char *s, size_t n, size_t w)
{
	if (w < b->cap - b->len && w <= b->max - b->len) {
		memcpy(b->data + b->len, s, w);
		b->len += n;
		b->data[b->len] = '\0';
		return 0;
	}
	return jsonfmt_put(b, s, n);
}

/* ",\"name\":" of each column, its length without the NUL; the first key skips the comma.
 * KEY_READ bytes are read at text or text + 1 (put_upto): the slot holds them. */
#define KEY_READ 32
#define JSON_KEY(name) { ",\"" name "\":", sizeof(",\"" name "\":") - 1 }
static const struct {
	char text[KEY_READ + 8];
	size_t len;
} json_keys[COL_COUNT] = {
#define X(id, name, title, kind) [id] = JSON_KEY(name),
	REPORT_COLUMNS(X)
#undef X
};
#define X(id, name, title, kind) \
	_Static_assert(sizeof(",\"" name "\":") - 1 <= KEY_READ, "a key longer than a read");
REPORT_COLUMNS(X)
#undef X

/* write_container through jsonfmt's checked writes, for a buf that cannot grow by its
 * worst case at once */
static int
container_checked(struct buf *b, const struct container *k)
{
	struct digest_buf db;
	int rc = PUTS(b, "{\"name\":");

	rc |= jsonfmt_string(b, k->prof->name);
	rc |= PUTS(b, ",\"image\":");
	rc |= jsonfmt_string(b, k->prof->image);
	rc |= PUTS(b, ",\"image_digest\":");
	rc |= jsonfmt_string(b, container_digest(k, &db));
	rc |= PUTS(b, ",\"last_status\":");
	rc |= jsonfmt_string(b, k->prof->last_status);
	rc |= PUTS(b, ",\"reason\":");
	rc |= jsonfmt_string(b, k->prof->reason);
	rc |= PUTS(b, ",\"exit_code\":");
	rc |= k->has_exit_code ? jsonfmt_int(b, k->exit_code) : PUTS(b, "null");
	rc |= PUTS(b, ",\"snapshotter\":");
	rc |= jsonfmt_string(b, k->prof->snapshotter);
	rc |= PUTS(b, ",\"health_status\":");
	rc |= jsonfmt_string(b, k->prof->health_status);
	return rc | jsonfmt_putc(b, '}');
}

/* {"name":...,"health_status":...}: at a pointer after one reservation of its worst case */
static int
write_container(struct buf *b, const struct container *k)
{
	static const struct {
		char text[24];   /* copied whole: a few moves, no call */
		size_t len;
	} keys[] = {
		{ "{\"name\":", 8 }, { ",\"image\":", 9 }, { ",\"image_digest\":", 16 },
		{ ",\"last_status\":", 15 }, { ",\"reason\":", 10 },
		{ ",\"snapshotter\":", 15 }, { ",\"health_status\":", 17 },
	};
	struct digest_buf db;
	const char *v[] = { k->prof->name, k->prof->image, container_digest(k, &db),
			    k->prof->last_status, k->prof->reason, k->prof->snapshotter,
			    k->prof->health_status };
	size_t n[sizeof v / sizeof v[0]], need = 64 + sizeof keys + NUMFMT_INT_LEN + 24;
	char *o;

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		n[i] = v[i] != NULL ? strlen(v[i]) : 0;
		need += 6 * n[i] + 4;
	}
	if ((o = room(b, need)) == NULL)
		return container_checked(b, k);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		if (i == 5) {   /* exit_code before the snapshotter */
			memcpy(o, ",\"exit_code\":", 13);
			o += 13;
			if (k->has_exit_code) {
				o += numfmt_i64(o, k->exit_code);
			} else {
				memcpy(o, "null", 4);
				o += 4;
			}
		}
		memcpy(o, keys[i].text, sizeof keys[i].text);
		o += keys[i].len;
		o = jsonfmt_at_string(o, n[i] > 0 ? v[i] : "", n[i]);
	}
	*o++ = '}';
	room_done(b, o);
	return 0;
}

/* jsonfmt_secs(report_cell_ms(row, c)) of a duration column: the row's "12.300" less its
 * trailing zeros is that text below 1e15 ms (16 bytes), so it is not formatted twice */
static int
put_duration(struct buf *b, const struct report_row *row, const struct report_cells *cells,
	     enum col_id c)
{
	const char *d = cells->text[c];
	size_t n = cells->len[c];

	if (n == 0 || d[0] == '-')
		return PUTS(b, "null");
	if (n > 16)
		return jsonfmt_secs(b, report_cell_ms(row, c));
	while (d[n - 1] == '0' && d[n - 2] != '.')
		n--;
	/* d is cells->num[c]: 16 bytes may be read (asserted below) */
	return put_upto(b, d, n, 16);
}

/* jsonfmt_string_len of a cell that holds only digits and "-.:TZ" (report_cells' raw):
 * quoted as it is, with no look at its bytes; "" is null */
static int
put_raw(struct buf *b, const char *s, size_t n)
{
	char *o;

	if (n == 0)
		return PUTS(b, "null");
	if (n + 2 >= b->cap - b->len || n + 2 > b->max - b->len)
		return jsonfmt_string_len(b, s, n);
	o = b->data + b->len;
	o[0] = '"';
	memcpy(o + 1, s, n);
	o[n + 1] = '"';
	b->len += n + 2;
	b->data[b->len] = '\0';
	return 0;
}

_Static_assert(sizeof((struct report_cells *)0)->num[0] >= 16, "put_duration reads 16");

/* each phase's duration column (report_cell_ms of it is phase_ms), and its "\"name\":" */
static const struct {
	enum col_id col;
	char key[16];   /* put_upto reads 16 */
	size_t len;
} phase_cols[] = {
	{ COL_PROVISION_S, "\"provision\":", sizeof("\"provision\":") - 1 },
	{ COL_PULL_S, "\"pull\":", sizeof("\"pull\":") - 1 },
	{ COL_START_S, "\"start\":", sizeof("\"start\":") - 1 },
	{ COL_TOTAL_S, "\"total\":", sizeof("\"total\":") - 1 },
	{ COL_CONNECTIVITY_S, "\"connectivity\":", sizeof("\"connectivity\":") - 1 },
	{ COL_READY_S, "\"ready\":", sizeof("\"ready\":") - 1 },
	{ COL_SERVING_S, "\"serving\":", sizeof("\"serving\":") - 1 },
};
_Static_assert(sizeof phase_cols / sizeof phase_cols[0] == PHASE_COUNT,
	       "a duration column for each phase");

/* The columns and the phases ('{' first) through jsonfmt's checked writes: for a line
 * whose worst case cannot be reserved at once (cells near CELL_MAX, a buf's cap). A
 * number cell that is no finite number has no key at all, as when json_object_set_new()
 * was handed json_real()'s NULL. */
static int
columns_checked(struct buf *b, const struct report *r, const struct report_row *row,
		struct cellbuf *cb)
{
	const struct report_cells *cells = cb->cells;
	bool first = true;
	int rc = jsonfmt_putc(b, '{');

	for (int c = 0; c < COL_COUNT; c++) {
		size_t mark = b->len;

		rc |= first ? put_upto(b, json_keys[c].text + 1, json_keys[c].len - 1, KEY_READ) :
			      put_upto(b, json_keys[c].text, json_keys[c].len, KEY_READ);
		if (report_columns[c].kind == COL_DURATION) {
			rc |= put_duration(b, row, cells, (enum col_id)c);
		} else if (report_columns[c].kind != COL_NUMBER && cells->raw[c] &&
			   cells->len[c] + 1 < CELL_MAX) {
			/* a time or count ecsprof wrote (the text report_cell() gives, without
			 * its copy, as csv does): nothing in it to escape */
			rc |= put_raw(b, cells->text[c], cells->len[c]);
		} else if (report_columns[c].kind == COL_TIME) {
			rc |= jsonfmt_string_len(b, cells->text[c], cells->len[c]);
		} else if (report_columns[c].kind == COL_NUMBER) {
			const char *num = cells->text[c];

			if (num[0] == '\0') {
				rc |= PUTS(b, "null");
			} else if (!jsonfmt_decimal(b, num, &rc)) {
				b->len = mark;   /* no key, as jansson left it out */
				b->data[mark] = '\0';
				continue;
			}
		} else {
			/* report_cell() as cell() grows it, uncut below CELL_MAX: the row's text,
			 * and cell()'s own cut for the (broken) texts that reach it */
			rc |= cells->len[c] + 1 < CELL_MAX ?
			      jsonfmt_string_len(b, cells->text[c], cells->len[c]) :
			      jsonfmt_string(b, cell(r, row, (enum col_id)c, cb));
		}
		first = false;
	}
	rc |= first ? PUTS(b, "\"phases\":{") : PUTS(b, ",\"phases\":{");
	for (int p = 0; p < PHASE_COUNT; p++) {
		rc |= p ? jsonfmt_putc(b, ',') : 0;
		rc |= put_upto(b, phase_cols[p].key, phase_cols[p].len, 16);
		rc |= put_duration(b, row, cells, phase_cols[p].col);
	}
	return rc;
}

/* each column's kind as a constant of this file, which the unrolled loop of columns_at
 * folds: each column's branch chosen when compiled, not at each row */
static const enum col_kind col_kind[COL_COUNT] = {
#define X(id, name, title, kind) [id] = kind,
	REPORT_COLUMNS(X)
#undef X
};

/* room columns_at needs beyond 6 bytes a byte of the cells: a column's key copied as
 * KEY_READ bytes, then its value's quotes, or "null", or a raw cell copied as its 32
 * bytes, or a duration as its 16; '{' and the phases object, each key copied as 16 */
#define COLUMN_ROOM (KEY_READ + 2 + sizeof((struct report_cells *)0)->num[0] + 8)
#define COLUMNS_ROOM (COL_COUNT * COLUMN_ROOM + 16 + PHASE_COUNT * 40)

/* put_duration at o: the end. The 17-byte and longer texts (a duration past 1e15 ms)
 * take jsonfmt_secs through b, its len set first, and o is read back from it. */
static inline char *
at_duration(struct buf *b, char *o, const struct report_row *row,
	    const struct report_cells *cells, enum col_id c, int *rc)
{
	const char *d = cells->text[c];
	size_t n = cells->len[c];

	if (n == 0 || d[0] == '-') {
		memcpy(o, "null", 4);
		return o + 4;
	}
	if (n > 16) {
		b->len = (size_t)(o - b->data);
		*rc |= jsonfmt_secs(b, report_cell_ms(row, c));
		return b->data + b->len;
	}
	while (d[n - 1] == '0' && d[n - 2] != '.')
		n--;
	memcpy(o, d, 16);   /* d is cells->num[c] */
	return o + n;
}

/* columns_checked's bytes written at a pointer after one reservation of their worst case
 * (COLUMNS_ROOM and 6 bytes a byte of the cells): 1, nothing written, when that cannot
 * be had, or a cell is near CELL_MAX (cell()'s cut), for columns_checked to write. */
static int
columns_at(struct buf *b, const struct report_row *row, const struct report_cells *cells)
{
	size_t need = 0, open;
	char *o;
	int rc = 0;

	for (int c = 0; c < COL_COUNT; c++)
		need += cells->len[c];
	/* no cell near CELL_MAX when they all add up to less (one test, not one a cell) */
	if (need + 1 >= CELL_MAX)
		return 1;
	need = 6 * need + COLUMNS_ROOM;
	if ((need >= b->cap - b->len || need > b->max - b->len) && buf_reserve(b, need) != 0)
		return 1;
	/* every key is written with its comma; the first comma written becomes the '{' */
	open = b->len;
	o = b->data + open;
#pragma GCC unroll 64
	for (int i = 0; i < COL_COUNT; i++) {
		enum col_id c = (enum col_id)i;
		const char *d = cells->text[c];
		size_t n = cells->len[c];
		char *key = o;

		memcpy(o, json_keys[c].text, KEY_READ);
		o += json_keys[c].len;
		switch (col_kind[c]) {
		case COL_DURATION:
			o = at_duration(b, o, row, cells, c, &rc);
			break;
		case COL_NUMBER:
			if (n == 0) {
				memcpy(o, "null", 4);
				o += 4;
				break;
			}
			b->len = (size_t)(o - b->data);
			if (!jsonfmt_decimal(b, d, &rc)) {
				o = key;   /* no key, as jansson left it out */
				break;
			}
			o = b->data + b->len;
			break;
		case COL_TEXT:
		case COL_TIME:
			if (!cells->raw[c] || n == 0) {
				o = jsonfmt_at_string(o, d, n);
			} else if (d == cells->num[c]) {
				/* a time or count ecsprof wrote into the row's num: nothing in it
				 * to escape, copied as its whole buffer */
				*o = '"';
				memcpy(o + 1, d, sizeof cells->num[c]);
				o[n + 1] = '"';
				o += n + 2;
			} else {
				*o = '"';
				memcpy(o + 1, d, n);
				o[n + 1] = '"';
				o += n + 2;
			}
			break;
		}
	}
	memcpy(o, ",\"phases\":{", 11);
	o += 11;
	for (int p = 0; p < PHASE_COUNT; p++) {
		*o = ',';
		o += p > 0;
		memcpy(o, phase_cols[p].key, 16);
		o += phase_cols[p].len;
		o = at_duration(b, o, row, cells, phase_cols[p].col, &rc);
	}
	b->data[open] = '{';
	b->len = (size_t)(o - b->data);
	b->data[b->len] = '\0';
	return rc;
}

int
jsontask_write(struct buf *b, const struct report *r, const struct report_row *row,
	       void *scratch)
{
	struct cellbuf *cb = scratch;
	const struct task *t = row->task;
	int rc;

	report_row_cells(r, row, TIME_FORMAT_ISO, cb->cells);
	rc = columns_at(b, row, cb->cells);
	if (rc > 0)
		rc = columns_checked(b, r, row, cb);
	rc |= PUTS(b, "},\"containers\":[");
	for (size_t i = 0; i < t->ncontainers; i++) {
		if (i > 0)
			rc |= jsonfmt_putc(b, ',');
		rc |= write_container(b, &t->containers[i]);
	}
	rc |= PUTS(b, "],");
	rc |= write_tags(b, t);
	return rc | jsonfmt_putc(b, '}');
}

void *
jsontask_scratch_new(void)
{
	struct cellbuf *cb = xmalloc(sizeof *cb);

	cb->size = 4096;
	cb->data = xmalloc(cb->size);
	cb->cells = xmalloc(sizeof *cb->cells);
	return cb;
}

void
jsontask_scratch_free(void *p)
{
	struct cellbuf *cb = p;

	free(cb->data);
	free(cb->cells);
	free(cb);
}
