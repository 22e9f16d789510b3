#!/usr/bin/env python3
"""The same job as `ecsprof report` on EventBridge JSON Lines, in plain Python, as the
benchmark's yardstick: keep the newest version of each task, then print
task_id,provision_s,pull_s,start_s,total_s (3 decimals; empty when a time is missing or
the duration would be negative), in first-seen order.

usage: phases.py FILE...
"""
import datetime
import json
import sys

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
MS = datetime.timedelta(milliseconds=1)


def ms(value):
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return round(value * 1000)
    return (datetime.datetime.fromisoformat(value.replace("Z", "+00:00")) - EPOCH) // MS


def secs(a, b):
    if a is None or b is None or b < a:
        return ""
    return "%d.%03d" % divmod(b - a, 1000)


def main():
    tasks = {}
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                event = json.loads(line)
                if event.get("detail-type") != "ECS Task State Change":
                    continue
                task = event["detail"]
                arn = task["taskArn"]
                have = tasks.get(arn)
                if have is None or task.get("version", 0) > have.get("version", 0):
                    tasks[arn] = task
    out = sys.stdout
    out.write("task_id,provision_s,pull_s,start_s,total_s\n")
    for arn, t in tasks.items():
        created, pull0, pull1, started = (ms(t.get(k)) for k in
                                          ("createdAt", "pullStartedAt", "pullStoppedAt", "startedAt"))
        out.write("%s,%s,%s,%s,%s\n" % (arn.rsplit("/", 1)[-1], secs(created, pull0),
                                        secs(pull0, pull1), secs(pull1, started), secs(created, started)))


if __name__ == "__main__":
    main()
