#!/usr/bin/env python3
"""TAP: `watch --record --service` observes target health (issue 33 item 3): ELBv2 gives a
target's state and never since when, so each poll asks DescribeTargetHealth and the
recording keeps what changed, with the instant seen; `report --scaleout` of that recording
then has the register stage observed, not estimated. ECS from tests/fake_ecs.py (a
scale-out 2 -> 4 two and a half minutes ago, its two targets registered at +120 s in a
target group checked 30 s x 5), the other services from tests/fake_scaleout_aws.py, whose
DescribeTargetHealth answers the two new targets `initial` for the first polls, then
`healthy`. Without the observations register would be estimated (150 s after the
registration); observed, it ends at the poll that first saw them healthy."""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from tap import Tap  # noqa: E402
from scaleout_script import xml  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
T = Tap()
ok = T.ok
# the scale-out is recent: a target first seen `initial` is tied to the task that went
# RUNNING last before it (within two minutes)
NOW = 150
T0 = int(time.time()) - NOW
TG = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/6d0ecf831eec9f09"
ALARM = "TargetTracking-service/prod/web-AlarmHigh-1"
POLICY = ("arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:p1:resource/ecs/"
          "service/prod/web:policyName/cpu")
POLLS = 6
INITIAL_POLLS = 3   # the new targets are `initial` at the first 3 polls, then healthy


def iso(s):
    return datetime.datetime.fromtimestamp(T0 + s, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.000Z")


def parse_iso(text):
    return datetime.datetime.strptime(text.replace("Z", "+0000"),
                                      "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


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
            "deployments": [{"id": "ecs-svc/1234567890123456789", "status": "PRIMARY",
                             "created": -86400, "desiredCount": 4,
                             "rolloutState": "COMPLETED"}],
            "events": [
                {"created": 88, "message": "(service web) has started 2 tasks: "
                                           "(task new-1) (task new-2)."},
                {"created": 120, "message": "(service web) registered 2 targets in "
                                            "(target-group %s)" % TG}]}},
        "tasks": [task("old-1", -80000), task("old-2", -80000),
                  task("new-1", 90), task("new-2", 91)]}}}


def js(obj):
    return {"body": json.dumps(obj), "status": 200}


def health(new_state):
    members = "".join(
        "<member><Target><Id>10.0.0.%d</Id><Port>8080</Port></Target><HealthCheckPort>8080"
        "</HealthCheckPort><TargetHealth><State>%s</State></TargetHealth></member>"
        % (i, "healthy" if i <= 2 else new_state) for i in range(1, 5))
    return xml("DescribeTargetHealth",
               "<TargetHealthDescriptions>%s</TargetHealthDescriptions>" % members)


