/* procsec: what the process does about its own memory, since it holds AWS secrets (keys,
 * session tokens, SSO tokens) for the whole run. */
#ifndef ECSPROF_PROCSEC_H
#define ECSPROF_PROCSEC_H

/* No core dump, and no reading of this process's memory or environment by other
 * processes of the same user (/proc/PID/mem, environ; ptrace attach): PR_SET_DUMPABLE 0
 * and a core size limit of 0. Called first thing by main(); best effort (where the system
 * refuses, ecsprof runs as before). Returns 0 when both took effect, -1 otherwise. */
int procsec_protect(void);

#endif
