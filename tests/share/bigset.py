"""A synthetic scale-out of N Fargate tasks as a DescribeTasks response, for the size
and speed checks of the shareable outputs: two task definitions, one task in 40 failing
to pull, created 50 ms apart. Deterministic for a given N."""
import json
import random


def iso(ms):
    import datetime
    t = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


def write(path, n, seed=7):
    rng = random.Random(seed)
    base = 1796025600000  # 2026-11-30T08:00:00Z
    tasks = []
    for i in range(n):
        tid = "%032x" % rng.getrandbits(128)
        rev = 7 + (i % 2)
        created = base + i * 50 + rng.randrange(40)
        prov = 12000 + rng.randrange(20000)
        pull = (60000 if rev == 7 else 2000) + rng.randrange(20000 if rev == 7 else 3000)
        start = 3000 + rng.randrange(5000)
        t = {
            "taskArn": "arn:aws:ecs:us-east-1:123456789012:task/prod/" + tid,
            "clusterArn": "arn:aws:ecs:us-east-1:123456789012:cluster/prod",
            "taskDefinitionArn": "arn:aws:ecs:us-east-1:123456789012:task-definition/web:%d" % rev,
            "group": "service:web", "launchType": "FARGATE", "platformVersion": "1.4.0",
            "availabilityZone": "us-east-1" + "abc"[i % 3], "cpu": "1024", "memory": "2048",
            "createdAt": iso(created), "pullStartedAt": iso(created + prov),
            "containers": [{"name": "web", "image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:%d" % rev}],
        }
        if i % 40 == 39:
            t.update(lastStatus="STOPPED", desiredStatus="STOPPED", stopCode="TaskFailedToStart",
                     stoppedAt=iso(created + prov + 30000),
                     stoppedReason="CannotPullContainerError: pull image manifest has been retried 5 time(s)")
        else:
            t.update(lastStatus="RUNNING", desiredStatus="RUNNING",
                     pullStoppedAt=iso(created + prov + pull),
                     startedAt=iso(created + prov + pull + start))
        tasks.append(t)
    with open(path, "w") as f:
        json.dump({"tasks": tasks, "failures": []}, f)
