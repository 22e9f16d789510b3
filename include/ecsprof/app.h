/* app: the commands (tasks, watch, record, report) wired from options to inputs, model
 * and outputs. main() only calls app_main().
 * Ownership: app_main owns everything it creates and frees it before returning. */
#ifndef ECSPROF_APP_H
#define ECSPROF_APP_H

int app_main(int argc, char **argv);

#endif
