#!/usr/bin/env python3
"""LabelDesk client for Python 3, version __LABELDESK_VERSION__.

Talks to a LabelDesk detection service. Single file, no dependencies (standard library only).

As a library:
    from labeldesk import LabelDeskClient
    ld = LabelDeskClient("http://127.0.0.1:8787", "ldk_...")
    result = ld.infer_image("objects", "photo.jpg")
    job = ld.wait_for_job(ld.infer_video("objects", "clip.mp4")["jobId"])

As a command (BASE_URL and API_KEY from the environment; JSON on stdout, errors on stderr):
    python3 labeldesk.py catalog | health | key | sdk-key | session DEVICE_ID
    python3 labeldesk.py image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
"""

import json
import os
import sys
import time
import uuid
import urllib.error
import urllib.parse
import urllib.request
from email.utils import parsedate_to_datetime

VERSION = "__LABELDESK_VERSION__"

TERMINAL = ("succeeded", "failed", "cancelled")
DEFAULT_POLL_MS = 1000
# Our own table rather than mimetypes: the system's tables differ between machines.
TYPES = {
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp",
    "gif": "image/gif", "tiff": "image/tiff", "bmp": "image/bmp", "avif": "image/avif",
    "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    "avi": "video/x-msvideo", "mkv": "video/x-matroska",
}


def content_type_for(name):
    """Content type of an upload, from its file name's extension."""
    ext = os.path.splitext(name or "")[1].lstrip(".").lower()
    return TYPES.get(ext, "application/octet-stream")


