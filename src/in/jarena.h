/* jarena: the memory jansson uses while a thread parses JSON Lines. jansson makes a
 * malloc'd node for every value, key and string of a line and frees them all a moment
 * later, a fifth of the parsing time; between jarena_begin() and jarena_end() a thread's
 * jansson allocations come from its own bump arena instead, emptied by jarena_line_done().
 * Ownership: the arena belongs to the thread; jarena_end() frees it.
 *
 * Rules:
 * 1. Nothing jansson allocates between begin and line_done may be used after line_done:
 *    copy what you keep out of the json_t first (the task's strings go to its pool).
 * 2. begin, line_done and end pair up on one thread; a thread without an open arena gets
 *    jansson's previous allocator (plain malloc/free), whatever other threads do.
 * 3. jansson's allocator is process-wide (json_set_alloc_funcs), so it is not replaced for
 *    the life of the process: jarena_scope_enter()/jarena_scope_leave() bracket one read
 *    call, on the thread that makes it, before any worker thread starts and after the last
 *    one has joined (pthread_create/join order the switch before and after every jansson
 *    call of the workers). Scopes nest and may overlap across threads (a counted switch
 *    under a mutex: installed by the first, restored by the last). Outside every scope
 *    jansson has its own allocator, so json_t values made elsewhere never meet the arena.
 * 4. Why the switch is safe for values that cross it: inside a scope, a thread with no open
 *    arena allocates and frees with the previous functions, exactly as outside; arena
 *    memory never outlives its line (rule 1), so none is alive when the scope ends; a value
 *    allocated before the scope is freed with the previous free() inside it. The one
 *    condition: no other thread may be inside jansson at the instant of the first enter or
 *    the last leave (jansson reads its two function pointers unsynchronised). ecsprof's
 *    readers (report, experiment's report and cleanup) read their files before any fetch
 *    thread starts, and the live fetch never calls input_read_*. */
#ifndef ECSPROF_JARENA_H
#define ECSPROF_JARENA_H

void jarena_scope_enter(void);
void jarena_scope_leave(void);
void jarena_begin(void);
void jarena_line_done(void);
void jarena_end(void);

#endif
