#!/usr/bin/env python3
"""Benchmark: `ecsprof scaleout` over a day of a busy service (issue 33, Speed): 2,000 tasks
(tests/fake_ecs.py), 20 scale-outs, 100 service events, the scaling activities, the alarm's
history and the target group's health (tests/fake_scaleout_aws.py), every call LATENCY_MS
late, the list calls paged as AWS pages them (here 10 activities and 10 history items a
page, 100 tasks a ListTasks page).

Prints, per run (median of RUNS):
  - the round trips the fakes served against the page chains' count (the pages every call
    needs: the fewest requests possible; goal: equal);
  - the wall time against the sequential floor: the longest chain's round trips times
    one round trip as measured in the same run (sequential requests to the fake, timed
    here); goal: within 1.5x of it, i.e. the chains overlap, not one after the other;
    the sum of all the chains' round trips (what one after the other would cost) beside it;
  - the task fetch alone (`ecsprof tasks --service`, the longest chain as ecsprof makes
    it, with the fake's own time per page) in the same round, and scaleout's ratio to it;
  - ecsprof's CPU seconds (user + system, whole process); goal < 1 s.
A benchmark, not a test: it reports the goals but exits 0 unless something broke.

usage: bench/scaleout.py [ECSPROF]   (env: LATENCY_MS=20 RUNS=3)"""
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "tests")
sys.path.insert(0, os.path.join(TESTS, "lib"))
import fakeserver  # noqa: E402
from scaleout_script import xml  # noqa: E402

LATENCY_MS = float(os.environ.get("LATENCY_MS", "20"))
RUNS = int(os.environ.get("RUNS", "3"))
TASKS, SCALEOUTS, EVENTS = 2000, 20, 100
STOPPED = 0.5
DAY = 86400
T0 = int(time.time())
TG = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/6d0ecf831eec9f09"
ALARM = "TargetTracking-service/day/web-AlarmHigh-1"
POLICY = ("arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:p1:resource/ecs/"
          "service/day/web:policyName/cpu")
PAGE = 10   # activities and history items a page


def iso(s):
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(T0 + s))


def when(k):
    """the k-th scale-out's alarm, seconds from t0 (spread over the day)"""
    return -DAY + 1800 + k * (DAY - 3600) // SCALEOUTS


def scenario():
    events = []
    for k in range(SCALEOUTS):
        at = when(k)
        events += [
            {"created": at + 80, "message": "(service web) has started 5 tasks: (task "
             "s%d-1) (task s%d-2) (task s%d-3) (task s%d-4) (task s%d-5)."
             % ((k,) * 5)},
            {"created": at + 120, "message": "(service web) registered 5 targets in "
             "(target-group %s)" % TG},
            {"created": at + 200, "message": "(service web) has reached a steady state."},
            {"created": at + 900, "message": "(service web) has stopped 5 running tasks."},
            {"created": at + 960, "message": "(service web) deregistered 5 targets in "
             "(target-group %s)" % TG}]
    return {
        "region": "us-east-1", "t0": T0, "credentials": {"AKIDFAKE": "fakesecret"},
        "clusters": {"day": {
            "services": {"web": {
                "taskDefinition": "web:3", "desiredCount": 20, "created": -2 * DAY,
                "loadBalancers": [{"targetGroupArn": TG, "containerName": "web",
                                   "containerPort": 8080}],
                "healthCheckGracePeriodSeconds": 60,
                "deployments": [{"id": "ecs-svc/1234567890123456789", "status": "PRIMARY",
                                 "created": -2 * DAY, "desiredCount": 20,
                                 "rolloutState": "COMPLETED"}],
                "events": events[:EVENTS]}},
            "generate": {"count": TASKS, "service": "web", "family": "web", "seed": 3,
                         "spread": DAY - 120, "stopped_fraction": STOPPED}}}}


def js(obj):
    return {"body": json.dumps(obj), "status": 200}


def pages_json(key, items, token_key="NextToken"):
    out = []
    for i in range(0, max(len(items), 1), PAGE):
        body = {key: items[i:i + PAGE]}
        if i + PAGE < len(items):
            body[token_key] = "p%d" % (i + PAGE)
        out.append(js(body))
    return out


def pages_xml(op, key, items):
    out = []
    for i in range(0, max(len(items), 1), PAGE):
        more = "<NextToken>p%d</NextToken>" % (i + PAGE) if i + PAGE < len(items) else ""
        out.append(xml(op, "<%s>%s</%s>%s" % (key, "".join(items[i:i + PAGE]), key, more)))
    return out


