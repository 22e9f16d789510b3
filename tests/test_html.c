/* html: the waterfall's time axis (when a gap is cut out, and where times land), the
 * number formats and the escaping. The whole page is rendered by tests/share/html_render.py
 * in a browser. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/out/html_int.h"
#include "ecsprof/image.h"
#include "fixtures/failed_start.h"

#define S 1000
#define MIN (60 * S)
#define H (60 * MIN)

Test(html, axis_cuts_hours_between_two_bursts)
{
	/* two scale-outs of ~2 minutes, 5 hours apart */
	int64_t start[] = { 0, 1 * S, 2 * S, 5 * H, 5 * H + 3 * S };
	int64_t end[] = { 90 * S, 100 * S, 110 * S, 5 * H + 95 * S, 5 * H + 120 * S };
	struct html_axis a;

	html_axis_build(&a, start, end, 5, 100, 1000);
	cr_assert_eq(a.nseg, 2);
	cr_expect_eq(a.nskipped, 1);
	cr_expect_eq(a.skipped_ms, 5 * H - 110 * S);
	cr_expect_eq(a.seg[0].t0, 0);
	cr_expect_eq(a.seg[0].t1, 110 * S);
	cr_expect_eq(a.seg[1].t0, 5 * H);
	cr_expect_float_eq(html_axis_x(&a, 0), 100, 1e-9);
	cr_expect_float_eq(html_axis_x(&a, 5 * H + 120 * S), 1000, 1e-9);
	/* both bursts get room; a time in the cut lands where the next burst starts */
	cr_expect_gt(a.seg[0].x1 - a.seg[0].x0, 300);
	cr_expect_gt(a.seg[1].x1 - a.seg[1].x0, 300);
	cr_expect_float_eq(html_axis_x(&a, 2 * H), a.seg[1].x0, 1e-9);
	cr_expect_lt(html_axis_x(&a, 50 * S), html_axis_x(&a, 60 * S));
}

Test(html, axis_keeps_a_pause_inside_a_scale_out)
{
	/* tasks over 20 minutes with a 5-minute pause: one linear axis */
	int64_t start[] = { 0, 2 * MIN, 10 * MIN, 17 * MIN };
	int64_t end[] = { 2 * MIN, 5 * MIN, 12 * MIN, 20 * MIN };
	struct html_axis a;

	html_axis_build(&a, start, end, 4, 0, 1000);
	cr_assert_eq(a.nseg, 1);
	cr_expect_eq(a.nskipped, 0);
	cr_expect_float_eq(html_axis_x(&a, 10 * MIN), 500, 1e-9);
}

Test(html, axis_of_one_instant)
{
	int64_t t[] = { 5 * H };
	struct html_axis a;

	html_axis_build(&a, t, t, 1, 0, 1000);
	cr_assert_eq(a.nseg, 1);
	cr_expect_gt(a.seg[0].t1, a.seg[0].t0, "a zero-length axis would divide by zero");
}

Test(html, tick_steps)
{
	cr_expect_eq(html_nice_step_ms(100 * S, 8), 15 * S);
	cr_expect_eq(html_nice_step_ms(3 * H, 6), 30 * MIN);
	cr_expect_eq(html_nice_step_ms(500, 5), 100);
}

Test(html, seconds_for_a_reader)
{
	char v[64];

	html_fmt_secs(690, v, sizeof v);
	cr_expect_str_eq(v, "0.690 s");
	html_fmt_secs(72345, v, sizeof v);
	cr_expect_str_eq(v, "72.3 s");
	html_fmt_secs(252000, v, sizeof v);
	cr_expect_str_eq(v, "252.0 s");
	html_fmt_secs(19 * MIN + 5 * S, v, sizeof v);
	cr_expect_str_eq(v, "19 min 5 s");
	html_fmt_secs(5 * H + 19 * MIN + 59 * S, v, sizeof v);
	cr_expect_str_eq(v, "5 h 19 min");
	html_fmt_secs(TS_NONE, v, sizeof v);
	cr_expect_str_eq(v, "-");
}

Test(html, escaping)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cr_assert_not_null(f);
	html_esc(f, "<a href=\"x\">'&'</a>\x01");
	fclose(f);
	cr_expect_str_eq(out, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\xef\xbf\xbd");
	free(out);
}

/* issue 31 item 4: bidi controls, noncharacters and invalid bytes become U+FFFD, each
 * sequence once; valid text around them (multi-byte too) stays byte for byte */
Test(html, unsafe_code_points_are_replaced)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cr_assert_not_null(f);
	html_esc(f, "caf\xc3\xa9 \xe2\x80\xae" "exe \xef\xbf\xbe\xe2\x81\xa6\xd8\x9c\xff \xe4\xb8\xad\v");
	fclose(f);
	cr_expect_str_eq(out, "caf\xc3\xa9 \xef\xbf\xbd" "exe \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
			 "\xe4\xb8\xad\xef\xbf\xbd");
	free(out);
}

