/* timeutil: ISO 8601 parsing and formatting on integer milliseconds, without the C
 * library's time zone machinery (gmtime and friends are banned: not reentrant, and
 * mktime depends on TZ). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ecsprof/numfmt.h"
#include "ecsprof/timeutil.h"

/* Howard Hinnant's days_from_civil: exact for the proleptic Gregorian calendar. */
int64_t
timeutil_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* days of the year before each month's first, in a year of 365 */
static const int before_month[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };

void
timeutil_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	if (z >= 0 && z < 47482) {
		/* 1970..2099, where every fourth year is a leap year (2000 too): the years
		 * counted in fours from 1968, without the calendar's divisions; the month is
		 * day/32 or the one after (a CSV writes some 7 times a task) */
		unsigned e = (unsigned)z + 731, r = e % 1461, yi = r >= 366 ? (r - 1) / 365 : 0;
		unsigned doy = yi > 0 ? r - 1 - 365 * yi : r, mi = doy / 32, leapday = yi == 0;

		if (mi < 11 && doy >= (unsigned)before_month[mi + 1] + (mi + 1 >= 2 && leapday))
			mi++;
		*y = 1968 + 4 * (int64_t)(e / 1461) + yi;
		*m = mi + 1;
		*d = doy - (unsigned)before_month[mi] - (mi >= 2 && leapday) + 1;
		return;
	}
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* p's byte, or NUL past the end: the general reader takes a text of n bytes as it took
 * a C string */
static char
at(const char *p, const char *end)
{
	return p < end ? *p : '\0';
}

static int
digits(const char **p, const char *end, int n, int *out)
{
	int v = 0;

	if (end - *p < n)
		return -1;
	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

static bool
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* the fields read, checked as a calendar time and turned to epoch ms */
static int
civil_ms(int y, int mo, int d, int h, int mi, int sec, int ms, int off_min, int64_t *out_ms)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool lp;
	int64_t days;

	if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 60)
		return -1;
	lp = leap(y);
	if (d > mdays[mo - 1] + (mo == 2 && lp))
		return -1;
	if (y >= 1970 && y <= 2099)
		/* every fourth year a leap year (2000 too): the leap days of 1970..y-1 counted
		 * without the calendar's divisions, as timeutil_days_from_civil() gives */
		days = (int64_t)(y - 1970) * 365 + (y - 1969) / 4 + before_month[mo - 1] +
		       (mo > 2 && lp) + d - 1;
	else
		days = timeutil_days_from_civil(y, (unsigned)mo, (unsigned)d);
	int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - (int64_t)off_min * 60;
	*out_ms = secs * 1000 + ms;
	return 0;
}

int
timeutil_parse_iso8601_general(const char *s, size_t n, int64_t *out_ms)
{
	int y, mo, d, h, mi, sec = 0, ms = 0, off_min = 0;
	const char *p = s, *end = s + n;
	char c;

	if (digits(&p, end, 4, &y) || at(p++, end) != '-' || digits(&p, end, 2, &mo) ||
	    at(p++, end) != '-' || digits(&p, end, 2, &d))
		return -1;
	c = at(p, end);
	if (c != 'T' && c != 't' && c != ' ')
		return -1;
	p++;
	if (digits(&p, end, 2, &h) || at(p++, end) != ':' || digits(&p, end, 2, &mi))
		return -1;
	if (at(p, end) == ':') {
		p++;
		if (digits(&p, end, 2, &sec))
			return -1;
		if (at(p, end) == '.' || at(p, end) == ',') {
			int scale = 100, nd = 0;

			p++;
			while ((c = at(p, end)) >= '0' && c <= '9') {
				ms += (c - '0') * scale;
				scale /= 10;
				p++;
				nd++;
			}
			if (nd == 0)
				return -1;
		}
	}
	c = at(p, end);
	if (c == 'Z' || c == 'z') {
		p++;
	} else if (c == '+' || c == '-') {
		int sign = c == '-' ? -1 : 1, oh, om = 0;

		p++;
		if (digits(&p, end, 2, &oh))
			return -1;
		if (at(p, end) == ':')
			p++;
		if ((c = at(p, end)) >= '0' && c <= '9' && digits(&p, end, 2, &om))
			return -1;
		if (oh > 23 || om > 59)
			return -1;
		off_min = sign * (oh * 60 + om);
	} else {
		return -1;  /* a time without zone is ambiguous: refuse rather than guess */
	}
	if (p != end)
		return -1;   /* more text, a NUL among it too */
	return civil_ms(y, mo, d, h, mi, sec, ms, off_min, out_ms);
}

/* "2024-05-01T10:00:47.746Z", the shape ECS, EventBridge and ecsprof write, in three
 * 8-byte loads: the text XOR the template is 0..9 where a digit belongs and 0 at each
 * separator, which adding 0x76 (digits) or 0x7F (separators) to each byte's low 7 bits
 * leaves below 0x80. 1: another shape, for the general reader; else what it answers. */
