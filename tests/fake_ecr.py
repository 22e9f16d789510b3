"""fake_ecr: the ECR side of fake_ecs (moto has no ListImageReferrers or
GetDownloadUrlForLayer, and cannot be made to serve a given layer history): DescribeImages,
BatchGetImage, ListImageReferrers and GetDownloadUrlForLayer (awsJson1_1, signed for
service "ecr", through fake_ecs's handler), plus a blob host on another loopback port that
serves the pre-signed download URLs and counts every request that carries an
Authorization header (there must be none: a pre-signed URL is its own credential).

Scenario, beside the ECS part:
  "ecr": {
    "images": [ {"repo": "web", "digest": "sha256:...", "tags": ["1.2"],
                 "manifest": {...}            (the manifest JSON, index or image manifest)
                 "config": {...},             (the config blob: history ...)
                 "referrers_v1": ["sha256:..."]} ],
    "auto": true,    (default true: any other digest in any repository is a gzip image
                      of 3 layers whose sizes follow from the digest, with a history)
    "deny_repos": {"BatchGetImage": ["locked"]} }   (AccessDeniedException for these
                      operations on these repositories only, as a repository policy does)
Stats (GET /_fake/stats of fake_ecs): "ecr_ops" per operation, "blob_requests" and
"blob_authorization" (requests with an Authorization header), "describe_ids_max" and
"batch_ids_max" (the most imageIds one call asked for).
"""
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TARGET = "AmazonEC2ContainerRegistry_V20150921."
MANIFEST = "application/vnd.oci.image.manifest.v1+json"
LAYER_GZIP = "application/vnd.oci.image.layer.v1.tar+gzip"


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = {}


def sha(s):
    return "sha256:" + hashlib.sha256(s.encode()).hexdigest()


