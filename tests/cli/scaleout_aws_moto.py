#!/usr/bin/env python3
"""TAP: the scale-out calls (aws_scaleout.h, ecs_describe_services_json) against
moto_server, with signatures and IAM checked, compared with what the AWS CLI, the reference
client, prints for the same call against the same server (`--output json`, TZ=UTC): the
same document, lists and fields. Seeded with boto3 while auth is off: an ECS service, its
Application Auto Scaling target and target-tracking policy (moto makes its two alarms), a
hand-made CloudWatch alarm, an ELBv2 target group with a target. moto 5 has no
DescribeScalingActivities nor DescribeAlarmHistory (HTTP 500): those two are checked
against our fake server (scaleout_aws_fake.py). A missing moto or CLI is a failure."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from motoserver import iam_users, require_auth, start_moto  # noqa: E402
from tap import Tap  # noqa: E402

PROBE = os.environ.get("SCALEOUT_PROBE", "")
REGION = "us-east-1"
TMP = tempfile.mkdtemp(prefix="ecsprof-so-moto-")
T = Tap()
ok = T.ok


def seed(port):
    import boto3
    url = "http://127.0.0.1:%d" % port
    kw = dict(region_name=REGION, endpoint_url=url, aws_access_key_id="seed",
              aws_secret_access_key="seed")
    keys = iam_users(boto3.client("iam", **kw), (("reader", ["*"]), ("ecsonly", ["ecs:*"])))
    ecs = boto3.client("ecs", **kw)
    aas = boto3.client("application-autoscaling", **kw)
    cw = boto3.client("cloudwatch", **kw)
    elb = boto3.client("elbv2", **kw)
    ec2 = boto3.client("ec2", **kw)
    ecs.create_cluster(clusterName="prod")
    ecs.register_task_definition(family="web", containerDefinitions=[{
        "name": "web", "image": "nginx", "cpu": 128, "memory": 128, "essential": True}])
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    tg = elb.create_target_group(Name="web", Protocol="HTTP", Port=80, VpcId=vpc,
                                 TargetType="ip", HealthCheckPath="/health",
                                 HealthyThresholdCount=5)["TargetGroups"][0]
    tg2 = elb.create_target_group(Name="api", Protocol="HTTP", Port=8080, VpcId=vpc,
                                  TargetType="ip")["TargetGroups"][0]
    elb.register_targets(TargetGroupArn=tg["TargetGroupArn"],
                         Targets=[{"Id": "10.0.1.5", "Port": 8080},
                                  {"Id": "10.0.1.6", "Port": 8080}])
    ecs.create_service(cluster="prod", serviceName="web", taskDefinition="web",
                       desiredCount=2, healthCheckGracePeriodSeconds=60,
                       loadBalancers=[{"targetGroupArn": tg["TargetGroupArn"],
                                       "containerName": "web", "containerPort": 8080}])
    aas.register_scalable_target(ServiceNamespace="ecs", ResourceId="service/prod/web",
                                 ScalableDimension="ecs:service:DesiredCount",
                                 MinCapacity=1, MaxCapacity=10)
    pol = aas.put_scaling_policy(
        PolicyName="cpu", ServiceNamespace="ecs", ResourceId="service/prod/web",
        ScalableDimension="ecs:service:DesiredCount", PolicyType="TargetTrackingScaling",
        TargetTrackingScalingPolicyConfiguration={
            "TargetValue": 75.5, "ScaleOutCooldown": 60, "ScaleInCooldown": 300,
            "PredefinedMetricSpecification": {
                "PredefinedMetricType": "ECSServiceAverageCPUUtilization"}})
    alarms = [a["AlarmName"] for a in pol["Alarms"]]
    cw.put_metric_alarm(
        AlarmName="web-cpu-high & <manual>", MetricName="CPUUtilization", Namespace="AWS/ECS",
        Statistic="Average", Period=60, EvaluationPeriods=3, DatapointsToAlarm=3,
        Threshold=80.25, ComparisonOperator="GreaterThanThreshold",
        AlarmDescription="scale out \"fast\"", Unit="Percent",
        Dimensions=[{"Name": "ClusterName", "Value": "prod"},
                    {"Name": "ServiceName", "Value": "web"}],
        AlarmActions=[pol["PolicyARN"]])
    cw.set_alarm_state(AlarmName="web-cpu-high & <manual>", StateValue="ALARM",
                       StateReason="Threshold Crossed",
                       StateReasonData=json.dumps({"evaluatedDatapoints": [{"value": 81.2}]}))
    alarms.append("web-cpu-high & <manual>")
    require_auth(port)
    return keys, alarms, [tg["TargetGroupArn"], tg2["TargetGroupArn"]]


def env_for(port, key):
    e = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    e.update({"AWS_EC2_METADATA_DISABLED": "true", "TZ": "UTC", "AWS_REGION": REGION, "AWS_DEFAULT_REGION": REGION,
              "AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % port,
              "AWS_CONFIG_FILE": os.path.join(TMP, "config"),
              "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials"),
              "AWS_ACCESS_KEY_ID": key[0], "AWS_SECRET_ACCESS_KEY": key[1],
              "AWS_MAX_ATTEMPTS": "1"})
    return e


def probe(port, key, *args):
    p = subprocess.run([PROBE] + list(args), capture_output=True, text=True,
                       env=env_for(port, key), timeout=60)
    return p.returncode, p.stdout, p.stderr


def cli(port, key, *args):
    p = subprocess.run(["aws"] + list(args) + ["--output", "json"], capture_output=True,
                       text=True, env=env_for(port, key), timeout=120)
    return p.returncode, p.stdout, p.stderr


def same(port, key, name, probe_args, cli_args, check=None, order=True):
    rc, out, err = probe(port, key, *probe_args)
    crc, cout, cerr = cli(port, key, *cli_args)
    if rc != 0 or crc != 0:
        ok(False, name, "probe rc=%d %s | aws rc=%d %s" % (rc, err.strip(), crc,
                                                            cerr.strip()))
        return None
    mine, theirs = json.loads(out), json.loads(cout)
    ok(mine == theirs, name + ": the same document as `aws " + " ".join(cli_args[:2]) + "`",
       "probe: %s\naws:   %s" % (json.dumps(mine, sort_keys=True)[:1500],
                                  json.dumps(theirs, sort_keys=True)[:1500]))
    # and, for the XML answers read along botocore's shapes, the same member order
    # everywhere (a JSON answer keeps the server's order, which botocore re-sorts)
    ok(not order or json.dumps(mine) == json.dumps(theirs), name + ": the members in the CLI's order",
       "probe: %s\naws:   %s" % (json.dumps(mine)[:1500], json.dumps(theirs)[:1500]))
    if check is not None:
        check(mine)
    return mine


def main():
    if not PROBE or not os.access(PROBE, os.X_OK):
        print("1..1\nnot ok 1 - SCALEOUT_PROBE is not an executable: %r" % PROBE)
        return 1
    if shutil.which("aws") is None:
        print("1..1\nnot ok 1 - the AWS CLI (aws) is not installed")
        return 1
    moto = None
    try:
        # the CLI v2 default (v1's is the raw value): times as ISO 8601 with the offset
        with open(os.path.join(TMP, "config"), "w") as f:
            f.write("[default]\ncli_timestamp_format = iso8601\n")
        moto, port = start_moto()
        keys, alarms, tgs = seed(port)
        reader = keys["reader"]

        pols = same(port, reader, "DescribeScalingPolicies",
                    ["policies", "prod", "web"],
                    ["application-autoscaling", "describe-scaling-policies",
                     "--service-namespace", "ecs", "--resource-id", "service/prod/web",
                     "--scalable-dimension", "ecs:service:DesiredCount"], order=False)
        if pols is not None:
            p = pols["ScalingPolicies"]
            ok(len(p) == 1 and len(p[0].get("Alarms", [])) == 2,
               "the policy and its two target-tracking alarms", json.dumps(p)[:400])
            ok(p and isinstance(p[0].get("CreationTime"), str) and
               p[0]["CreationTime"].endswith("+00:00"),
               "CreationTime as the CLI prints it", str(p and p[0].get("CreationTime")))
        al = same(port, reader, "DescribeAlarms", ["alarms"] + alarms,
                  ["cloudwatch", "describe-alarms", "--alarm-names"] + alarms +
                  ["--alarm-types", "MetricAlarm", "CompositeAlarm"])
        if al is not None:
            m = {a["AlarmName"]: a for a in al["MetricAlarms"]}
            ok(len(m) == 3, "three metric alarms", str(list(m)))
            man = m.get("web-cpu-high & <manual>", {})
            ok(man.get("Threshold") == 80.25 and man.get("Period") == 60 and
               man.get("DatapointsToAlarm") == 3 and
               json.loads(man.get("StateReasonData", "{}")).get("evaluatedDatapoints"),
               "numbers as numbers, StateReasonData the JSON text it is", json.dumps(man)[:600])
        same(port, reader, "DescribeAlarms of a name no alarm has", ["alarms", "nosuch"],
             ["cloudwatch", "describe-alarms", "--alarm-names", "nosuch",
              "--alarm-types", "MetricAlarm", "CompositeAlarm"])
        tg = same(port, reader, "DescribeTargetGroups", ["target-groups"] + tgs,
                  ["elbv2", "describe-target-groups", "--target-group-arns"] + tgs)
        if tg is not None:
            ok([g["HealthyThresholdCount"] for g in tg["TargetGroups"]] == [5, 5] and
               tg["TargetGroups"][0]["HealthCheckIntervalSeconds"] == 30,
               "the health check settings as numbers", json.dumps(tg)[:300])
        th = same(port, reader, "DescribeTargetHealth", ["target-health", tgs[0]],
                  ["elbv2", "describe-target-health", "--target-group-arn", tgs[0]])
        if th is not None:
            ok(sorted(d["Target"]["Id"] for d in th["TargetHealthDescriptions"]) ==
               ["10.0.1.5", "10.0.1.6"], "both targets", json.dumps(th)[:300])
        same(port, reader, "DescribeTargetHealth of an empty group", ["target-health", tgs[1]],
             ["elbv2", "describe-target-health", "--target-group-arn", tgs[1]])
        svc = same(port, reader, "ECS DescribeServices", ["services", "prod", "web", "gone"],
                   ["ecs", "describe-services", "--cluster", "prod", "--services", "web",
                    "gone"], order=False)
        if svc is not None:
            s = svc["services"][0] if svc["services"] else {}
            d = (s.get("deployments") or [{}])[0]
            # moto keeps no healthCheckGracePeriodSeconds: the fake server's test reads it
            ok(s.get("loadBalancers") and isinstance(d.get("createdAt"), str) and
               d["createdAt"].endswith("+00:00") and len(svc["failures"]) == 1,
               "the service's load balancers, its times as text, the failure",
               json.dumps(svc)[:600])

        # a target group that does not exist: the CLI's error code, one line from us
        bad = tgs[0].replace("targetgroup/web/", "targetgroup/web/0")
        rc, out, err = probe(port, reader, "target-groups", bad)
        ok(rc == 1 and "TargetGroupNotFound" in err and len(err.strip().splitlines()) == 1,
           "an unknown target group is one line naming TargetGroupNotFound", err)

        # IAM: signed with keys whose policy grants ECS only
        rc, out, err = probe(port, keys["ecsonly"], "alarms", alarms[0])
        ok(rc == 1 and "AccessDenied" in err and "DescribeAlarms" in err and
           len(err.strip().splitlines()) == 1,
           "DescribeAlarms denied by IAM: one line naming the call", err)
        rc, out, err = probe(port, keys["ecsonly"], "policies", "prod", "web")
        ok(rc == 1 and "AccessDenied" in err and "DescribeScalingPolicies" in err,
           "DescribeScalingPolicies denied by IAM: one line naming the call", err)
        # SigV4: a wrong secret is refused by moto's signature check
        rc, out, err = probe(port, (reader[0], "wrong" + reader[1]), "target-health", tgs[0])
        ok(rc == 1 and "SignatureDoesNotMatch" in err,
           "a wrong secret fails moto's signature check", err)
    except Exception as e:  # a broken seed or server is a failure, with its reason
        ok(False, "the moto run", "%s: %s" % (type(e).__name__, e))
    finally:
        if moto is not None:
            moto.kill()
            moto.wait()
        shutil.rmtree(TMP, ignore_errors=True)
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