static int
parse_usual(const char *s, int64_t *out_ms)
{
	static const char tmpl[24] = "0000-00-00T00:00:00.000Z";
	static const unsigned char add[24] = { 0x76, 0x76, 0x76, 0x76, 0x7F, 0x76, 0x76, 0x7F,
		0x76, 0x76, 0x7F, 0x76, 0x76, 0x7F, 0x76, 0x76, 0x7F, 0x76, 0x76, 0x7F, 0x76,
		0x76, 0x76, 0x7F };
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, high = 0x8080808080808080ULL;
	uint64_t bad = 0;

	for (int i = 0; i < 24; i += 8) {
		uint64_t w, t, a, x;

		memcpy(&w, s + i, 8);
		memcpy(&t, tmpl + i, 8);
		memcpy(&a, add + i, 8);
		x = w ^ t;
		bad |= (((x & low7) + a) | x) & high;
	}
	if (bad != 0)
		return 1;
#define D(i) (s[i] - '0')
	return civil_ms(D(0) * 1000 + D(1) * 100 + D(2) * 10 + D(3), D(5) * 10 + D(6),
			D(8) * 10 + D(9), D(11) * 10 + D(12), D(14) * 10 + D(15),
			D(17) * 10 + D(18), D(20) * 100 + D(21) * 10 + D(22), 0, out_ms);
#undef D
}

int
timeutil_parse_iso8601n(const char *s, size_t n, int64_t *out_ms)
{
	int r;

	if (n == 24 && (r = parse_usual(s, out_ms)) <= 0)
		return r;
	return timeutil_parse_iso8601_general(s, n, out_ms);
}

int
timeutil_parse_iso8601(const char *s, int64_t *out_ms)
{
	if (s == NULL)
		return -1;
	return timeutil_parse_iso8601n(s, strlen(s), out_ms);
}

int
timeutil_epoch_seconds_to_ms(double seconds, int64_t *out_ms)
{
	/* year 9999 bounds what ISO formatting can print */
	if (!isfinite(seconds) || seconds < 0 || seconds > 253402300799.0)
		return -1;
	*out_ms = (int64_t)llround(seconds * 1000.0);
	return 0;
}

size_t
timeutil_iso_ms(char *out, int64_t ms)
{
	int64_t days, rem, y;
	unsigned m, d;

	if (ms == TS_NONE) {
		out[0] = '\0';
		return 0;
	}
	days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
	rem = ms - days * 86400000;
	timeutil_civil_from_days(days, &y, &m, &d);
	return numfmt_iso(out, y, m, d, (unsigned)(rem / 1000), (unsigned)(rem % 1000));
}

size_t
timeutil_iso_ms_day(char *out, int64_t ms, struct timeutil_day *day)
{
	int64_t days;
	unsigned rem, v;
	size_t n;

	if (ms == TS_NONE) {
		out[0] = '\0';
		return 0;
	}
	days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
	if (days != day->days) {
		/* a new day (or a year numfmt_iso writes with printf): the whole text */
		n = timeutil_iso_ms(out, ms);
		if (n == 24 && out[10] == 'T') {
			memcpy(day->date, out, sizeof day->date);
			day->days = days;
		}
		return n;
	}
	/* "HH:MM:SS.mmmZ" of the day's date: numfmt_iso's digits, written here */
	rem = (unsigned)(ms - days * 86400000);
	memcpy(out, day->date, sizeof day->date);
	v = rem / 3600000;
	out[11] = (char)('0' + v / 10);
	out[12] = (char)('0' + v % 10);
	out[13] = ':';
	v = rem / 60000 % 60;
	out[14] = (char)('0' + v / 10);
	out[15] = (char)('0' + v % 10);
	out[16] = ':';
	v = rem / 1000 % 60;
	out[17] = (char)('0' + v / 10);
	out[18] = (char)('0' + v % 10);
	out[19] = '.';
	v = rem % 1000;
	out[20] = (char)('0' + v / 100);
	out[21] = (char)('0' + v / 10 % 10);
	out[22] = (char)('0' + v % 10);
	out[23] = 'Z';
	out[24] = '\0';
	return 24;
}

void
timeutil_format_iso(int64_t ms, char out[TIMEUTIL_ISO_LEN])
{
	timeutil_iso_ms(out, ms);
}

