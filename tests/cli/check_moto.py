#!/usr/bin/env python3
"""TAP: `ecsprof check --subnets` against moto_server (EC2 at AWS_ENDPOINT_URL_EC2,
signatures and IAM checked): the image path decided from live subnets, route tables and
VPC endpoints. A private subnet without endpoints: the pull fails (exit 1) and the
message names what to add; with ecr.api + ecr.dkr (private DNS) and an S3 gateway on its
route table: clear (exit 0); --task-definition FAMILY[:REV] and --service S (its network, platform and task definition)
from ECS; a public subnet (internet gateway route) with
--assign-public-ip: clear; without it: the error; a NAT route: clear; credentials without
ec2:DescribeRouteTables: one line naming the action; a service whose target group is of
target type instance (ELB DescribeTargetGroups): the error, one of type ip: none; a NAT
route whose NAT gateway is deleted (DescribeNatGateways): no way out, named; ECR endpoints
with private DNS off: named; ECR endpoints with no interface in the task's subnet: the
warning. A missing moto is a failure."""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from motoserver import iam_users, require_auth, start_moto  # noqa: E402
from tap import Tap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ECSPROF = os.environ.get("ECSPROF", os.path.join(HERE, "..", "..", "build", "ecsprof"))
TASKDEF = os.path.join(HERE, "..", "fixtures", "check", "image-path.json")
HISTORY = os.path.join(HERE, "..", "fixtures", "check", "history.jsonl")
REGION = "us-east-1"
TMP = tempfile.mkdtemp(prefix="ecsprof-check-moto-")
PULL = "CannotPullContainerError"
UNCHECKED = "is not checked"   # the offline check's line
T = Tap()
ok = T.ok


def seed(port):
    import boto3
    kw = dict(region_name=REGION, endpoint_url="http://127.0.0.1:%d" % port,
              aws_access_key_id="seed", aws_secret_access_key="seed")
    keys = iam_users(boto3.client("iam", **kw), (
        ("reader", ["ec2:DescribeSubnets", "ec2:DescribeRouteTables",
                    "ec2:DescribeVpcEndpoints", "ec2:DescribeNatGateways",
                    "ecs:DescribeTaskDefinition", "ecs:DescribeServices",
                    "elasticloadbalancing:DescribeTargetGroups"]),
        ("noroutes", ["ec2:DescribeSubnets", "ec2:DescribeVpcEndpoints"]),
        ("noelb", ["ec2:DescribeSubnets", "ec2:DescribeRouteTables", "ec2:DescribeVpcEndpoints",
                   "ec2:DescribeNatGateways", "ecs:DescribeTaskDefinition",
                   "ecs:DescribeServices"]),
        ("admin", ["*"])))
    with open(TASKDEF) as f:
        boto3.client("ecs", **kw).register_task_definition(**json.load(f))
    ec2 = boto3.client("ec2", **kw)
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    net = {"vpc": vpc}
    # private: its own table, no default route
    net["private"] = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    net["private_rt"] = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    ec2.associate_route_table(RouteTableId=net["private_rt"], SubnetId=net["private"])
    # another private subnet on the same table, where no endpoint has an interface
    net["private2"] = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.4.0/24")["Subnet"]["SubnetId"]
    ec2.associate_route_table(RouteTableId=net["private_rt"], SubnetId=net["private2"])
    # public: no table of its own, so the VPC's main one, given a route to an IGW
    net["public"] = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.2.0/24")["Subnet"]["SubnetId"]
    igw = ec2.create_internet_gateway()["InternetGateway"]["InternetGatewayId"]
    ec2.attach_internet_gateway(InternetGatewayId=igw, VpcId=vpc)
    main = ec2.describe_route_tables(Filters=[
        {"Name": "vpc-id", "Values": [vpc]},
        {"Name": "association.main", "Values": ["true"]}])["RouteTables"][0]["RouteTableId"]
    ec2.create_route(RouteTableId=main, DestinationCidrBlock="0.0.0.0/0", GatewayId=igw)
    # behind a NAT gateway in the public subnet
    net["nat"] = None
    net["natted"] = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.3.0/24")["Subnet"]["SubnetId"]
    rt = net["nat_rt"] = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    ec2.associate_route_table(RouteTableId=rt, SubnetId=net["natted"])
    eip = ec2.allocate_address(Domain="vpc")["AllocationId"]
    nat = ec2.create_nat_gateway(SubnetId=net["public"], AllocationId=eip)["NatGateway"]
    ec2.create_route(RouteTableId=rt, DestinationCidrBlock="0.0.0.0/0",
                     NatGatewayId=nat["NatGatewayId"])
    net["nat"] = nat["NatGatewayId"]
    sg = ec2.create_security_group(GroupName="task", Description="task",
                                   VpcId=vpc)["GroupId"]
    ecs = boto3.client("ecs", **kw)
    ecs.create_cluster(clusterName="prod")
    for name, subnet, public in (("rerank", net["private"], "DISABLED"),
                                 ("rerank-public", net["public"], "ENABLED")):
        ecs.create_service(cluster="prod", serviceName=name, taskDefinition="rerank-api:1",
                           desiredCount=0, launchType="FARGATE", platformVersion="1.4.0",
                           networkConfiguration={"awsvpcConfiguration": {
                               "subnets": [subnet], "securityGroups": [sg],
                               "assignPublicIp": public}})
    # behind the NAT, with a load balancer's target group: of type instance, and of type ip
    elb = boto3.client("elbv2", **kw)
    for name, ttype in (("rerank-instance", "instance"), ("rerank-ip", "ip")):
        tg = elb.create_target_group(Name=name, Protocol="HTTP", Port=8080, VpcId=vpc,
                                     TargetType=ttype)["TargetGroups"][0]["TargetGroupArn"]
        ecs.create_service(cluster="prod", serviceName=name, taskDefinition="rerank-api:1",
                           desiredCount=0, launchType="FARGATE", platformVersion="1.4.0",
                           loadBalancers=[{"targetGroupArn": tg, "containerName": "rerank-api",
                                           "containerPort": 8080}],
                           networkConfiguration={"awsvpcConfiguration": {
                               "subnets": [net["natted"]], "securityGroups": [sg],
                               "assignPublicIp": "DISABLED"}})
    return keys, net


