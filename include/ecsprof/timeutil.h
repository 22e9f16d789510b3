/* timeutil: epoch-millisecond times, ISO 8601 parsing and UTC formatting, durations
 * like "30m", and the clock (replaceable in tests).
 * Ownership: nothing here allocates; output goes into caller-provided arrays. */
#ifndef ECSPROF_TIMEUTIL_H
#define ECSPROF_TIMEUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* "absent" for every time and duration in ecsprof: never 0 */
#define TS_NONE INT64_MIN

#define TIMEUTIL_ISO_LEN 32

/* Parses ISO 8601 / RFC 3339: "2024-05-01T10:00:03Z", "...03.123456+05:30",
 * "2024-05-01 10:00:03.1-0700", "...T10:00:03+0000". Fractions beyond ms are truncated.
 * Returns 0, or -1 when the text is not such a time (no partial parses). */
int timeutil_parse_iso8601(const char *s, int64_t *out_ms);
/* The same for a text of n bytes, not NUL-terminated (a NUL among them: -1), without a
 * copy: what timeutil_parse_iso8601() answers for it as a C string. The usual shape
 * "2024-05-01T10:00:47.746Z" is read on a fast path. */
int timeutil_parse_iso8601n(const char *s, size_t n, int64_t *out_ms);
/* The same without the fast path (for the tests that hold both to the same answers). */
int timeutil_parse_iso8601_general(const char *s, size_t n, int64_t *out_ms);
/* Epoch seconds as a double (ECS wire format, may be 1.557134011644E9) to ms, rounded
 * to the nearest ms. -1 when not finite or out of the years 1970..9999. */
int timeutil_epoch_seconds_to_ms(double seconds, int64_t *out_ms);
/* "2024-05-01T10:00:03.123Z"; writes "" for TS_NONE. */
void timeutil_format_iso(int64_t ms, char out[TIMEUTIL_ISO_LEN]);
/* The same, returning the length written before the NUL (0 for TS_NONE, written ""):
 * the calendar here, the digits numfmt_iso()'s. */
size_t timeutil_iso_ms(char *out, int64_t ms);
/* The same for several times in a row (a task's), the text of the last day written kept
 * in day (the caller's, set to TIMEUTIL_DAY_INIT first) and copied, not worked out again,
 * for another time on that day. */
struct timeutil_day {
	int64_t days;           /* since 1970-01-01; TS_NONE: none yet */
	char date[11];          /* "2024-05-01T" */
};
#define TIMEUTIL_DAY_INIT { TS_NONE, { 0 } }
size_t timeutil_iso_ms_day(char *out, int64_t ms, struct timeutil_day *day);
/* How a time is written where the reader chooses (--time-format): ISO 8601 as above;
 * SPREADSHEET "2024-05-01 10:00:03.123" (UTC, no zone: what Excel, LibreOffice and Google
 * Sheets read as a date-time in any locale); EPOCH "1714557603.123" (seconds). */
enum time_format { TIME_FORMAT_ISO, TIME_FORMAT_SPREADSHEET, TIME_FORMAT_EPOCH };
/* writes "" for TS_NONE */
void timeutil_format_as(int64_t ms, enum time_format f, char out[TIMEUTIL_ISO_LEN]);
/* days since 1970-01-01 <-> civil date (proleptic Gregorian), so we never need gmtime. */
int64_t timeutil_days_from_civil(int64_t y, unsigned m, unsigned d);
void timeutil_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);
/* "90s", "30m", "2h", "1d", "1h30m" -> ms; -1 on error */
int timeutil_parse_duration(const char *s, int64_t *out_ms);
/* --since: a duration before now, an ISO 8601 time, or a date (YYYY-MM-DD) or time
 * without a zone (YYYY-MM-DDTHH:MM[:SS]), both taken as UTC */
int timeutil_parse_since(const char *s, int64_t now_ms, int64_t *out_ms);
/* seconds with three decimals: "12.345"; "" for TS_NONE */
void timeutil_format_secs(int64_t ms, char *out, size_t size);
/* A duration as a person says it, the way --interval and --timeout take it: "2s", "0.5s"
 * (under a minute, no trailing zeros), "3m05s", "10m", "1h30m", "2h"; "" for a negative
 * ms. */
void timeutil_format_duration(int64_t ms, char *out, size_t size);

/* A clock passed in (issue 32 item 4): what reads the time or waits takes one from its
 * options or context, so that a test gives its own fake instead of swapping a global.
 * timeutil_clock_real is CLOCK_REALTIME and nanosleep (restarted on EINTR). */
struct timeutil_clock {
	int64_t (*now_ms)(void *ctx);
	void (*sleep_ms)(void *ctx, int64_t ms);
	void *ctx;
};
extern const struct timeutil_clock timeutil_clock_real;
/* c's time and wait; NULL is timeutil_clock_real. */
int64_t timeutil_clock_now(const struct timeutil_clock *c);
void timeutil_clock_sleep(const struct timeutil_clock *c, int64_t ms);

/* The real clock itself (timeutil_clock_real's), for code whose tests do not fake time
 * (cmd/, in/, tui/ for now); what a test fakes takes a struct timeutil_clock instead. */
int64_t timeutil_now_ms(void);
void timeutil_sleep_ms(int64_t ms);

struct timespec;
/* The CLOCK_REALTIME instant ms from now, as pthread_cond_timedwait takes it (the
 * system's clock, not timeutil_now_ms: the wait is the kernel's). */
void timeutil_abstime_in(int64_t ms, struct timespec *out);

#endif