/* ---- image facts and diagnosis counts (html_facts.c) ---- */

#define FACTS_DIGEST "sha256:1111111111111111111111111111111111111111111111111111111111111111"

static char *
page_of(struct task_set *s)
{
	struct report r;
	struct report_options o;
	struct err err = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	cr_assert_not_null(f);
	cr_assert_eq(report_build(&r, s, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(html_write(f, &r, NULL, &err), 0, "%s", err.msg);
	fclose(f);
	report_cleanup(&r);
	return out;
}

/* One task that pulled FACTS_DIGEST in 40 s, one that failed to pull (image-not-found). */
static void
facts_set(struct task_set *s, bool with_images)
{
	struct task t;

	task_set_init(s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa1111");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_containers(&t, 1);
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->name, "web");
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->image, "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v<42>");
	container_set_digest(&t, &t.containers[0], FACTS_DIGEST, FACTS_DIGEST != NULL ? strlen(FACTS_DIGEST) : 0);
	task_derive(&t);
	task_set_take(s, &t);
	fs_failed_task(&t, true);
	task_derive(&t);
	task_set_take(s, &t);
	if (!with_images)
		return;

	struct image_facts x;

	image_facts_init(&x);
	x.digest = xstrdup(FACTS_DIGEST);
	x.platform = xstrdup("linux/amd64");
	x.image = xstrdup("123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v<42>");
	x.repository = xstrdup("web");
	x.status = IMAGE_OK;
	x.soci = IMAGE_SOCI_NONE;
	x.size_bytes = (int64_t)600 << 20;
	x.nlayers = 2;
	x.layers = xcalloc(2, sizeof *x.layers);
	x.layers[0].size = (int64_t)500 << 20;
	x.layers[0].comp = IMAGE_COMP_GZIP;
	x.layers[1].size = (int64_t)100 << 20;
	x.layers[1].comp = IMAGE_COMP_GZIP;
	s->images = image_set_new();
	image_set_put(s->images, &x);
}

static void
expect_in(const char *page, const char *what)
{
	cr_expect_not_null(strstr(page, what), "the page lacks %s", what);
}

Test(html, image_facts_and_diagnosis_sections)
{
	struct task_set s;
	char *page;

	facts_set(&s, true);
	page = page_of(&s);
	expect_in(page, "<section id=\"images\"><h2>Images (1)</h2>");
	/* repository, tag (escaped), platform, size, layers, compression, SOCI index, advice,
	 * tasks, pull p50 and p90 (the one task's 40 s pull) */
	expect_in(page, "<tr><td>web</td><td>v&lt;42&gt;</td><td>linux/amd64</td>"
		  "<td>600.0 MiB</td><td class=\"n\">2</td><td>gzip</td><td>none</td>"
		  "<td>worth-indexing</td><td class=\"n\">1</td><td class=\"n\">40.000</td>"
		  "<td class=\"n\">40.000</td></tr>");
	expect_in(page, "<section id=\"diagnosis\"><h2>Diagnosis (1 stopped task with a known "
		  "cause)</h2>");
	expect_in(page, "<tr><td class=\"n\">1</td><td>image-not-found</td>");
	/* between the summary and the failed starts */
	cr_expect(strstr(page, "id=\"summary\"") < strstr(page, "id=\"images\""));
	cr_expect(strstr(page, "id=\"diagnosis\"") < strstr(page, "id=\"failed\""));
	free(page);
	task_set_cleanup(&s);
}

Test(html, no_facts_no_sections)
{
	struct task_set s;
	char *page;

	facts_set(&s, false);
	/* no stopped task: no diagnosis either */
	task_edit_profile(&s.tasks[1])->stop_code = NULL;
	task_edit_profile(&s.tasks[1])->stopped_reason = NULL;
	page = page_of(&s);
	cr_expect_null(strstr(page, "id=\"images\""));
	cr_expect_null(strstr(page, "id=\"diagnosis\""));
	free(page);
	task_set_cleanup(&s);
}

Test(html, images_looked_up_but_none_known)
{
	struct task_set s;
	struct image_facts x;
	char *page;

	facts_set(&s, false);
	image_facts_init(&x);
	x.digest = xstrdup(FACTS_DIGEST);
	x.platform = xstrdup("linux/amd64");
	x.status = IMAGE_NOT_ECR;
	s.images = image_set_new();
	image_set_put(s.images, &x);
	page = page_of(&s);
	expect_in(page, "<h2>Images (0)</h2>\n<p>none:");
	free(page);
	task_set_cleanup(&s);
}

/* The summary's cost sentence, as the printed summary and the TUI say it: a Fargate task
 * of 1 vCPU and 2 GB in us-east-1 billed 43 s (pull start +12 s to RUNNING +55 s):
 * 43 x (0.04048 + 2 x 0.004445) / 3600 = 0.000589703 -> $0.000590, $0.59 per 1,000. */
Test(html, summary_has_the_startup_cost)
{
	struct task_set s;
	struct task t;
	char *page;

	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa1111");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_str(&t, &task_edit_profile(&t)->launch_type, "FARGATE");
	task_str(&t, &task_edit_profile(&t)->cpu, "1024");
	task_str(&t, &task_edit_profile(&t)->memory, "2048");
	task_derive(&t);
	task_set_take(&s, &t);
	page = page_of(&s);
	expect_in(page, "<p class=\"cost\">startup cost: $0.000590 per start (mean of 1, $0.59 "
		  "per 1,000 starts)</p>");
	cr_expect(strstr(page, "id=\"summary\"") < strstr(page, "class=\"cost\""));
	free(page);
	task_set_cleanup(&s);
}

/* The task table grows the columns some task has: ready and serving (a healthy_at),
 * the startup cost, the diagnosis; a page with none of them keeps the ten it had. */
Test(html, task_table_has_serving_cost_and_diagnosis_when_known)
{
	struct task_set s;
	struct task t;
	char *page;

	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa1111");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_set_ts(&t, TS_HEALTHY, FS_T0 + 70000);
	task_str(&t, &task_edit_profile(&t)->launch_type, "FARGATE");
	task_str(&t, &task_edit_profile(&t)->cpu, "1024");
	task_str(&t, &task_edit_profile(&t)->memory, "2048");
	task_derive(&t);
	task_set_take(&s, &t);
	fs_failed_task(&t, true);
	task_derive(&t);
	task_set_take(&s, &t);
	page = page_of(&s);
	expect_in(page, "<th class=\"n\">connectivity</th><th class=\"n\">ready</th>"
		  "<th class=\"n\">serving</th><th class=\"n\">startup cost (USD)</th>"
		  "<th>diagnosis</th></tr>");
	/* ready 15 s, serving 70 s; billed 58 s to healthy: 58 x 0.04937 / 3600 = 0.000795 */
	expect_in(page, "<td class=\"n\">15.000</td><td class=\"n\">70.000</td>"
		  "<td class=\"n\">0.000795</td><td class=\"w\">-</td></tr>");
	expect_in(page, "<td class=\"w\">image-not-found</td></tr>");
	free(page);
	task_set_cleanup(&s);

	/* none of them: the ten columns, ending with connectivity */
	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/bbbb2222");
	task_set_take(&s, &t);
	page = page_of(&s);
	expect_in(page, "<th class=\"n\">connectivity</th></tr></thead>");
	cr_expect_null(strstr(page, "<th class=\"n\">ready</th>"));
	free(page);
	task_set_cleanup(&s);
}

/* The waterfall's fourth segment, as the TUI draws it: ready, from RUNNING to HEALTHY,
 * in the row, its title and the legend; a page where no task served has none. */
Test(html, waterfall_draws_ready_when_a_task_served)
{
	struct task_set s;
	struct task t;
	char *page;

	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa1111");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_set_ts(&t, TS_HEALTHY, FS_T0 + 70000);
	task_derive(&t);
	task_set_take(&s, &t);
	page = page_of(&s);
	expect_in(page, "<span><i class=\"p3\"></i>ready (to HEALTHY)</span>");
	expect_in(page, ", start 3.000 s, ready 15.0 s, total 55.0 s</title>");
	expect_in(page, "<rect class=\"p3\" x=\"");
	free(page);
	task_set_cleanup(&s);

	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/bbbb2222");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_derive(&t);
	task_set_take(&s, &t);
	page = page_of(&s);
	cr_expect_null(strstr(page, "class=\"p3\""));
	cr_expect_null(strstr(page, ", ready "));
	free(page);
	task_set_cleanup(&s);
}

/* issue 9: the DEPROVISIONING + TaskFailedToStart task (no stoppedAt yet) is a failed start
 * in the page as in the table, the TUI and watch: listed under "Failed starts" and its row
 * of the task table marked, while the task still pulling is neither */
Test(html, deprovisioning_failed_start_is_marked)
{
	struct task_set s;
	struct task t;
	char *page;
	const char *row;

	task_set_init(&s);
	fs_failed_task(&t, false);
	task_derive(&t);
	task_set_take(&s, &t);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/b0b0b0b0");
	task_set_take(&s, &t);
	page = page_of(&s);
	expect_in(page, "<h2>Failed starts (1)</h2>");
	expect_in(page, "<tr class=\"failed\"><td class=\"id\" title=\"d0d0d0d0e1e1e1e1f2f2f2f2a3a3a3a3\">d0d0d0d0</td>");
	row = strstr(page, "<td class=\"id\">b0b0b0b0</td>");
	cr_expect_not_null(row, "%s", page);
	cr_expect(row == NULL || strncmp(row - 4, "<tr>", 4) == 0, "the pulling task is marked failed");
	free(page);
	task_set_cleanup(&s);
}