def endpoints(port, key, net, right):
    """right: the three that open the path; else the near misses that do not (ECR's
    without private DNS, S3's on another route table)."""
    import boto3
    ec2 = boto3.client("ec2", region_name=REGION, endpoint_url="http://127.0.0.1:%d" % port,
                       aws_access_key_id=key[0], aws_secret_access_key=key[1])
    for svc in ("ecr.api", "ecr.dkr"):
        ec2.create_vpc_endpoint(VpcId=net["vpc"], VpcEndpointType="Interface",
                                ServiceName="com.amazonaws.%s.%s" % (REGION, svc),
                                SubnetIds=[net["private"]], PrivateDnsEnabled=right)
    ec2.create_vpc_endpoint(VpcId=net["vpc"], VpcEndpointType="Gateway",
                            ServiceName="com.amazonaws.%s.s3" % REGION,
                            RouteTableIds=[net["private_rt"] if right else net["nat_rt"]])


def check(port, key, *args):
    e = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    e.update({"AWS_EC2_METADATA_DISABLED": "true", "AWS_REGION": REGION,
              "AWS_ENDPOINT_URL_EC2": "http://127.0.0.1:%d" % port,
              "AWS_ENDPOINT_URL_ECS": "http://127.0.0.1:%d" % port,
              "AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2": "http://127.0.0.1:%d" % port,
              "AWS_CONFIG_FILE": os.path.join(TMP, "no-config"),
              "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials"),
              "AWS_ACCESS_KEY_ID": key[0], "AWS_SECRET_ACCESS_KEY": key[1],
              "AWS_MAX_ATTEMPTS": "1"})
    p = subprocess.run([ECSPROF, "check"] + list(args), capture_output=True, text=True,
                       env=e, timeout=60)
    # the table wraps its lines: the words, one space apart
    return p.returncode, " ".join(p.stdout.split()), p.stderr


