/* report_cols: the columns of a report row, their ids, names, titles and kinds: the one
 * list (the CSV contract's order) that report.c fills and report_image.c answers for its
 * image columns. A header of its own so that report_image needs no report.h (report.c
 * calls it: the two included each other). The table itself, report_columns[], is
 * report.h's. */
#ifndef ECSPROF_REPORT_COLS_H
#define ECSPROF_REPORT_COLS_H

/* COL_NUMBER: a plain decimal that is not seconds (startup_cost_usd) */
enum col_kind { COL_TEXT, COL_TIME, COL_DURATION, COL_NUMBER };

/* X(id, csv/json name, short title for the table, kind) — the CSV column order. */
#define REPORT_COLUMNS(X)                                                  \
	X(COL_TASK_ARN,         "task_arn",         "ARN",       COL_TEXT)     \
	X(COL_TASK_ID,          "task_id",          "TASK",      COL_TEXT)     \
	X(COL_CLUSTER,          "cluster",          "CLUSTER",   COL_TEXT)     \
	X(COL_SERVICE,          "service",          "SERVICE",   COL_TEXT)     \
	X(COL_TASKDEF,          "taskdef",          "TASKDEF",   COL_TEXT)     \
	X(COL_LAUNCH_TYPE,      "launch_type",      "LAUNCH",    COL_TEXT)     \
	X(COL_CAPACITY_PROVIDER,"capacity_provider","CAPACITY",  COL_TEXT)     \
	X(COL_PLATFORM_VERSION, "platform_version", "PLATFORM",  COL_TEXT)     \
	X(COL_AZ,               "availability_zone","AZ",        COL_TEXT)     \
	X(COL_CPU,              "cpu",              "CPU",       COL_TEXT)     \
	X(COL_MEMORY,           "memory",           "MEM",       COL_TEXT)     \
	X(COL_LAST_STATUS,      "last_status",      "STATUS",    COL_TEXT)     \
	X(COL_IMAGE,            "image",            "IMAGE",     COL_TEXT)     \
	X(COL_IMAGE_DIGEST,     "image_digest",     "DIGEST",    COL_TEXT)     \
	X(COL_SOCI,             "soci",             "SOCI",      COL_TEXT)     \
	X(COL_SOCI_EVIDENCE,    "soci_evidence",    "EVIDENCE",  COL_TEXT)     \
	X(COL_GROUP,            "group",            "GROUP",     COL_TEXT)     \
	X(COL_CREATED_AT,       "created_at",       "CREATED",   COL_TIME)     \
	X(COL_CONNECTIVITY_AT,  "connectivity_at",  "CONNECTED", COL_TIME)     \
	X(COL_PULL_STARTED_AT,  "pull_started_at",  "PULL-START",COL_TIME)     \
	X(COL_PULL_STOPPED_AT,  "pull_stopped_at",  "PULL-STOP", COL_TIME)     \
	X(COL_STARTED_AT,       "started_at",       "STARTED",   COL_TIME)     \
	X(COL_STOPPED_AT,       "stopped_at",       "STOPPED",   COL_TIME)     \
	X(COL_STOP_CODE,        "stop_code",        "STOP-CODE", COL_TEXT)     \
	X(COL_STOPPED_REASON,   "stopped_reason",   "REASON",    COL_TEXT)     \
	X(COL_PROVISION_S,      "provision_s",      "PROVISION", COL_DURATION) \
	X(COL_PULL_S,           "pull_s",           "PULL",      COL_DURATION) \
	X(COL_START_S,          "start_s",          "START",     COL_DURATION) \
	X(COL_TOTAL_S,          "total_s",          "TOTAL",     COL_DURATION) \
	X(COL_CONNECTIVITY_S,   "connectivity_s",   "CONNECT",   COL_DURATION) \
	X(COL_SOURCE,           "source",           "SOURCE",    COL_TEXT)     \
	X(COL_HEALTHY_AT,       "healthy_at",       "HEALTHY",   COL_TIME)     \
	X(COL_HEALTHY_SOURCE,   "healthy_source",   "HEALTH-SRC",COL_TEXT)     \
	X(COL_HEALTHY_RES_S,    "healthy_resolution_s", "HEALTH-RES", COL_DURATION) \
	X(COL_READY_S,          "ready_s",          "READY",     COL_DURATION) \
	X(COL_SERVING_S,        "serving_s",        "SERVING",   COL_DURATION) \
	X(COL_BILLED_STARTUP_S, "billed_startup_s", "BILLED",    COL_DURATION) \
	X(COL_STARTUP_COST_USD, "startup_cost_usd", "COST-USD",  COL_NUMBER)   \
	X(COL_DIAGNOSIS,        "diagnosis",        "DIAGNOSIS", COL_TEXT)     \
	X(COL_DIAGNOSIS_CAUSE,  "diagnosis_cause",  "CAUSE",     COL_TEXT)     \
	X(COL_DIAGNOSIS_NEXT,   "diagnosis_next_step", "NEXT-STEP", COL_TEXT)     \
	X(COL_IMAGE_SIZE,       "image_size_bytes", "IMG-SIZE",  COL_TEXT)     \
	X(COL_IMAGE_LAYERS,     "image_layers",     "LAYERS",    COL_TEXT)     \
	X(COL_IMAGE_COMPRESSION,"image_compression","COMPRESS",  COL_TEXT)     \
	X(COL_SOCI_INDEX,       "soci_index",       "INDEX",     COL_TEXT)     \
	X(COL_PULL_MBPS,        "pull_mbps",        "MB/S",      COL_TEXT)     \
	X(COL_SOCI_ADVICE,      "soci_advice",      "ADVICE",    COL_TEXT)

enum col_id {
#define X(id, name, title, kind) id,
	REPORT_COLUMNS(X)
#undef X
	COL_COUNT
};

struct column_def {
	enum col_id id;
	const char *name;
	const char *title;
	enum col_kind kind;
};

#endif
