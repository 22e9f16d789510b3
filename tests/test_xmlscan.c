/* xmlscan: the one reader of AWS's small XML answers (STS results, <Error> bodies): the
 * first <tag> and the first </tag> after it, the five entities decoded, a cap respected. */
#include <criterion/criterion.h>
#include <string.h>

#include "ecsprof/xmlscan.h"

static const char *sts_error =
	"<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
	"<Error><Type>Sender</Type><Code>AccessDenied</Code>"
	"<Message>User: arn:aws:iam::1:user/x is not authorized &amp; &lt;denied&gt; "
	"&quot;q&quot; &apos;a&apos; &nbsp; &amp</Message></Error>"
	"<RequestId>r-1</RequestId></ErrorResponse>";

Test(xmlscan, find_returns_the_raw_span)
{
	size_t len = 99;
	const char *v = xmlscan_find(sts_error, "Code", &len);

	cr_assert_not_null(v);
	cr_assert_eq(len, strlen("AccessDenied"));
	cr_assert_eq(strncmp(v, "AccessDenied", len), 0);
	v = xmlscan_find(sts_error, "RequestId", &len);
	cr_assert_eq(len, 3);
	cr_assert_eq(strncmp(v, "r-1", 3), 0);
}

Test(xmlscan, missing_open_or_close_is_null)
{
	size_t len = 7;

	cr_assert_null(xmlscan_find(sts_error, "Nope", &len));
	cr_assert_null(xmlscan_find("<Code>unterminated", "Code", &len));
	cr_assert_null(xmlscan_find("</Code>x<Code>y", "Code", &len));
	cr_assert_eq(len, 7, "len is left alone when nothing is found");
}

Test(xmlscan, tag_must_match_whole_name)
{
	size_t len = 0;
	const char *v = xmlscan_find("<CodeX>no</CodeX><Code>yes</Code>", "Code", &len);

	cr_assert_not_null(v);
	cr_assert_eq(len, 3);
	cr_assert_eq(strncmp(v, "yes", 3), 0);
	/* the close is the first </tag> after the open, even when another follows */
	v = xmlscan_find("<A>1</A>2</A>", "A", &len);
	cr_assert_eq(len, 1);
	cr_assert_eq(*v, '1');
	/* a long tag name is not cut short by a pattern buffer */
	v = xmlscan_find("<AVeryLongTagNameThatIsLongerThanThirtyTwoBytes>v"
			 "</AVeryLongTagNameThatIsLongerThanThirtyTwoBytes>",
			 "AVeryLongTagNameThatIsLongerThanThirtyTwoBytes", &len);
	cr_assert_not_null(v);
	cr_assert_eq(len, 1);
}

Test(xmlscan, text_decodes_the_five_entities_only)
{
	char out[256];

	cr_assert_eq(xmlscan_text(sts_error, "Message", out, sizeof out), 0);
	cr_assert_str_eq(out, "User: arn:aws:iam::1:user/x is not authorized & <denied> "
			      "\"q\" 'a' &nbsp; &amp");
}

Test(xmlscan, text_missing_tag_is_empty)
{
	char out[16] = "junk";

	cr_assert_eq(xmlscan_text(sts_error, "Nope", out, sizeof out), -1);
	cr_assert_str_eq(out, "");
}

Test(xmlscan, text_is_cut_to_the_buffer)
{
	char out[6];

	cr_assert_eq(xmlscan_text("<M>a&amp;bcdefgh</M>", "M", out, sizeof out), 0);
	cr_assert_str_eq(out, "a&bcd");
}

Test(xmlscan, decode_respects_the_buf_cap)
{
	struct buf b;
	const char *s = "&lt;abc&gt;";

	buf_init(&b, 3);
	cr_assert_eq(xmlscan_decode(s, strlen(s), &b), -1);
	cr_assert_str_eq(buf_str(&b), "<ab");
	buf_cleanup(&b);
	buf_init(&b, 0);
	cr_assert_eq(xmlscan_decode(s, strlen(s), &b), 0);
	cr_assert_str_eq(buf_str(&b), "<abc>");
	buf_cleanup(&b);
}

