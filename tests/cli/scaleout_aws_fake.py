#!/usr/bin/env python3
"""TAP: the scale-out calls against our scripted fake of the four services
(tests/fake_scaleout_aws.py, which checks each request's protocol and SigV4 service name):
throttling then success (XML and JSON), AccessDenied on one call while the others answer,
paging over 3 pages (NextToken for Application Auto Scaling and CloudWatch, NextMarker for
ELBv2), a repeated token, DescribeAlarmHistory's HistoryData kept as the JSON text it is,
and ECS DescribeServices whole (grace period, events) with its times as the CLI writes
them. Run through tests/aws_scaleout_probe (no command wires these calls yet)."""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from tap import Tap  # noqa: E402
from scaleout_script import xml, xml_error  # noqa: E402

PROBE = os.environ.get("SCALEOUT_PROBE", "")
T = Tap()
ok = T.ok


def js(obj, status=200):
    return {"body": json.dumps(obj), "status": status}


def history_item(ts, value):
    data = json.dumps({"newState": {"stateValue": "ALARM", "stateReasonData": {
        "evaluatedDatapoints": [{"timestamp": ts, "value": value}]}}})
    esc = data.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return ("<member><AlarmName>hi</AlarmName><AlarmType>MetricAlarm</AlarmType>"
            "<Timestamp>%s</Timestamp><HistoryItemType>StateUpdate</HistoryItemType>"
            "<HistorySummary>Alarm updated from OK to ALARM</HistorySummary>"
            "<HistoryData>%s</HistoryData></member>" % (ts, esc))


