/* jarena: the memory jansson uses while a thread parses JSON Lines. jansson makes a
 * malloc'd node for every value, key and string of a line and frees them all a moment
 * later, a fifth of the parsing time; between jarena_begin() and jarena_end() a thread's
 * jansson allocations come from its own bump arena instead, emptied by jarena_line_done().
 * Rules: nothing allocated between begin and line_done may be used after line_done (copy
 * what you keep out of the json_t first); begin/end pair up on one thread; outside them,
 * and on every other thread, jansson gets plain malloc/free.
 * Ownership: the arena belongs to the thread; jarena_end() frees it. */
#ifndef ECSPROF_JARENA_H
#define ECSPROF_JARENA_H

void jarena_begin(void);
void jarena_line_done(void);
void jarena_end(void);

#endif
