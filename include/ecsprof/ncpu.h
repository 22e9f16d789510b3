/* ncpu: the one answer to "how many threads can work at once" that the threaded readers
 * and writers ask (input_read.c's workers, rowchunks.c's second formatter). */
#ifndef ECSPROF_NCPU_H
#define ECSPROF_NCPU_H

/* The CPUs this process may run on (sched_getaffinity: `taskset -c 0`, a cgroup's
 * cpuset), at least 1; sysconf(_SC_NPROCESSORS_ONLN) where the affinity cannot be read.
 * Not the machine's count: two workers started on one allowed core share it and only
 * switch between each other. */
unsigned ncpu_usable(void);

#endif
