#!/usr/bin/env python3
"""TAP: `ecsprof scaleout` live, end to end: ECS from tests/fake_ecs.py (tasks, stopped ones
too, and DescribeServices with its load balancer and events), Application Auto Scaling,
CloudWatch and ELBv2 from tests/fake_scaleout_aws.py, on 127.0.0.1 with the SDKs'
per-service endpoint variables. A scripted alarm-triggered scale-out 15 minutes ago (one
60 s datapoint, ALARM 70 s after its period began, desired 2 -> 4 ten seconds later, two
tasks, their targets registered 50 s later in a target group checked 30 s x 5): register
(150 s, estimated) is its largest stage. Then AccessDenied on DescribeAlarmHistory: named
once on stderr, detect estimated, the rest shown; AccessDenied on DescribeScalingActivities: named once,
react empty, the row still found from the events; an alarm CloudWatch does not have,
named. Every list call paged and every call 300 ms late: the same rows, one request per
page, the chains at once; throttled or 503 once per call as well: retried, the same rows.
Then `record --service` and `report --scaleout` of the recording: the same rows as live."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from tap import Tap  # noqa: E402
from scaleout_script import xml, xml_error  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
T = Tap()
ok = T.ok
# the breaching minute, 15 minutes ago: --since 1h counts from the wall clock live
T0 = int(time.time()) // 60 * 60 - 900
TG = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/6d0ecf831eec9f09"
ALARM = "TargetTracking-service/prod/web-AlarmHigh-1"
POLICY = ("arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:p1:resource/ecs/"
          "service/prod/web:policyName/cpu")


def iso(s):
    import datetime
    return datetime.datetime.fromtimestamp(T0 + s, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.000Z")


def task(tid, created, **kw):
    t = {"id": tid, "service": "web", "family": "web", "revision": 3, "created": created,
         "provision": 20.0, "pull": 5.0, "start": 2.0, "connectivity": 8.0, "eni": True}
    t.update(kw)
    return t


SCENARIO = {
    "region": "us-east-1", "t0": T0,
    "clusters": {"prod": {
        "services": {"web": {
            "taskDefinition": "web:3", "desiredCount": 4, "created": -86400,
            "loadBalancers": [{"targetGroupArn": TG, "containerName": "web",
                               "containerPort": 8080}],
            "healthCheckGracePeriodSeconds": 60,
            "deployments": [{"id": "ecs-svc/1234567890123456789", "status": "PRIMARY", "created": -86400,
                             "desiredCount": 4, "rolloutState": "COMPLETED"}],
            "events": [
                {"created": 88, "message": "(service web) has started 2 tasks: "
                                           "(task new-1) (task new-2)."},
                {"created": 120, "message": "(service web) registered 2 targets in "
                                            "(target-group %s)" % TG}]}},
        "tasks": [task("old-1", -80000), task("old-2", -80000),
                  task("new-1", 90), task("new-2", 91),
                  # a stopped one is still fetched (stopped tasks are a scale-out's)
                  task("old-3", -70000, stop_after=100, stopCode="ServiceSchedulerInitiated",
                       stoppedReason="Scaling activity initiated by deployment")]}}}


def js(obj):
    return {"body": json.dumps(obj), "status": 200}


def history():
    data = json.dumps({"version": "1.0", "oldState": {"stateValue": "OK"}, "newState": {
        "stateValue": "ALARM", "stateReasonData": {"evaluatedDatapoints": [
            {"timestamp": iso(0), "sampleCount": 1.0, "value": 91.5}]}}})
    esc = data.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return ("<AlarmHistoryItems><member><AlarmName>%s</AlarmName><AlarmType>MetricAlarm"
            "</AlarmType><Timestamp>%s</Timestamp><HistoryItemType>StateUpdate"
            "</HistoryItemType><HistorySummary>Alarm updated from OK to ALARM"
            "</HistorySummary><HistoryData>%s</HistoryData></member></AlarmHistoryItems>"
            % (ALARM, iso(70), esc))


def script(denied_history=False):
    h = (xml_error(403, "AccessDenied", "User is not authorized to perform: "
                   "cloudwatch:DescribeAlarmHistory") if denied_history else
         xml("DescribeAlarmHistory", history()))
    return {
        "DescribeScalingActivities": [js({"ScalingActivities": [{
            "ActivityId": "a1", "ServiceNamespace": "ecs", "ResourceId": "service/prod/web",
            "ScalableDimension": "ecs:service:DesiredCount",
            "Description": "Setting desired count to 4.",
            "Cause": "monitor alarm %s in state ALARM triggered policy cpu" % ALARM,
            "StartTime": T0 + 80, "EndTime": T0 + 95, "StatusCode": "Successful"}]})],
        "DescribeScalingPolicies": [js({"ScalingPolicies": [{
            "PolicyARN": POLICY, "PolicyName": "cpu", "ServiceNamespace": "ecs",
            "ResourceId": "service/prod/web", "ScalableDimension": "ecs:service:DesiredCount",
            "PolicyType": "TargetTrackingScaling",
            "TargetTrackingScalingPolicyConfiguration": {
                "TargetValue": 50.0, "ScaleOutCooldown": 60, "ScaleInCooldown": 300,
                "PredefinedMetricSpecification": {
                    "PredefinedMetricType": "ECSServiceAverageCPUUtilization"}},
            "Alarms": [{"AlarmName": ALARM, "AlarmARN": "arn:aws:cloudwatch:us-east-1:"
                        "123456789012:alarm:" + ALARM}], "CreationTime": T0 - 86400}]})],
        "DescribeAlarms": [xml("DescribeAlarms", (
            "<MetricAlarms><member><AlarmName>%s</AlarmName><MetricName>CPUUtilization"
            "</MetricName><Namespace>AWS/ECS</Namespace><Statistic>Average</Statistic>"
            "<Period>60</Period><EvaluationPeriods>1</EvaluationPeriods>"
            "<DatapointsToAlarm>1</DatapointsToAlarm><Threshold>50.0</Threshold>"
            "<ComparisonOperator>GreaterThanThreshold</ComparisonOperator>"
            "<StateValue>OK</StateValue><AlarmActions><member>%s</member></AlarmActions>"
            "</member></MetricAlarms><CompositeAlarms/>") % (ALARM, POLICY))],
        "DescribeAlarmHistory": [h],
        "DescribeTargetGroups": [xml("DescribeTargetGroups", (
            "<TargetGroups><member><TargetGroupArn>%s</TargetGroupArn><TargetGroupName>web"
            "</TargetGroupName><Protocol>HTTP</Protocol><Port>8080</Port>"
            "<HealthCheckIntervalSeconds>30</HealthCheckIntervalSeconds>"
            "<HealthCheckTimeoutSeconds>5</HealthCheckTimeoutSeconds>"
            "<HealthyThresholdCount>5</HealthyThresholdCount>"
            "<UnhealthyThresholdCount>2</UnhealthyThresholdCount>"
            "<TargetType>ip</TargetType></member></TargetGroups>") % TG)],
        "DescribeTargetHealth": [xml("DescribeTargetHealth", (
            "<TargetHealthDescriptions>" + "".join(
                "<member><Target><Id>10.0.0.%d</Id><Port>8080</Port></Target>"
                "<TargetHealth><State>healthy</State></TargetHealth></member>" % i
                for i in range(1, 5)) + "</TargetHealthDescriptions>"))],
    }


# every list call in two pages: the first empty with its token, the second the items
PAGED = {  # op: (JSON or XML, the lists, the token's element, the token sent back)
    "DescribeScalingActivities": ("json", ["ScalingActivities"], "NextToken", "NextToken"),
    "DescribeScalingPolicies": ("json", ["ScalingPolicies"], "NextToken", "NextToken"),
    "DescribeAlarms": ("xml", ["MetricAlarms", "CompositeAlarms"], "NextToken", "NextToken"),
    "DescribeAlarmHistory": ("xml", ["AlarmHistoryItems"], "NextToken", "NextToken"),
    "DescribeTargetGroups": ("xml", ["TargetGroups"], "NextMarker", "Marker"),
}


def paged(sc):
    out = dict(sc)
    for op, (kind, lists, token, _) in PAGED.items():
        if kind == "json":
            first = js(dict({k: [] for k in lists}, **{token: "pg2-" + op}))
        else:
            first = xml(op, "".join("<%s/>" % k for k in lists) +
                        "<%s>pg2-%s</%s>" % (token, op, token))
        out[op] = [first] + sc[op]
    return out


def throttled(sc):
    """each call's first answer a throttle or a 503, the next ones as scripted"""
    out = {}
    for i, (op, steps) in enumerate(sorted(sc.items())):
        if i % 2:
            bad = {"status": 503, "body": "Service Unavailable", "type": "xml"}
        elif op in ("DescribeScalingActivities", "DescribeScalingPolicies"):
            bad = {"status": 400, "body": json.dumps({"__type": "ThrottlingException",
                                                      "message": "Rate exceeded"})}
        else:
            bad = xml_error(400, "Throttling", "Rate exceeded")
        out[op] = [bad] + steps
    return out


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-so-live-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    ecs = aws = None
    try:
        ecs, eport = fakeserver.start("fake_ecs.py", ["--scenario", scen])
        aws, aport = fakeserver.start("fake_scaleout_aws.py")
        fakeserver.control(eport, "/_fake/advance", {"to": 900, "freeze": True})
        url = "http://127.0.0.1:%d" % aport
        env = fakeserver.env(empty, AWS_REGION="us-east-1",
                             AWS_ENDPOINT_URL_ECS="http://127.0.0.1:%d" % eport,
                             AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING=url,
                             AWS_ENDPOINT_URL_CLOUDWATCH=url,
                             AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2=url)

        def run(*args):
            p = subprocess.run([ECSPROF] + list(args), capture_output=True, text=True,
                               env=env, timeout=60)
            return p.returncode, p.stdout, p.stderr

        def sent_of(reqs):
            ops = [r["op"] for r in reqs]
            return {o: ops.count(o) for o in set(ops)}

        def sent():
            return sent_of(fakeserver.control(aport, "/_fake/requests"))

        base = ["--cluster", "prod", "--service", "web", "--no-images", "--since", "1h"]
        fakeserver.control(aport, "/_fake/script", script())
        rc, live_csv, err = run("scaleout", *base, "--format", "csv")
        rows = live_csv.splitlines()
        head = rows[0].split(",") if rows else []
        row = dict(zip(head, rows[1].split(","))) if len(rows) > 1 else {}
        ok(rc == 0 and len(rows) == 2, "scaleout: exit 0, one scale-out row", err + live_csv)
        ok(row.get("trigger") == "alarm " + ALARM and row.get("desired_to") == "4" and
           row.get("tasks_started") == "2", "the alarm's scale-out, 2 -> 4, its two tasks",
           live_csv)
        ok(row.get("detect_s") == "70.000" and row.get("react_s") == "10.000",
           "detect 70 s (the datapoint's minute -> ALARM), react 10 s", live_csv)
        ok(row.get("largest_stage") == "register" and row.get("register_s") == "150.000",
           "register (30 s x 5 after the registration) is the largest stage",
           live_csv)
        ok(sent() == {"DescribeScalingActivities": 1, "DescribeScalingPolicies": 1,
                      "DescribeAlarms": 1, "DescribeAlarmHistory": 1,
                      "DescribeTargetGroups": 1, "DescribeTargetHealth": 1},
           "one request per call", sent())
        ok(err.strip() == "" or "no " not in err, "nothing named missing", err)

        # every list call paged, every call 300 ms late: each page followed in turn, the
        # independent chains at once (activities; policies -> alarms -> history;
        # DescribeServices -> target groups -> health), the same rows
        fakeserver.control(aport, "/_fake/config", {"latency_ms": 300})
        fakeserver.control(aport, "/_fake/script", paged(script()))
        rc, out, err = run("scaleout", *base, "--format", "csv")
        reqs = fakeserver.control(aport, "/_fake/requests")
        stats = fakeserver.control(aport, "/_fake/stats")
        fakeserver.control(aport, "/_fake/config", {"latency_ms": 0})
        ok(rc == 0 and out == live_csv, "paged: the rows of the one-page run",
           out + err)
        want = {op: 2 for op in PAGED}
        want["DescribeTargetHealth"] = 1
        ok(sent_of(reqs) == want, "paged: one request per page, no more", sent_of(reqs))
        ok(all([r["params"].get(PAGED[op][3]) for r in reqs if r["op"] == op] ==
               [None, "pg2-" + op] for op in PAGED),
           "paged: each second page asked with the first one's token", reqs)
        ok(stats["max_in_flight"] >= 3,
           "paged: the chains run at once (%d calls in flight at most)"
           % stats["max_in_flight"], stats)

        # throttled (ThrottlingException, Throttling) or 503 once per call, and paged:
        # retried, every page followed, the same rows, nothing named missing
        fakeserver.control(aport, "/_fake/script", throttled(paged(script())))
        rc, out, err = run("scaleout", *base, "--format", "csv")
        reqs = fakeserver.control(aport, "/_fake/requests")
        ok(rc == 0 and out == live_csv and "no " not in err,
           "throttled and paged: the rows of the plain run", out + err)
        want = {op: 3 for op in PAGED}
        want["DescribeTargetHealth"] = 2
        ok(sent_of(reqs) == want, "throttled and paged: one retry per call",
           sent_of(reqs))

        fakeserver.control(aport, "/_fake/script", script())
        rc, table, err = run("scaleout", *base)
        ok(rc == 0 and "advice: register ~150 s" in table and "detect 70.0 s" in table,
           "the table: the stage bar and its advice", table + err)

        # -o F.xlsx: the same row in the workbook's Scale-outs sheet (scaleout_xlsx.c)
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                        "share"))
        from xlsx_read import Workbook
        fakeserver.control(aport, "/_fake/script", script())
        book = os.path.join(tmp, "so.xlsx")
        rc, _, err = run("scaleout", *base, "-o", book)
        cells = Workbook(book).cells(Workbook(book).sheet("Scale-outs")) if rc == 0 else {}
        heads = {v[1]: c for (r, c), v in cells.items() if r == 0}
        got = {k: cells.get((1, heads.get(k, -1)), (None, None))[1]
               for k in ("trigger", "register_s", "largest_stage")}
        ok(rc == 0 and got == {"trigger": "alarm " + ALARM, "register_s": 150.0,
                               "largest_stage": "register"},
           "scaleout -o F.xlsx: the row in the Scale-outs sheet", repr(got) + err)

        # on a terminal (a key script here): the scale-out view, Enter its two tasks
        fakeserver.control(aport, "/_fake/script", script())
        dump = book + ".txt"
        p = subprocess.run([ECSPROF, "scaleout", *base, "--format", "tui"], capture_output=True,
                           text=True, timeout=60, env=dict(env, ECSPROF_TUI_SCRIPT="Enter",
                                                           ECSPROF_TUI_DUMP=dump))
        scr = open(dump).read() if os.path.exists(dump) else ""
        ok(p.returncode == 0 and "scale-out 1 of 1" in scr and
           re.search(r" 2/\d+ tasks", scr) is not None,
           "scaleout --format tui: Enter shows the scale-out's two tasks", scr + p.stderr)

        fakeserver.control(aport, "/_fake/script", script(denied_history=True))
        rc, out, err = run("scaleout", *base, "--format", "csv")
        rows = out.splitlines()
        row = dict(zip(head, rows[1].split(","))) if len(rows) > 1 else {}
        ok(rc == 0 and err.count("no cloudwatch:DescribeAlarmHistory (AccessDenied): "
                                 "detect not measured") == 1,
           "AccessDenied on DescribeAlarmHistory named once on stderr", err)
        ok(row.get("detect_estimated") == "true" and row.get("register_s") == "150.000" and
           row.get("largest_stage") == "register",
           "the rest shown: detect estimated from the alarm's settings, register as before",
           out + err)

        # AccessDenied on the scaling activities: named once, react (alarm -> activity)
        # empty, not zero; the scale-out still found from the service's events
        sc = script()
        sc["DescribeScalingActivities"] = [{"status": 400, "body": json.dumps({
            "__type": "AccessDeniedException", "message": "User is not authorized to "
            "perform: application-autoscaling:DescribeScalingActivities"})}]
        fakeserver.control(aport, "/_fake/script", sc)
        rc, out, err = run("scaleout", *base, "--format", "csv")
        rows = out.splitlines()
        row = dict(zip(head, rows[1].split(","))) if len(rows) > 1 else {}
        ok(rc == 0 and err.count("no application-autoscaling:DescribeScalingActivities "
                                 "(AccessDeniedException): react not measured") == 1,
           "AccessDenied on DescribeScalingActivities named once on stderr", err)
        ok(len(rows) == 2 and row.get("react_s") == "" and row.get("tasks_started") == "2"
           and row.get("register_s") == "150.000",
           "react empty, the scale-out and its other stages shown", out + err)

        # the policy names an alarm CloudWatch does not have: named, the rest shown
        sc = script()
        sc["DescribeAlarms"] = [xml("DescribeAlarms", "<MetricAlarms/><CompositeAlarms/>")]
        fakeserver.control(aport, "/_fake/script", sc)
        rc, out, err = run("scaleout", *base, "--format", "csv")
        ok(rc == 0 and "no alarm %s (cloudwatch:DescribeAlarms): detect not measured"
           % ALARM in err and ",register," in out,
           "a missing alarm named once on stderr, the rows still shown", out + err)

        rec = os.path.join(tmp, "rec.jsonl")
        fakeserver.control(aport, "/_fake/script", script())
        rc, out, err = run("record", *base, "-o", rec)
        ok(rc == 0 and os.path.exists(rec), "record --service: exit 0", err)
        kinds = set()
        if os.path.exists(rec):
            for line in open(rec):
                d = json.loads(line)
                kinds.update(d.get("scaleout", {}).keys())
        ok({"ScalingActivities", "ScalingPolicies", "MetricAlarms", "AlarmHistoryItems",
            "services", "TargetGroups", "TargetHealthDescriptions"} <= kinds,
           "the recording holds every source document", kinds)
        rc, off_csv, err = run("report", "--scaleout", "--since", "1h", "--format", "csv", rec)
        ok(rc == 0 and off_csv == live_csv, "report --scaleout of the recording: the live rows",
           "live:\n" + live_csv + "offline:\n" + off_csv + err)
    except Exception as ex:
        ok(False, "the test ran to its end", repr(ex))
    finally:
        for p in (ecs, aws):
            if p is not None:
                p.kill()
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
