"""moto_server for the integration tests: started on 127.0.0.1 at a free port, waited
for, and a clear failure when it is not installed (a missing server fails the test, it
never skips it). Shared by tests/cli/*_moto.py and live_creds.py."""
import os
import shutil
import socket
import subprocess
import time
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_moto(env_extra=None, tries=5, secs=30):
    """(process, port) of a moto_server that answers. env_extra: e.g.
    INITIAL_NO_AUTH_ACTION_COUNT, MOTO_RECORDER_FILEPATH. The port may be taken between
    free_port() and moto's bind, hence the tries."""
    exe = shutil.which("moto_server")
    if exe is None:
        raise RuntimeError("moto_server is not installed (pip install 'moto[server]')")
    env = dict(os.environ, **(env_extra or {}))
    for _ in range(tries):
        port = free_port()
        # DEVNULL, not a pipe nobody reads: a chatty moto would block on a full pipe
        p = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + secs
        while time.time() < deadline:
            if p.poll() is not None:
                break
            try:
                # moto-api is not an AWS action: it does not use up the unsigned calls
                urllib.request.urlopen("http://127.0.0.1:%d/moto-api/" % port, timeout=1)
                return p, port
            except OSError:
                time.sleep(0.2)
        p.kill()
        p.wait()
    raise RuntimeError("moto_server did not start")


def iam_users(iam, users):
    """{name: (key id, secret)} of IAM users made through the boto3 client iam, each with
    one inline policy that allows its actions on every resource: users is
    ((name, [actions]), ...)."""
    import json
    keys = {}
    for user, actions in users:
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]}))
        k = iam.create_access_key(UserName=user)["AccessKey"]
        keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])
    return keys


def require_auth(port):
    """Signatures and IAM checked from the next request on (text/plain: with a form
    content type moto would not read the body)."""
    req = urllib.request.Request("http://127.0.0.1:%d/moto-api/reset-auth" % port, data=b"0",
                                 method="POST", headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(req, timeout=10).read()