Test(xmlscan, entity_is_not_read_past_the_span)
{
	struct buf b;
	const char *s = "x&amp;";

	/* the span ends inside the entity: it is kept literally, byte for byte */
	buf_init(&b, 0);
	cr_assert_eq(xmlscan_decode(s, 4, &b), 0);
	cr_assert_str_eq(buf_str(&b), "x&am");
	buf_cleanup(&b);
}

Test(xmlscan, character_references_decode_as_utf8)
{
	static const char s[] = "a&#10;b&#x2014;c&#128512;d&#0;e&#xD800;f&#12x;g&#;";
	struct buf b;

	buf_init(&b, 0);
	cr_assert_eq(xmlscan_decode(s, strlen(s), &b), 0);
	/* what XML does not allow (NUL, a surrogate) or is no reference stays as it is */
	cr_expect_str_eq(buf_str(&b), "a\nb\xe2\x80\x94" "c\xf0\x9f\x98\x80" "d&#0;e&#xD800;f&#12x;g&#;");
	buf_cleanup(&b);
}

Test(xmlscan, next_walks_the_children_of_an_element)
{
	static const char doc[] =
		"<?xml version=\"1.0\"?>\n<R xmlns=\"urn:x\"><a>1</a> text <b attr='x>y'><a>in</a>"
		"<c/></b><empty/><a>2</a></R>";
	const char *p = doc, *end = doc + strlen(doc), *why = NULL, *q, *qe;
	struct xmlscan_el r, el;

	cr_assert_eq(xmlscan_next(&p, end, &r, &why), 1, "%s", why);
	cr_expect(xmlscan_is(&r, "R"));
	cr_expect_eq(xmlscan_next(&p, end, &el, &why), 0);
	q = r.body;
	qe = r.body + r.body_len;
	cr_assert_eq(xmlscan_next(&q, qe, &el, &why), 1);
	cr_expect(xmlscan_is(&el, "a") && el.body_len == 1 && el.body[0] == '1');
	cr_assert_eq(xmlscan_next(&q, qe, &el, &why), 1);
	cr_expect(xmlscan_is(&el, "b"));
	cr_expect_eq(el.body_len, strlen("<a>in</a><c/>"));
	cr_assert_eq(xmlscan_next(&q, qe, &el, &why), 1);
	cr_expect(xmlscan_is(&el, "empty") && el.body_len == 0);
	cr_assert_eq(xmlscan_next(&q, qe, &el, &why), 1);
	cr_expect(xmlscan_is(&el, "a") && el.body[0] == '2');
	cr_expect_eq(xmlscan_next(&q, qe, &el, &why), 0);
}

static void
expect_bad(const char *doc, const char *why_part)
{
	const char *p = doc, *why = NULL;
	struct xmlscan_el el;

	cr_expect_eq(xmlscan_next(&p, doc + strlen(doc), &el, &why), -1, "accepted %s", doc);
	cr_expect(why != NULL && strstr(why, why_part) != NULL, "%s: %s", doc,
		  why ? why : "(no reason)");
}

Test(xmlscan, next_refuses_what_aws_never_sends)
{
	expect_bad("<!DOCTYPE x [<!ENTITY e \"e\">]><x>&e;</x>", "DOCTYPE");
	expect_bad("<x><!-- c --></x>", "comment");
	expect_bad("<x><![CDATA[<y>]]></x>", "CDATA");
	expect_bad("<x><?pi x?></x>", "processing instruction");
	expect_bad("<x><y></x></y>", "does not match");
	expect_bad("<x><y>", "never closed");
	expect_bad("<x a=\"unterminated></x>", "a tag cut short");
	expect_bad("</x>", "no opening tag");
	expect_bad("<x>< y/></x>", "starts no tag");
}