def main():
    moto = None
    try:
        moto, port = start_moto()
        keys, net = seed(port)
        require_auth(port)
        r = keys["reader"]

        rc, out, err = check(port, r, "--subnets", net["private"], TASKDEF)
        ok(rc == 1, "a private subnet without endpoints: exit 1", out + err)
        ok("image-path containerDefinitions[0].image" in out and PULL in out,
           "a private subnet without endpoints: the pull fails before it is tried", out)
        ok("no endpoint ecr.api, ecr.dkr, s3 (gateway)" in out and net["private"] in out,
           "a private subnet without endpoints: it names the subnet and the three endpoints",
           out)

        rc, out, err = check(port, r, "--subnets", net["public"], "--assign-public-ip",
                             TASKDEF)
        ok(rc == 0 and PULL not in out and UNCHECKED not in out,
           "a public subnet (main table, IGW route) with --assign-public-ip: clear", out + err)
        rc, out, err = check(port, r, "--subnets", net["public"], TASKDEF)
        ok(rc == 1 and "routes to an internet gateway but the task gets no public IP" in out,
           "a public subnet without --assign-public-ip: the error says so", out + err)
        rc, out, err = check(port, r, "--subnets", net["natted"], TASKDEF)
        ok(rc == 0 and PULL not in out and UNCHECKED not in out,
           "a subnet with a NAT route: clear", out + err)
        rc, out, err = check(port, r, "--subnets", "%s,%s" % (net["natted"], net["private"]),
                             TASKDEF)
        ok(rc == 1 and net["private"] in out,
           "of several subnets, the one the task is worst off in is judged", out + err)

        rc, out, err = check(port, r, "--task-definition", "rerank-api:1", "--subnets",
                             net["private"])
        ok(rc == 1 and out.startswith("rerank-api:1 (DescribeTaskDefinition)") and PULL in out
           and "ARM64" in out, "--task-definition FAMILY:REV read from ECS, judged live",
           out + err)
        rc, out, err = check(port, r, "--task-definition", "rerank-api")
        ok(rc == 0 and UNCHECKED in out and "$0.0932 per hour" in out,
           "--task-definition FAMILY without --subnets: the latest, the path not checked",
           out + err)
        rc, out, err = check(port, r, "--task-definition", "nope:3")
        ok(rc == 4 and "check: no verdict: " in err and
           "task definition 'nope:3' not found" in err and out == "",
           "an unknown task definition: one line, no verdict", out + err)
        rc, out, err = check(port, r, "--cluster", "prod", "--service", "rerank")
        ok(rc == 1 and out.startswith("rerank-api:1 (DescribeTaskDefinition): Fargate platform "
                                      "1.4.0") and PULL in out and net["private"] in out,
           "--service: its task definition, platform and private subnet judged", out + err)
        rc, out, err = check(port, r, "--cluster", "prod", "--service", "rerank-public")
        ok(rc == 0 and PULL not in out and UNCHECKED not in out,
           "--service with a public subnet and assignPublicIp ENABLED: clear", out + err)
        rc, out, err = check(port, r, "--cluster", "prod", "--service", "rerank", "--subnets",
                             net["public"])
        ok(rc == 2 and "check --service takes one service" in err,
           "--service with --subnets: a usage error", out + err)
        rc, out, err = check(port, keys["noroutes"], "--subnets", net["private"], TASKDEF)
        ok(rc == 4 and "grant ec2:DescribeRouteTables" in err and out == "" and
           len(err.strip().splitlines()) == 1,
           "denied DescribeRouteTables: exit 4, one line naming the IAM action, no verdict",
           out + err)

        rc, out, err = check(port, r, "--cluster", "prod", "--service", "rerank-instance")
        ok(rc == 1 and "service-target-type service.loadBalancers[0].targetGroupArn" in out
           and "target group rerank-instance has target type instance" in out,
           "--service with a target group of type instance: the error", out + err)
        rc, out, err = check(port, keys["noelb"], "--cluster", "prod", "--service",
                             "rerank-instance")
        ok(rc == 4 and out == "" and err.startswith("ecsprof: check: no verdict: ") and
           "DescribeTargetGroups" in err and len(err.strip().splitlines()) == 1,
           "denied DescribeTargetGroups: exit 4, one line naming the call", out + err)
        rc, out, err = check(port, r, "--cluster", "prod", "--service", "rerank-ip")
        ok(rc == 0 and "service-target-type" not in out and PULL not in out,
           "--service with a target group of type ip: clear", out + err)

        import boto3
        boto3.client("ec2", region_name=REGION, endpoint_url="http://127.0.0.1:%d" % port,
                     aws_access_key_id=keys["admin"][0],
                     aws_secret_access_key=keys["admin"][1]).delete_nat_gateway(
                         NatGatewayId=net["nat"])
        rc, out, err = check(port, r, "--subnets", net["natted"], TASKDEF)
        ok(rc == 1 and PULL in out and
           "0.0.0.0/0 goes to NAT gateway %s, which is deleted" % net["nat"] in out,
           "a route to a deleted NAT gateway is no way out, and says so", out + err)

        endpoints(port, keys["admin"], net, False)
        rc, out, err = check(port, r, "--subnets", net["private"], TASKDEF)
        ok(rc == 1 and "no endpoint ecr.api, ecr.dkr, s3 (gateway)" in out and
           "ecr.api endpoint vpce-" in out and "has private DNS off" in out,
           "ECR endpoints without private DNS and S3's on another table do not count, "
           "and which ones is said", out + err)
        endpoints(port, keys["admin"], net, True)
        rc, out, err = check(port, r, "--subnets", net["private"], TASKDEF)
        ok(rc == 0 and PULL not in out and UNCHECKED not in out and "will start" in out,
           "with ecr.api, ecr.dkr and the S3 gateway on its table: the path is clear",
           out + err)
        rc, out, err = check(port, r, "--subnets", net["private"], "--format", "json",
                             TASKDEF)
        rules = [f["rule"] for f in json.loads(out)["findings"]] if rc == 0 else None
        ok(rules == ["price"], "the same as JSON: the price alone", out + err)
        # the end: the path clear, and the pull forecast from recorded history
        rc, out, err = check(port, r, "--subnets", net["private"], "--history", HISTORY, TASKDEF)
        ok(rc == 0 and "will start" in out and PULL not in out and
           "expected pull 48 s (p10 34 s, p90 60 s) for 1.20 GB compressed" in out and
           "per 1,000 starts at the expected start of 53 s" in out,
           "the endpoints added, with --history: clear, and the pull forecast", out + err)
        rc, out, err = check(port, r, "--subnets", net["private2"], TASKDEF)
        ok(rc == 0 and PULL not in out and "image-endpoint-subnet" in out and
           "have no interface in subnet %s" % net["private2"] in out,
           "endpoints with no interface in the task's subnet: the path is clear, with a "
           "warning", out + err)
    except Exception as e:  # noqa: BLE001 - a failure to set up is a failed test
        ok(False, "set up moto and run", repr(e))
    finally:
        if moto is not None:
            moto.kill()
            moto.wait()
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
