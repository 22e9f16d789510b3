/* cmd_images: the images command (cmd.c dispatches to it). Ownership: borrows o. */
#ifndef ECSPROF_CMD_IMAGES_H
#define ECSPROF_CMD_IMAGES_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

int cmd_images(const struct cli_opts *o, struct err *err);

#endif
