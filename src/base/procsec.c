/* procsec: a core dump or a same-user debugger would see every credential the run held;
 * wiping each copy (creds_*, buf_init_secret) narrows the window, this closes the door. */
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ecsprof/procsec.h"

int
procsec_protect(void)
{
	struct rlimit none = { 0, 0 };
	int rc = 0;

#ifdef __linux__
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		rc = -1;
#endif
	if (setrlimit(RLIMIT_CORE, &none) != 0)
		rc = -1;
	return rc;
}
