/* fastjson: a reader for plainly valid JSON Lines lines that builds the very values
 * json_loadb(s, len, 0, ...) would, and gives up on anything else so jansson decides.
 * Ownership: a returned value is the caller's (json_decref); buf is the caller's scratch. */
#ifndef ECSPROF_FASTJSON_H
#define ECSPROF_FASTJSON_H

#include <jansson.h>
#include <stddef.h>

/* The line as json_loadb(s, len, 0, ...) reads it, or NULL: it gives up, and the caller
 * reads the line with json_loadb() from the start. buf holds at least len bytes; it is
 * scratch for strings with escapes and is only borrowed for the call. */
json_t *fastjson_load(const char *s, size_t len, char *buf);

#endif
