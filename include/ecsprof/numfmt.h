/* numfmt: integer, fixed-point and ISO 8601 digits written straight into a caller's array,
 * byte-identical to the printf conversions they replace, so the CSV and JSON writers do not
 * pay for a snprintf per cell (a quarter of `report --format csv` went there).
 * Ownership: nothing allocates; each function writes into `out` and returns the length
 * written before the NUL it always adds; `out` must hold the NUMFMT_*_LEN named below. */
#ifndef ECSPROF_NUMFMT_H
#define ECSPROF_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#define NUMFMT_INT_LEN 24     /* "-9223372036854775808" and its NUL, with room to spare */
#define NUMFMT_FIXED_LEN 352  /* "%.9f" of the largest double: 309 digits, '.', 9, NUL */

/* "%" PRIu64 and "%" PRId64 */
size_t numfmt_u64(char *out, uint64_t v);
size_t numfmt_i64(char *out, int64_t v);
/* Milliseconds as seconds with three decimals, "12.345", "-0.001", as
 * "%s%llu.%03llu" of the sign and |ms| (exact: integer arithmetic). NUMFMT_INT_LEN. */
size_t numfmt_ms_secs(char *out, int64_t ms);
/* "%.*f" of v for prec 0..9: correctly rounded from the double's exact binary value
 * (9.9995 is 9.99949999.. in binary, so "%.3f" gives "9.999"), exact halves to even, the
 * sign of -0.0 and of negative values that round to zero kept ("-0.000"), "nan"/"inf"
 * as printf writes them. Values too large for the fast path go through snprintf, so the
 * result is always printf's. NUMFMT_FIXED_LEN. */
size_t numfmt_fixed(char *out, double v, int prec);
/* "2024-05-01T10:00:03.123Z" of a date and the seconds and milliseconds of its day
 * (timeutil_iso_ms splits epoch milliseconds so; the calendar is timeutil's):
 * "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ"; years outside 0..9999 take the printf path.
 * NUMFMT_ISO_LEN (TIMEUTIL_ISO_LEN). */
#define NUMFMT_ISO_LEN 32
size_t numfmt_iso(char *out, int64_t y, unsigned m, unsigned d, unsigned secs, unsigned msr);

#endif
