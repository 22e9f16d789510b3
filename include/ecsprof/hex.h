/* hex: bytes as lowercase hex digits and back, the one encoder for what AWS and the
 * registries write in hex: SigV4's hashes and signatures, an image digest's bytes. */
#ifndef ECSPROF_HEX_H
#define ECSPROF_HEX_H

#include <stdbool.h>
#include <stddef.h>

/* Writes n bytes as 2n lowercase hex digits at out (no '\0'). */
void hex_encode(const void *bytes, size_t n, char *out);

/* Reads 2n lowercase hex digits at digits into n bytes at out. False if any of them is not
 * one of 0-9a-f (an uppercase digit too: a digest's text is lowercase, and one written
 * otherwise must read back as written); out is then partly written. */
bool hex_decode_lower(const char *digits, size_t n, void *out);

/* A hex digit's value, either case, or -1 (percent-decoding). */
int hex_value(char c);

#endif