def script():
    history = json.dumps({"version": "1.0", "oldState": {"stateValue": "OK"}, "newState": {
        "stateValue": "ALARM", "stateReasonData": {"evaluatedDatapoints": [
            {"timestamp": iso(0), "sampleCount": 1.0, "value": 91.5}]}}})
    esc = history.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    answers = [health("initial")] * INITIAL_POLLS + [health("healthy")] * POLLS
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
            "Alarms": [{"AlarmName": ALARM}], "CreationTime": T0 - 86400}]})],
        "DescribeAlarms": [xml("DescribeAlarms", (
            "<MetricAlarms><member><AlarmName>%s</AlarmName><MetricName>CPUUtilization"
            "</MetricName><Period>60</Period><EvaluationPeriods>1</EvaluationPeriods>"
            "<DatapointsToAlarm>1</DatapointsToAlarm><Threshold>50.0</Threshold>"
            "<ComparisonOperator>GreaterThanThreshold</ComparisonOperator>"
            "<AlarmActions><member>%s</member></AlarmActions></member></MetricAlarms>"
            "<CompositeAlarms/>") % (ALARM, POLICY))],
        "DescribeAlarmHistory": [xml("DescribeAlarmHistory", (
            "<AlarmHistoryItems><member><AlarmName>%s</AlarmName><Timestamp>%s</Timestamp>"
            "<HistoryItemType>StateUpdate</HistoryItemType><HistorySummary>Alarm updated "
            "from OK to ALARM</HistorySummary><HistoryData>%s</HistoryData></member>"
            "</AlarmHistoryItems>") % (ALARM, iso(70), esc))],
        "DescribeTargetGroups": [xml("DescribeTargetGroups", (
            "<TargetGroups><member><TargetGroupArn>%s</TargetGroupArn><TargetGroupName>web"
            "</TargetGroupName><HealthCheckIntervalSeconds>30</HealthCheckIntervalSeconds>"
            "<HealthCheckTimeoutSeconds>5</HealthCheckTimeoutSeconds>"
            "<HealthyThresholdCount>5</HealthyThresholdCount>"
            "<UnhealthyThresholdCount>2</UnhealthyThresholdCount>"
            "<TargetType>ip</TargetType></member></TargetGroups>") % TG)],
        "DescribeTargetHealth": answers,
    }


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-so-watch-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    ecs = aws = None
    try:
        ecs, eport = fakeserver.start("fake_ecs.py", ["--scenario", scen])
        aws, aport = fakeserver.start("fake_scaleout_aws.py")
        fakeserver.control(eport, "/_fake/advance", {"to": NOW, "freeze": True})
        url = "http://127.0.0.1:%d" % aport
        env = fakeserver.env(empty, AWS_REGION="us-east-1",
                             AWS_ENDPOINT_URL_ECS="http://127.0.0.1:%d" % eport,
                             AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING=url,
                             AWS_ENDPOINT_URL_CLOUDWATCH=url,
                             AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2=url)

        def run(*args):
            p = subprocess.run([ECSPROF] + list(args), capture_output=True, text=True,
                               env=env, timeout=90)
            return p.returncode, p.stdout, p.stderr

        rec = os.path.join(tmp, "rec.jsonl")
        fakeserver.control(aport, "/_fake/script", script())
        rc, out, err = run("watch", "--cluster", "prod", "--service", "web", "--no-images",
                           "--interval", "0.3", "--count", str(POLLS), "--format", "csv",
                           "--record", rec)
        ok(rc == 0 and os.path.exists(rec), "watch --record --service: exit 0", err)
        ops = [r["op"] for r in fakeserver.control(aport, "/_fake/requests")]
        ok(ops.count("DescribeTargetHealth") == POLLS and
           ops.count("DescribeScalingActivities") == 1,
           "DescribeTargetHealth once a poll, the other documents once (the desired "
           "count did not move)", ops)

        # the recording: the target health that changed, each with when it was seen
        seen = {}   # target -> [(observed_at, state)]
        kinds = set()
        for line in open(rec) if os.path.exists(rec) else []:
            d = json.loads(line).get("scaleout", {})
            kinds.update(d.keys())
            for t in d.get("TargetHealthDescriptions", []):
                seen.setdefault(t["Target"]["Id"], []).append(
                    (d["observed_at"], t["TargetHealth"]["State"]))
        ok({"ScalingActivities", "MetricAlarms", "AlarmHistoryItems", "TargetGroups",
            "TargetHealthDescriptions"} <= kinds, "the recording holds every source", kinds)
        new = sorted(seen.get("10.0.0.3", []))
        states = [s for _, s in new]
        ok(states and states[-1] == "healthy" and states.count("healthy") == 1 and
           states == ["initial", "healthy"],
           "a new target's lines: initial, then healthy once (what changed, not every "
           "poll)", new)
        old = [s for _, s in seen.get("10.0.0.1", [])]
        ok(old == ["healthy"],
           "a target healthy throughout: seen at the first poll only", old)

        rc, csv, err = run("report", "--scaleout", "--since", "1h", "--format", "csv", rec)
        rows = csv.splitlines()
        head = rows[0].split(",") if rows else []
        row = dict(zip(head, rows[1].split(","))) if len(rows) > 1 else {}
        ok(rc == 0 and len(rows) == 2, "report --scaleout of the recording: one row",
           csv + err)
        healthy_at = max(parse_iso(at) for tid in ("10.0.0.3", "10.0.0.4")
                         for at, s in seen.get(tid, []) if s == "healthy") if new else 0
        want = healthy_at - (T0 + 120)
        got = float(row.get("register_s") or "nan")
        ok(row.get("register_estimated") == "false" and abs(got - want) < 0.002,
           "register observed: the registration event -> the poll that saw the targets "
           "healthy (%.3f s)" % want, csv)
        ok(got < 60, "not the estimate (30 s x 5 = 150 s after registering)", csv)
    except Exception as ex:
        ok(False, "the test ran to its end", repr(ex))
    finally:
        for p in (ecs, aws):
            if p is not None:
                p.kill()
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
