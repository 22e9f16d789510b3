"""Our own fake AWS servers (tests/fake_ecs.py, hostile_ecs.py, fake_ecr.py) as the tests
use them: started on 127.0.0.1 at a port they pick and print on their first line, their
/_fake control API, and the environment that points ecsprof at them with fake credentials,
no config files and no metadata endpoint (no test may reach 169.254.169.254)."""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def start(script, args=(), stderr=None):
    """(process, port) of tests/SCRIPT started with args. stderr: a file for the server's
    log (by default a temporary one; never an unread pipe, which blocks a chatty server).
    A server that does not print its port is killed and raises with its log."""
    if stderr is None:
        stderr = tempfile.TemporaryFile("w+")
    p = subprocess.Popen([sys.executable, os.path.join(TESTS, script)] + list(args),
                         stdout=subprocess.PIPE, stderr=stderr, text=True)
    line = p.stdout.readline()
    if not line.strip().isdigit():
        p.kill()
        p.wait()
        stderr.seek(0)
        log = stderr.read().strip()
        raise RuntimeError("%s did not start: %s" % (script, log or "no port printed"))
    return p, int(line)


def control(port, path, body=None):
    """The fake's control API: GET path, or POST body as JSON; the JSON answer."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


# --endpoint-url sets the ECS endpoint only: every other service ecsprof may call gets its
# own variable, by default a closed loopback port, so that no test reaches AWS (a script
# whose fake serves one of them, ECR, points it there through extra)
CLOSED = "http://127.0.0.1:9"
OTHER_SERVICES = ("ECR", "STS", "SSO",
                  # the scale-out's (`scaleout`, `record`/`watch --record --service`)
                  "APPLICATION_AUTO_SCALING", "CLOUDWATCH", "ELASTIC_LOAD_BALANCING_V2")


def service_endpoints(url=CLOSED):
    """AWS_ENDPOINT_URL_<service> = url for every service but ECS"""
    return {"AWS_ENDPOINT_URL_%s" % s: url for s in OTHER_SERVICES}


def env(empty, **extra):
    """os.environ without AWS_*, with the fakes' credentials (AKIDFAKE/fakesecret), the
    config and credentials files at empty (a path that holds nothing), the instance
    metadata off and NO_COLOR; extra adds or overrides variables."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    e.update({"AWS_ACCESS_KEY_ID": "AKIDFAKE", "AWS_SECRET_ACCESS_KEY": "fakesecret",
              "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": empty,
              "AWS_SHARED_CREDENTIALS_FILE": empty, "NO_COLOR": "1"})
    e.update(service_endpoints())
    e.update(extra)
    return e
