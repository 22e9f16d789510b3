"""The answers a test scripts into tests/fake_scaleout_aws.py (POST /_fake/script): a
query-protocol (XML) result or error, as CloudWatch and ELBv2 send them."""


def xml(op, result):
    """A 200 answer of query operation op whose Result element holds result"""
    return {"type": "xml", "body": "<%sResponse xmlns=\"http://x/\"><%sResult>%s</%sResult>"
            "<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></%sResponse>"
            % (op, op, result, op, op)}


def xml_error(status, code, message):
    """An ErrorResponse with code and message, HTTP status"""
    return {"type": "xml", "status": status,
            "body": "<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>%s"
                    "</Message></Error><RequestId>r</RequestId></ErrorResponse>"
                    % (code, message)}