def script():
    acts = [{"ActivityId": "a%d" % k, "ServiceNamespace": "ecs",
             "ResourceId": "service/day/web", "ScalableDimension": "ecs:service:DesiredCount",
             "Description": "Setting desired count to 25.",
             "Cause": "monitor alarm %s in state ALARM triggered policy cpu" % ALARM,
             "StartTime": T0 + when(k) + 70, "EndTime": T0 + when(k) + 95,
             "StatusCode": "Successful"} for k in reversed(range(SCALEOUTS))]
    hist = []
    for k in reversed(range(SCALEOUTS)):
        data = json.dumps({"version": "1.0", "oldState": {"stateValue": "OK"}, "newState": {
            "stateValue": "ALARM", "stateReasonData": {"evaluatedDatapoints": [
                {"timestamp": iso(when(k) - 60), "sampleCount": 1.0, "value": 91.5}]}}})
        esc = data.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
        for at, summary in ((when(k) + 600, "ALARM to OK"), (when(k), "OK to ALARM")):
            hist.append("<member><AlarmName>%s</AlarmName><Timestamp>%s</Timestamp>"
                        "<HistoryItemType>StateUpdate</HistoryItemType><HistorySummary>"
                        "Alarm updated from %s</HistorySummary><HistoryData>%s</HistoryData>"
                        "</member>" % (ALARM, iso(at), summary,
                                       esc if summary.endswith("ALARM") else ""))
    targets = "".join(
        "<member><Target><Id>10.0.%d.%d</Id><Port>8080</Port></Target><TargetHealth><State>"
        "healthy</State></TargetHealth></member>" % (i // 250, i % 250) for i in range(20))
    return {
        "DescribeScalingActivities": pages_json("ScalingActivities", acts),
        "DescribeScalingPolicies": [js({"ScalingPolicies": [{
            "PolicyARN": POLICY, "PolicyName": "cpu", "ServiceNamespace": "ecs",
            "ResourceId": "service/day/web", "ScalableDimension": "ecs:service:DesiredCount",
            "PolicyType": "TargetTrackingScaling",
            "TargetTrackingScalingPolicyConfiguration": {
                "TargetValue": 50.0, "ScaleOutCooldown": 60, "ScaleInCooldown": 300,
                "PredefinedMetricSpecification": {
                    "PredefinedMetricType": "ECSServiceAverageCPUUtilization"}},
            "Alarms": [{"AlarmName": ALARM}], "CreationTime": T0 - 2 * DAY}]})],
        "DescribeAlarms": [xml("DescribeAlarms", (
            "<MetricAlarms><member><AlarmName>%s</AlarmName><MetricName>CPUUtilization"
            "</MetricName><Period>60</Period><EvaluationPeriods>3</EvaluationPeriods>"
            "<DatapointsToAlarm>3</DatapointsToAlarm><Threshold>50.0</Threshold>"
            "<ComparisonOperator>GreaterThanThreshold</ComparisonOperator>"
            "<AlarmActions><member>%s</member></AlarmActions></member></MetricAlarms>"
            "<CompositeAlarms/>") % (ALARM, POLICY))],
        "DescribeAlarmHistory": pages_xml("DescribeAlarmHistory", "AlarmHistoryItems", hist),
        "DescribeTargetGroups": [xml("DescribeTargetGroups", (
            "<TargetGroups><member><TargetGroupArn>%s</TargetGroupArn><TargetGroupName>web"
            "</TargetGroupName><HealthCheckIntervalSeconds>30</HealthCheckIntervalSeconds>"
            "<HealthCheckTimeoutSeconds>5</HealthCheckTimeoutSeconds>"
            "<HealthyThresholdCount>5</HealthyThresholdCount>"
            "<UnhealthyThresholdCount>2</UnhealthyThresholdCount><TargetType>ip"
            "</TargetType></member></TargetGroups>") % TG)],
        "DescribeTargetHealth": [xml("DescribeTargetHealth", "<TargetHealthDescriptions>%s"
                                     "</TargetHealthDescriptions>" % targets)],
    }


def chains(sc, running, stopped):
    """each independent chain's round trips, as the pages scripted and the tasks make them"""
    lt = lambda n: max(1, math.ceil(n / 100))   # noqa: E731
    return {
        # ListTasks pages of each status side by side, each page's DescribeTasks behind
        # it: the last page's describe ends the chain
        "ECS tasks (ListTasks pages, then the last DescribeTasks)":
            max(lt(running), lt(stopped)) + 1,
        "activities": len(sc["DescribeScalingActivities"]),
        "policies -> alarms -> history": 1 + 1 + len(sc["DescribeAlarmHistory"]),
        "DescribeServices -> target groups -> health": 3,
    }


def round_trip_ms(port):
    """one round trip to the fake, timed here: the median of sequential requests"""
    ts = []
    for _ in range(15):
        req = urllib.request.Request(
            "http://127.0.0.1:%d/" % port, data=b"Action=DescribeTargetHealth&Version="
            b"2015-12-01", headers={
                "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDFAKE/20261207/us-east-1/"
                                 "elasticloadbalancing/aws4_request",
                "Content-Type": "application/x-www-form-urlencoded"})
        t0 = time.monotonic()
        try:
            urllib.request.urlopen(req, timeout=10).read()
        except urllib.error.HTTPError as e:   # no answer scripted: 500, after the latency
            e.read()
        ts.append((time.monotonic() - t0) * 1000)
    return statistics.median(ts)


def main():
    ecsprof = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ECSPROF", "")
    if not ecsprof or not os.access(ecsprof, os.X_OK):
        print("scaleout.py: give the ecsprof binary as argument or in ECSPROF",
              file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-bench-so-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(scenario(), f)
    ecs = aws = None
    try:
        ecs, eport = fakeserver.start("fake_ecs.py", ["--scenario", scen, "--latency-ms",
                                                      str(LATENCY_MS)])
        aws, aport = fakeserver.start("fake_scaleout_aws.py")
        fakeserver.control(eport, "/_fake/advance", {"to": 0, "freeze": True})
        fakeserver.control(aport, "/_fake/config", {"latency_ms": LATENCY_MS})
        url = "http://127.0.0.1:%d" % aport
        env = fakeserver.env(empty, AWS_REGION="us-east-1",
                             AWS_ENDPOINT_URL_ECS="http://127.0.0.1:%d" % eport,
                             AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING=url,
                             AWS_ENDPOINT_URL_CLOUDWATCH=url,
                             AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2=url)
        visible = fakeserver.control(eport, "/_fake/state/day")["tasks"]
        stopped = sum(1 for t in visible if t.get("desiredStatus") == "STOPPED")
        running = len(visible) - stopped
        walls, cpus, trips, rts, alone = [], [], [], [], []
        rows = 0
        for _ in range(RUNS):
            rts.append(round_trip_ms(aport))
            # the longest chain alone, in the same round: the service's tasks as `tasks`
            # fetches them (the fake ECS's own time per page included)
            t0 = time.monotonic()
            subprocess.run([ecsprof, "tasks", "--cluster", "day", "--service", "web",
                            "--since", "1d", "--no-images", "--format", "csv"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           timeout=300, check=True)
            alone.append((time.monotonic() - t0) * 1000)
            sc = script()
            fakeserver.control(aport, "/_fake/script", sc)
            e0 = fakeserver.control(eport, "/_fake/stats")
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            p = subprocess.run([ecsprof, "scaleout", "--cluster", "day", "--service", "web",
                                "--since", "1d", "--no-images", "--format", "csv"],
                               capture_output=True, text=True, env=env, timeout=300)
            walls.append((time.monotonic() - t0) * 1000)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
            if p.returncode != 0:
                print("scaleout.py: ecsprof failed: %s" % p.stderr, file=sys.stderr)
                return 1
            rows = len(p.stdout.splitlines()) - 1
            e1 = fakeserver.control(eport, "/_fake/stats")
            ecs_ops = {k: e1["ops"].get(k, 0) - e0["ops"].get(k, 0) for k in e1["ops"]}
            trips.append(sum(ecs_ops.values()) +
                         fakeserver.control(aport, "/_fake/stats")["requests"])
            ecs_seen = {k: v for k, v in ecs_ops.items() if v}
        ch = chains(script(), running, stopped)
        sc = script()
        lt = lambda n: math.ceil(n / 100)   # noqa: E731
        # the fewest requests: every page of every call once
        need = (lt(running) + lt(stopped) + lt(running + stopped) + 1 +   # ListTasks,
                # DescribeTasks (100 a call, across pages), DescribeServices
                len(sc["DescribeScalingActivities"]) + 1 + 1 +
                len(sc["DescribeAlarmHistory"]) + 1 + 1)
        longest = max(ch.values())
        rt = statistics.median(rts)
        wall = statistics.median(walls)
        cpu = statistics.median(cpus)
        floor = longest * rt
        print("scaleout: a day of a busy service: %d tasks (%d running, %d stopped), %d "
              "scale-outs, %d events; %d rows; %g ms latency a call (one round trip "
              "measured: %.1f ms)" % (running + stopped, running, stopped, SCALEOUTS,
                                      EVENTS, rows, LATENCY_MS, rt))
        for name, n in ch.items():
            print("scaleout:   chain %-55s %3d round trips" % (name, n))
        print("scaleout: round trips %d (ECS %s), the page chains' %d (goal: equal)"
              % (statistics.median(trips), ecs_seen, need))
        print("scaleout: wall %.0f ms; sequential floor (the longest chain, %d round trips) "
              "%.0f ms: %.2fx (goal <= 1.5x); the chains one after the other %.0f ms"
              % (wall, longest, floor, wall / floor, sum(ch.values()) * rt))
        print("scaleout: the task fetch alone (`tasks --service`, the same run) %.0f ms: "
              "scaleout takes %.2fx of it (goal about 1x: the other chains hidden behind it)"
              % (statistics.median(alone), wall / statistics.median(alone)))
        print("scaleout: CPU %.3f s (goal < 1 s)" % cpu)
    finally:
        for p in (ecs, aws):
            if p is not None:
                p.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