class LabelDeskError(Exception):
    """A non-2xx answer: status, code and message from {"error": {code, message}}."""

    def __init__(self, status, code, message, retry_after=None):
        super().__init__("%s %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after  # seconds, from Retry-After (sent with 429)


class LabelDeskClient:
    def __init__(self, base_url, api_key=None, timeout=300):
        if not base_url:
            raise ValueError("base_url is required")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def catalog(self):
        return self._call("GET", "/catalog", auth=False)

    def health(self):
        return self._call("GET", "/healthz", auth=False)

    def sdk(self, lang):
        """The source of the client for lang (curl, python, node, ts, browser), as text."""
        return self._call("GET", "/sdk/" + urllib.parse.quote(lang, safe=""), auth=False, text=True)

    def session(self, device_id, turnstile_token=None):
        body = {"deviceId": device_id}
        if turnstile_token:
            body["turnstileToken"] = turnstile_token
        return self._call("POST", "/session", auth=False, json_body=body)

    def key(self):
        return self._call("GET", "/key")

    def sdk_key(self):
        """Exchanges the browser session token this client holds for a trial SDK key."""
        return self._call("POST", "/sdk-key", json_body={})

    def infer_image(self, solution, file, filename=None):
        """file: a path, or bytes (pass filename so the type can be told)."""
        return self._upload("/infer/image", solution, file, filename)

    def infer_video(self, solution, file, filename=None):
        return self._upload("/infer/video", solution, file, filename)

    def job(self, job_id):
        return self._call("GET", "/jobs/" + urllib.parse.quote(job_id, safe=""))

    def cancel(self, job_id):
        return self._call("DELETE", "/jobs/" + urllib.parse.quote(job_id, safe=""))

    def wait_for_job(self, job_id, on_progress=None):
        """Polls until succeeded, failed or cancelled, waiting pollIntervalMs each time."""
        while True:
            job = self.job(job_id)
            if on_progress:
                on_progress(job)
            if job.get("status") in TERMINAL:
                return job
            time.sleep(poll_delay(job))

    def _upload(self, path, solution, file, filename):
        if isinstance(file, (bytes, bytearray, memoryview)):
            data, name = bytes(file), filename or "upload"
        else:
            with open(file, "rb") as f:
                data = f.read()
            name = filename or os.path.basename(file)
        boundary = "labeldesk-" + uuid.uuid4().hex
        safe_name = name.replace('"', "%22").replace("\r", "").replace("\n", "")
        # The server validates the solution before reading the upload, so `solution` goes first.
        head = (
            "--%s\r\nContent-Disposition: form-data; name=\"solution\"\r\n\r\n%s\r\n"
            "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
            "Content-Type: %s\r\n\r\n"
            % (boundary, solution, boundary, safe_name, content_type_for(name))
        ).encode("utf-8")
        body = head + data + ("\r\n--%s--\r\n" % boundary).encode("ascii")
        ctype = "multipart/form-data; boundary=" + boundary
        return self._call("POST", path, body=body, content_type=ctype)

    def _call(self, method, path, auth=True, json_body=None, body=None,
              content_type=None, text=False):
        headers = {"User-Agent": "labeldesk-python/" + VERSION, "Accept": "application/json"}
        if auth and self.api_key:
            headers["Authorization"] = "Bearer " + self.api_key
        if json_body is not None:
            body, content_type = json.dumps(json_body).encode("utf-8"), "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        url = self.base_url + path
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                raw = res.read().decode("utf-8")
        except urllib.error.HTTPError as err:
            raise error_from(err) from None
        return raw if text else json.loads(raw)


def error_from(err):
    raw = err.read().decode("utf-8", "replace")
    try:
        error = json.loads(raw)["error"]
        code, message = error["code"], error["message"]
    except (ValueError, KeyError, TypeError):
        # Not our JSON (a proxy page, say): fall back to the status line.
        code, message = "http_error", raw[:200] or str(err.reason)
    retry_after, header = None, err.headers.get("Retry-After")
    if header is not None:
        try:
            retry_after = float(header)
        except ValueError:
            try:
                retry_after = max(0.0, parsedate_to_datetime(header).timestamp() - time.time())
            except (TypeError, ValueError):
                pass
    return LabelDeskError(err.code, code, message, retry_after)


def poll_delay(job):
    ms = job.get("pollIntervalMs")
    if isinstance(ms, (int, float)) and not isinstance(ms, bool) and ms >= 0:
        return ms / 1000.0
    return DEFAULT_POLL_MS / 1000.0


USAGE = """usage: labeldesk.py <command> [args]   (env: BASE_URL, API_KEY, TURNSTILE_TOKEN)
  catalog | health | key | sdk-key | session DEVICE_ID
  image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID"""

ARITY = {"session": 1, "image": 2, "video": 2, "job": 1, "cancel": 1}
COMMANDS = ("catalog", "health", "key", "sdk-key") + tuple(ARITY)


def usage(problem=None):
    if problem:
        print("labeldesk: " + problem, file=sys.stderr)
    print(USAGE, file=sys.stderr)
    return 2


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        return usage("unknown command: " + argv[0] if argv else None)
    cmd, args = argv[0], argv[1:]
    if len(args) < ARITY.get(cmd, 0) or not all(args[: ARITY.get(cmd, 0)]):
        return usage()
    if not os.environ.get("BASE_URL"):
        return usage("BASE_URL is not set")
    ld = LabelDeskClient(os.environ["BASE_URL"], os.environ.get("API_KEY"))
    status = 0
    try:
        if cmd == "catalog":
            out = ld.catalog()
        elif cmd == "health":
            out = ld.health()
        elif cmd == "key":
            out = ld.key()
        elif cmd == "sdk-key":
            out = ld.sdk_key()
        elif cmd == "session":
            out = ld.session(args[0], os.environ.get("TURNSTILE_TOKEN"))
        elif cmd == "image":
            out = ld.infer_image(args[1], args[0])
        elif cmd == "video":
            submitted = ld.infer_video(args[1], args[0])
            time.sleep(poll_delay(submitted))
            out = ld.wait_for_job(submitted["jobId"])
            if out.get("status") != "succeeded":
                print("labeldesk: job %s ended %s" % (out.get("jobId"), out.get("status")),
                      file=sys.stderr)
                status = 1
        elif cmd == "job":
            out = ld.job(args[0])
        else:
            out = ld.cancel(args[0])
    except LabelDeskError as err:
        print("labeldesk: %s" % err, file=sys.stderr)
        return 1
    except (OSError, ValueError) as err:  # URLError is an OSError: connection refused, bad file…
        print("labeldesk: %s" % err, file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
