/* check_int: what the rule files of `ecsprof check` share: the test functions the rule
 * table (check_rules.c) names, and the small helpers they use.
 * Ownership: the tests borrow their input and append owned findings to out. */
#ifndef ECSPROF_CHECK_INT_H
#define ECSPROF_CHECK_INT_H

#include "ecsprof/check.h"

/* Fargate's default nofile limits (soft and hard) on current platform versions. */
#define CHECK_FARGATE_NOFILE 65535L

/* Fargate rules apply: requiresCompatibilities names FARGATE, or names nothing (then
 * only RunTask on Fargate would find the faults). */
bool check_on_fargate(const struct taskdef *td);

/* check_rules.c: the task-level and Fargate parameter tests */
/* check_wiring.c: containers, dependsOn, health checks, ulimits */
check_test_fn check_container_required, check_container_name_dup, check_container_resources,
	check_no_essential, check_depends_unknown, check_depends_condition, check_depends_cycle,
	check_depends_healthy_no_check, check_depends_exit_essential, check_health_range,
	check_health_timeout, check_health_first_check, check_health_unhealthy_late,
	check_nofile_low, check_ulimit_order;
/* check_grid.c: the size grid, the platform version, the price */
check_test_fn check_fargate_size, check_fargate_platform_size, check_price;
/* check_image.c: image references and the image path */
check_test_fn check_image_latest, check_image_docker_hub, check_image_path,
	check_image_path_unchecked, check_image_endpoint_subnet;
/* check_pull.c: the pull forecast from --history */
check_test_fn check_pull, check_image_size;

#endif