void
timeutil_format_as(int64_t ms, enum time_format f, char out[TIMEUTIL_ISO_LEN])
{
	switch (f) {
	case TIME_FORMAT_EPOCH:
		timeutil_format_secs(ms, out, TIMEUTIL_ISO_LEN);
		return;
	case TIME_FORMAT_SPREADSHEET:
		timeutil_format_iso(ms, out);
		if (out[0] != '\0') {
			/* "2024-05-01T10:00:03.123Z" -> "2024-05-01 10:00:03.123" */
			char *t = strchr(out, 'T'), *z = strchr(out, 'Z');

			if (t != NULL)
				*t = ' ';
			if (z != NULL)
				*z = '\0';
		}
		return;
	case TIME_FORMAT_ISO:
	default:
		timeutil_format_iso(ms, out);
		return;
	}
}

void
timeutil_format_secs(int64_t ms, char *out, size_t size)
{
	char tmp[NUMFMT_INT_LEN];
	size_t n;

	if (size == 0)
		return;
	if (ms == TS_NONE) {
		out[0] = '\0';
		return;
	}
	if (size >= NUMFMT_INT_LEN) {
		numfmt_ms_secs(out, ms);
		return;
	}
	/* a short buffer is cut as snprintf cuts it */
	n = numfmt_ms_secs(tmp, ms);
	if (n >= size)
		n = size - 1;
	memcpy(out, tmp, n);
	out[n] = '\0';
}

void
timeutil_format_duration(int64_t ms, char *out, size_t size)
{
	long long s = ms / 1000;

	if (size == 0)
		return;
	out[0] = '\0';
	if (ms < 0)
		return;
	if (ms < 60000) {
		int len = snprintf(out, size, "%.3f", (double)ms / 1000.0);

		/* "2.000" -> "2", "0.500" -> "0.5" */
		while (len > 0 && (size_t)len < size && out[len - 1] == '0')
			out[--len] = '\0';
		if (len > 0 && (size_t)len < size && out[len - 1] == '.')
			out[--len] = '\0';
		if (len >= 0 && (size_t)len + 1 < size)
			memcpy(out + len, "s", 2);
	} else if (ms < 3600000) {
		snprintf(out, size, s % 60 ? "%lldm%02llds" : "%lldm", s / 60, s % 60);
	} else {
		snprintf(out, size, s / 60 % 60 ? "%lldh%02lldm" : "%lldh", s / 3600, s / 60 % 60);
	}
}

int
timeutil_parse_duration(const char *s, int64_t *out_ms)
{
	int64_t total = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -1;
	while (*p != '\0') {
		int64_t v = 0, unit;
		int n = 0;

		while (isdigit((unsigned char)*p)) {
			if (v > INT64_MAX / 10 / 86400000)
				return -1;
			v = v * 10 + (*p++ - '0');
			n++;
		}
		if (n == 0)
			return -1;
		switch (*p) {
		case 's': unit = 1000; break;
		case 'm': unit = 60000; break;
		case 'h': unit = 3600000; break;
		case 'd': unit = 86400000; break;
		default: return -1;
		}
		p++;
		total += v * unit;
	}
	*out_ms = total;
	return 0;
}

int
timeutil_parse_since(const char *s, int64_t now_ms, int64_t *out_ms)
{
	int64_t d;

	char buf[40];
	size_t n = strlen(s);

	if (timeutil_parse_duration(s, &d) == 0) {
		*out_ms = now_ms - d;
		return 0;
	}
	if (timeutil_parse_iso8601(s, out_ms) == 0)
		return 0;
	/* what people type: a date (its midnight) or a time without a zone, both in UTC as
	 * the table and the CSV print times (data times stay strict: parse_iso8601) */
	if (n == 10)
		snprintf(buf, sizeof buf, "%sT00:00:00Z", s);
	else if (n >= 16 && n < sizeof buf - 1)
		snprintf(buf, sizeof buf, "%sZ", s);
	else
		return -1;
	return timeutil_parse_iso8601(buf, out_ms);
}

int64_t
timeutil_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
timeutil_sleep_ms(int64_t ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void
timeutil_abstime_in(int64_t ms, struct timespec *out)
{
	clock_gettime(CLOCK_REALTIME, out);
	if (ms < 0)
		ms = 0;
	out->tv_sec += (time_t)(ms / 1000);
	out->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (out->tv_nsec >= 1000000000L) {
		out->tv_sec++;
		out->tv_nsec -= 1000000000L;
	}
}

static int64_t
clock_real_now(void *ctx)
{
	(void)ctx;
	return timeutil_now_ms();
}

static void
clock_real_sleep(void *ctx, int64_t ms)
{
	(void)ctx;
	timeutil_sleep_ms(ms);
}

const struct timeutil_clock timeutil_clock_real = { clock_real_now, clock_real_sleep, NULL };

int64_t
timeutil_clock_now(const struct timeutil_clock *c)
{
	return c != NULL ? c->now_ms(c->ctx) : timeutil_now_ms();
}

void
timeutil_clock_sleep(const struct timeutil_clock *c, int64_t ms)
{
	if (c != NULL)
		c->sleep_ms(c->ctx, ms);
	else
		timeutil_sleep_ms(ms);
}
