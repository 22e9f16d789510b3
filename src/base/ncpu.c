/* ncpu: the CPUs a run may use, asked of the affinity mask the kernel schedules this
 * process by, since `taskset -c 0` or a container's cpuset leave the online count as it
 * was (sysconf then answers 2 on a run confined to one core). */
#include <sched.h>
#include <unistd.h>

#include "ecsprof/ncpu.h"

unsigned
ncpu_usable(void)
{
	long n;
#ifdef CPU_COUNT
	cpu_set_t set;

	/* a mask too small for the machine (over CPU_SETSIZE CPUs) fails with EINVAL: the
	 * online count is then the better answer */
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		int c = CPU_COUNT(&set);

		if (c >= 1)
			return (unsigned)c;
	}
#endif
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 1 ? (unsigned)n : 1;
}