class Registry:
    def __init__(self, scenario, account, error_cls):
        e = scenario.get("ecr", {})
        self.account = account
        self.err = error_cls
        self.auto = e.get("auto", True)
        self.deny_repos = e.get("deny_repos", {})
        self.images = {}   # digest -> image
        self.blobs = {}    # digest -> bytes
        self.lock = threading.Lock()
        self.stats = {"blob_requests": 0, "blob_authorization": 0}
        for img in e.get("images", []):
            self.add(dict(img))
        self.blob_port = None

    def add(self, img):
        text = json.dumps(img["manifest"], separators=(",", ":"))
        img["text"] = text
        img.setdefault("digest", "sha256:" + hashlib.sha256(text.encode()).hexdigest())
        self.images[img["digest"]] = img
        if "config" in img:
            blob = json.dumps(img["config"]).encode()
            cd = img["manifest"].get("config", {}).get("digest") or sha(text + "config")
            self.blobs[cd] = blob

    def synthesize(self, repo, digest):
        h = int(hashlib.sha256(digest.encode()).hexdigest()[:8], 16)
        sizes = [30_000_000 + h % 20_000_000, 150_000_000 + h % 300_000_000, 5_000_000]
        steps = ["ADD rootfs.tar.gz / # buildkit", "RUN apt-get install -y build-essential",
                 "COPY app /app # buildkit"]
        config = {"architecture": "amd64", "os": "linux",
                  "history": [{"created_by": steps[0]},
                              {"created_by": "ENV PATH=/usr/bin", "empty_layer": True},
                              {"created_by": steps[1]}, {"created_by": steps[2]}]}
        cblob = json.dumps(config).encode()
        cd = "sha256:" + hashlib.sha256(cblob).hexdigest()
        manifest = {"schemaVersion": 2, "mediaType": MANIFEST,
                    "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                               "digest": cd, "size": len(cblob)},
                    "layers": [{"mediaType": LAYER_GZIP, "digest": sha(digest + str(i)),
                                "size": s} for i, s in enumerate(sizes)]}
        img = {"repo": repo, "digest": digest, "tags": ["latest"], "manifest": manifest,
               "config": config}
        img["text"] = json.dumps(manifest, separators=(",", ":"))
        self.blobs[cd] = cblob
        self.images[digest] = img
        return img

    def find(self, repo, digest=None, tag=None):
        with self.lock:
            if digest is not None:
                img = self.images.get(digest)
                if img is None and self.auto:
                    img = self.synthesize(repo, digest)
                return img if img is not None and img["repo"] == repo else None
            for img in self.images.values():
                if img["repo"] == repo and tag in img.get("tags", []):
                    return img
        return None

    def repo_check(self, req, op):
        repo = req.get("repositoryName")
        if not repo:
            raise self.err(400, "InvalidParameterException", "repositoryName is required")
        if repo in self.deny_repos.get(op, []):
            raise self.err(400, "AccessDeniedException",
                           "User: arn:aws:iam::%s:user/limited is not authorized to perform: "
                           "ecr:%s on resource: arn:aws:ecr:us-east-1:%s:repository/%s "
                           "because no resource-based policy allows the ecr:%s action"
                           % (self.account, op, self.account, repo, op))
        if repo.startswith("missing"):
            raise self.err(400, "RepositoryNotFoundException",
                           "The repository with name '%s' does not exist in the registry "
                           "with id '%s'" % (repo, self.account))
        return repo

    def describe_images(self, req):
        repo = self.repo_check(req, "DescribeImages")
        ids = req.get("imageIds") or [{}]
        self.stats["describe_ids_max"] = max(self.stats.get("describe_ids_max", 0), len(ids))
        details = []
        for i in ids:
            img = self.find(repo, i.get("imageDigest"), i.get("imageTag"))
            if img is None:
                # as ECR: one image missing fails the whole call
                raise self.err(400, "ImageNotFoundException",
                               "The image with imageId {%s} does not exist within the "
                               "repository with name '%s'" % (json.dumps(i), repo))
            m = img["manifest"]
            size = sum(l.get("size", 0) for l in m.get("layers", []))
            details.append({
                "registryId": self.account, "repositoryName": repo,
                "imageDigest": img["digest"], "imageTags": img.get("tags", []),
                "imageSizeInBytes": size, "imagePushedAt": 1714550000.0,
                "imageManifestMediaType": m.get("mediaType", MANIFEST)})
        return {"imageDetails": details}

    def batch_get_image(self, req):
        repo = self.repo_check(req, "BatchGetImage")
        self.stats["batch_ids_max"] = max(self.stats.get("batch_ids_max", 0),
                                          len(req.get("imageIds", [])))
        if len(req.get("imageIds", [])) > 100:
            raise self.err(400, "InvalidParameterException", "at most 100 imageIds")
        if not req.get("acceptedMediaTypes"):
            raise self.err(400, "InvalidParameterException",
                           "fake: ecsprof must send acceptedMediaTypes")
        out = {"images": [], "failures": []}
        for i in req.get("imageIds", []):
            img = self.find(repo, i.get("imageDigest"), i.get("imageTag"))
            if img is None:
                out["failures"].append({"imageId": i, "failureCode": "ImageNotFound",
                                        "failureReason": "Requested image not found"})
                continue
            out["images"].append({
                "registryId": self.account, "repositoryName": repo,
                "imageId": {"imageDigest": img["digest"]}, "imageManifest": img["text"],
                "imageManifestMediaType": img["manifest"].get("mediaType", MANIFEST)})
        return out

    def list_image_referrers(self, req):
        repo = self.repo_check(req, "ListImageReferrers")
        subject = (req.get("subjectId") or {}).get("imageDigest")
        types = (req.get("filter") or {}).get("artifactTypes") or []
        img = self.find(repo, subject)
        refs = []
        if img is not None and "application/vnd.amazon.soci.index.v1+json" in types:
            refs = [{"digest": d, "mediaType": MANIFEST, "size": 1000,
                     "artifactType": "application/vnd.amazon.soci.index.v1+json",
                     "artifactStatus": "ACTIVE"} for d in img.get("referrers_v1", [])]
        return {"referrers": refs}

    def get_download_url(self, req):
        repo = self.repo_check(req, "GetDownloadUrlForLayer")
        d = req.get("layerDigest", "")
        if d not in self.blobs:
            raise self.err(400, "LayersNotFoundException", "layer %s not found" % d)
        return {"layerDigest": d, "downloadUrl":
                "http://127.0.0.1:%d/%s/blobs/%s?X-Amz-Algorithm=AWS4-HMAC-SHA256&"
                "X-Amz-Signature=fake" % (self.blob_port, repo, d)}

    def ops(self):
        return {"DescribeImages": self.describe_images,
                "BatchGetImage": self.batch_get_image,
                "ListImageReferrers": self.list_image_referrers,
                "GetDownloadUrlForLayer": self.get_download_url}

    def start_blob_host(self):
        reg = self

        class Blob(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                with reg.lock:
                    reg.stats["blob_requests"] += 1
                    if self.headers.get("Authorization") is not None:
                        reg.stats["blob_authorization"] += 1
                d = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
                blob = reg.blobs.get(d)
                if blob is None or "X-Amz-Signature=" not in self.path:
                    self.send_response(403)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(blob)))
                self.end_headers()
                self.wfile.write(blob)

        ThreadingHTTPServer.daemon_threads = True
        srv = ThreadingHTTPServer(("127.0.0.1", 0), Blob)
        self.blob_port = srv.server_address[1]
        threading.Thread(target=srv.serve_forever, daemon=True).start()