def main():
    if not PROBE or not os.access(PROBE, os.X_OK):
        print("1..1\nnot ok 1 - SCALEOUT_PROBE is not an executable: %r" % PROBE)
        return 1
    empty = tempfile.NamedTemporaryFile(prefix="ecsprof-so-empty-")
    srv, port = fakeserver.start("fake_scaleout_aws.py")
    env = fakeserver.env(empty.name, AWS_REGION="eu-west-1",
                         AWS_ENDPOINT_URL="http://127.0.0.1:%d" % port)
    # the one variable for every service here: not the per-service closed ports
    for s in ("APPLICATION_AUTO_SCALING", "CLOUDWATCH", "ELASTIC_LOAD_BALANCING_V2"):
        env.pop("AWS_ENDPOINT_URL_" + s, None)

    def run(*args):
        p = subprocess.run([PROBE] + list(args), capture_output=True, text=True, env=env,
                           timeout=60)
        return p.returncode, p.stdout, p.stderr

    def scripted(steps):
        fakeserver.control(port, "/_fake/script", steps)

    def sent():
        return fakeserver.control(port, "/_fake/requests")

    try:
        # throttled once, then three pages of history
        h = "DescribeAlarmHistory"
        scripted({h: [
            xml_error(400, "Throttling", "Rate exceeded"),
            xml(h, "<AlarmHistoryItems>%s</AlarmHistoryItems><NextToken>p2</NextToken>"
                % history_item("2026-12-07T14:03:00.000Z", 90.5)),
            xml(h, "<AlarmHistoryItems>%s</AlarmHistoryItems><NextToken>p3</NextToken>"
                % history_item("2026-12-07T14:02:00.000Z", 81.2)),
            xml(h, "<AlarmHistoryItems>%s</AlarmHistoryItems>"
                % history_item("2026-12-07T14:01:00.000Z", 76.0))]})
        rc, out, err = run("history", "TargetTracking-service/prod/web-AlarmHigh",
                           "1796652000000", "1796655600000")
        ok(rc == 0, "DescribeAlarmHistory: throttled, then 3 pages", err)
        doc = json.loads(out) if rc == 0 else {}
        items = doc.get("AlarmHistoryItems", [])
        ok([i["Timestamp"] for i in items] == ["2026-12-07T14:03:00+00:00",
                                               "2026-12-07T14:02:00+00:00",
                                               "2026-12-07T14:01:00+00:00"]
           and list(doc) == ["AlarmHistoryItems"],
           "the three pages merged into one list, no NextToken", out)
        ok(items and json.loads(items[1]["HistoryData"])["newState"]["stateReasonData"]
           ["evaluatedDatapoints"][0]["value"] == 81.2,
           "HistoryData is the JSON text it is (evaluatedDatapoints readable)", out[:300])
        reqs = sent()
        ok([r["params"].get("NextToken") for r in reqs] == [None, None, "p2", "p3"] and
           all(r["service"] == "monitoring" and r["region"] == "eu-west-1" for r in reqs) and
           reqs[0]["params"].get("HistoryItemType") == "StateUpdate" and
           reqs[0]["params"].get("StartDate") == "2026-12-07T14:00:00.000Z",
           "4 requests signed for monitoring, the throttled one asked again, the tokens sent",
           json.dumps(reqs)[:600])

        # Application Auto Scaling: AccessDenied on the activities, the policies answer
        a = "DescribeScalingActivities"
        scripted({a: [js({"__type": "AccessDeniedException", "Message": "User: arn:aws:iam::"
                          "1:user/x is not authorized"}, 400)],
                  "DescribeScalingPolicies": [js({"ScalingPolicies": [{
                      "PolicyName": "cpu", "PolicyType": "TargetTrackingScaling",
                      "CreationTime": 1796648400.25, "Alarms": [{"AlarmName": "hi"}]}]})]})
        rc, out, err = run("activities", "prod", "web")
        ok(rc == 1 and err.count("\n") == 1 and "AccessDeniedException" in err and
           "grant application-autoscaling:DescribeScalingActivities" in err,
           "AccessDenied: one line naming the call to grant", err)
        rc, out, err = run("policies", "prod", "web")
        ok(rc == 0 and json.loads(out)["ScalingPolicies"][0]["CreationTime"] ==
           "2026-12-07T13:00:00.250000+00:00",
           "the other call still answers, its time as the CLI prints it", out + err)

        # activities: throttled (JSON), then 3 pages
        def act(i, start):
            return {"ActivityId": "a%d" % i, "ResourceId": "service/prod/web",
                    "Description": "Setting desired count to %d." % (i + 2),
                    "Cause": "monitor alarm hi in state ALARM triggered policy cpu",
                    "StartTime": start, "EndTime": start + 61, "StatusCode": "Successful"}
        scripted({a: [js({"__type": "ThrottlingException", "message": "Rate exceeded"}, 400),
                      js({"ScalingActivities": [act(3, 1796652120)], "NextToken": "n2"}),
                      js({"ScalingActivities": [act(2, 1796648400)], "NextToken": "n3"}),
                      js({"ScalingActivities": [act(1, 1796562000)]})]})
        rc, out, err = run("activities", "prod", "web")
        acts = json.loads(out)["ScalingActivities"] if rc == 0 else []
        ok([x["ActivityId"] for x in acts] == ["a3", "a2", "a1"] and
           acts[0]["StartTime"] == "2026-12-07T14:02:00+00:00" and
           acts[0]["EndTime"] == "2026-12-07T14:03:01+00:00",
           "DescribeScalingActivities: throttled, then 3 pages merged, times as text",
           out + err)
        reqs = sent()
        ok([r["params"].get("NextToken") for r in reqs] == [None, None, "n2", "n3"] and
           reqs[0]["params"] == {"ServiceNamespace": "ecs", "ResourceId": "service/prod/web",
                                 "ScalableDimension": "ecs:service:DesiredCount"} and
           all(r["service"] == "application-autoscaling" for r in reqs),
           "the requests: the service's resource, the tokens, signed for "
           "application-autoscaling", json.dumps(reqs)[:600])

        # ELBv2: three pages by NextMarker, then a marker sent back twice
        t = "DescribeTargetGroups"

        def tg(name, marker):
            return xml(t, "<TargetGroups><member><TargetGroupName>%s</TargetGroupName>"
                       "<HealthCheckIntervalSeconds>30</HealthCheckIntervalSeconds>"
                       "<HealthyThresholdCount>5</HealthyThresholdCount></member>"
                       "</TargetGroups>%s" % (name, "<NextMarker>%s</NextMarker>" % marker
                                              if marker else ""))
        scripted({t: [tg("a", "m2"), tg("b", "m3"), tg("c", None)]})
        rc, out, err = run("target-groups", "arn:tg/a", "arn:tg/b", "arn:tg/c")
        ok(rc == 0 and [g["TargetGroupName"] for g in json.loads(out)["TargetGroups"]] ==
           ["a", "b", "c"], "DescribeTargetGroups: 3 pages by NextMarker", out + err)
        reqs = sent()
        ok([r["params"].get("Marker") for r in reqs] == [None, "m2", "m3"] and
           reqs[0]["params"].get("TargetGroupArns.member.3") == "arn:tg/c" and
           all(r["service"] == "elasticloadbalancing" for r in reqs),
           "the markers sent back, the ARNs as members, signed for elasticloadbalancing",
           json.dumps(reqs)[:600])
        scripted({t: [tg("a", "m2"), tg("b", "m2")]})
        rc, out, err = run("target-groups")
        ok(rc == 1 and "sent the token it was given again" in err and err.count("\n") == 1,
           "a repeated marker is an error, one line", err)
        scripted({"DescribeTargetHealth": [xml_error(400, "TargetGroupNotFound",
                                                     "One or more target groups not found")]})
        rc, out, err = run("target-health", "arn:tg/gone")
        ok(rc == 1 and err.startswith("TargetGroupNotFound: One or more target groups not "
                                      "found") and err.count("\n") == 1,
           "an unknown target group: one line with its code", err)
        scripted({"DescribeAlarms": [xml_error(403, "AccessDenied", "not authorized")]})
        rc, out, err = run("alarms", "hi")
        ok(rc == 1 and "grant cloudwatch:DescribeAlarms " in err,
           "CloudWatch AccessDenied names the IAM action cloudwatch:DescribeAlarms", err)

        # ECS DescribeServices, whole
        scripted({"DescribeServices": [js({"services": [{
            "serviceName": "web", "desiredCount": 8, "healthCheckGracePeriodSeconds": 60,
            "createdAt": 1796562000.5,
            "loadBalancers": [{"targetGroupArn": "arn:tg/a", "containerName": "web",
                               "containerPort": 8080}],
            "events": [{"id": "e1", "createdAt": 1796652125.123,
                        "message": "(service web) has started 3 tasks: (task 1a) (task 2b)"
                                   " (task 3c)."}],
            "deployments": [{"id": "ecs-svc/1", "status": "PRIMARY",
                             "createdAt": 1796562000, "updatedAt": 1796652180}]}],
            "failures": []})]})
        rc, out, err = run("services", "prod", "web")
        s = json.loads(out)["services"][0] if rc == 0 else {}
        ok(s.get("healthCheckGracePeriodSeconds") == 60 and
           s.get("events", [{}])[0].get("createdAt") == "2026-12-07T14:02:05.123000+00:00" and
           s.get("deployments", [{}])[0].get("updatedAt") == "2026-12-07T14:03:00+00:00" and
           s.get("createdAt") == "2026-12-06T13:00:00.500000+00:00" and
           s.get("loadBalancers", [{}])[0].get("containerPort") == 8080,
           "ECS DescribeServices whole, its times as the CLI writes them", out + err)
        ok(sent()[0]["service"] == "ecs", "ECS signed for ecs")
    finally:
        srv.kill()
        srv.wait()
        empty.close()
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
