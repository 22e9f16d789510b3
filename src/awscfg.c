/* awscfg: not yet written (placeholder so the build links). */
#include "ecsprof/err.h"
