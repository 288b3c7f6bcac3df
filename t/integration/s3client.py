"""A small S3 client on the Python standard library alone (http.client, hmac,
hashlib): SigV4-signed, path-style requests.  The integration tests use it as
an oracle independent of storbench's own S3 code: to look at the objects a run
wrote (names, sizes, contents, x-amz-meta-* marks), to plant a user's objects
that a run must leave alone, and to check the server the suite starts
(t/s3/start-s3.sh, sbtest.S3Server).

    c = S3Client("http://127.0.0.1:8000", access_key, secret_key, "us-east-1")
    r = c.put("bucket", "dir/a", b"data", meta={"run": "42"})
    status, headers, body = c.get("bucket", "dir/a", range=(0, 3))
    r.code, r.message      # the S3 error's Code and Message ("" when none)
    r.meta                 # {"run": "42"} from the x-amz-meta-* headers
    c.list("bucket", "dir/")   # [(key, size), ...] over every continuation

Every request opens its own connection (the client is safe to share between
threads).  A failure to connect raises the OSError (ConnectionRefusedError when
nothing listens); any HTTP answer, error or not, comes back as a Response."""
import datetime
import hashlib
import hmac
import http.client
import ssl
import urllib.parse
import xml.etree.ElementTree as ET

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


def _strip_ns(tag):
    return tag.rsplit("}", 1)[-1]


def _child_text(elem, name):
    for c in elem:
        if _strip_ns(c.tag) == name:
            return c.text or ""
    return None


class Response:
    """An HTTP answer: status, headers (a dict, lower-case names, repeated
    headers joined with ", "), body (bytes).  Unpacks as (status, headers, body)."""

    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.code, self.message = "", ""
        if status >= 300 and body.lstrip().startswith(b"<"):
            try:
                root = ET.fromstring(body)
            except ET.ParseError:
                root = None
            if root is not None and _strip_ns(root.tag) == "Error":
                self.code = _child_text(root, "Code") or ""
                self.message = _child_text(root, "Message") or ""

    def __iter__(self):
        return iter((self.status, self.headers, self.body))

    @property
    def ok(self):
        return 200 <= self.status < 300

    @property
    def meta(self):
        """the x-amz-meta-* headers, without the prefix"""
        return {k[len("x-amz-meta-"):]: v for k, v in self.headers.items()
                if k.startswith("x-amz-meta-")}

    def __repr__(self):
        extra = f" {self.code}: {self.message}" if self.code else ""
        return f"<Response {self.status}{extra}>"


def _uri_encode(s, safe):
    # SigV4: every byte but the unreserved ones (A-Z a-z 0-9 - _ . ~) %XX-encoded
    return urllib.parse.quote(s, safe=safe)


class S3Client:
    def __init__(self, endpoint, access_key, secret_key, region="us-east-1",
                 timeout=60, cafile=None):
        u = urllib.parse.urlsplit(endpoint)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("endpoint must be http://host:port or https://host:port")
        self.scheme, self.netloc = u.scheme, u.netloc
        self.host, self.port = u.hostname, u.port
        self.access_key, self.secret_key, self.region = access_key, secret_key, region
        self.timeout, self.cafile = timeout, cafile

    # ------------------------------------------------------------ signing
    def _sign(self, method, path, query, headers, payload_hash, now):
        amz_date = now.strftime("%Y%m%dT%H%M%SZ")
        day = amz_date[:8]
        headers["x-amz-date"] = amz_date
        headers["x-amz-content-sha256"] = payload_hash
        headers["host"] = self.netloc
        canon_query = "&".join(
            f"{_uri_encode(k, '~')}={_uri_encode(v, '~')}" for k, v in
            sorted((str(k), str(v)) for k, v in query.items()))
        names = sorted(headers)
        canon_headers = "".join(f"{n}:{' '.join(str(headers[n]).split())}\n" for n in names)
        signed = ";".join(names)
        creq = "\n".join([method, path, canon_query, canon_headers, signed, payload_hash])
        scope = f"{day}/{self.region}/s3/aws4_request"
        sts = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(creq.encode()).hexdigest()])
        key = ("AWS4" + self.secret_key).encode()
        for part in (day, self.region, "s3", "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        sig = hmac.new(key, sts.encode(), hashlib.sha256).hexdigest()
        headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={self.access_key}/{scope}, "
                                    f"SignedHeaders={signed}, Signature={sig}")
        return canon_query

    def request(self, method, bucket="", key="", query=None, headers=None, body=b"",
                unsigned_payload=False):
        """one signed request; path-style /bucket/key.  query: dict (a value of ""
        gives "name="); headers: extra headers (signed too)."""
        query = dict(query or {})
        hdrs = {k.lower(): str(v) for k, v in (headers or {}).items()}
        path = "/"
        if bucket:
            path += _uri_encode(bucket, "")
            if key:
                path += "/" + _uri_encode(key, "/~")
        if isinstance(body, str):
            body = body.encode()
        payload = "UNSIGNED-PAYLOAD" if unsigned_payload else hashlib.sha256(body).hexdigest()
        qs = self._sign(method, path, query, hdrs, payload,
                        datetime.datetime.now(datetime.timezone.utc))
        if self.scheme == "https":
            ctx = ssl.create_default_context(cafile=self.cafile)
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=ctx)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            send = {k: v for k, v in hdrs.items() if k != "host"}
            send["Host"] = hdrs["host"]
            # a body is always sent with its Content-Length (radosgw answers a
            # chunked upload with 411); an empty PUT/POST says 0
            if body or method in ("PUT", "POST"):
                send["Content-Length"] = str(len(body))
            conn.request(method, path + ("?" + qs if qs else ""), body=body or None, headers=send)
            r = conn.getresponse()
            data = r.read()
            got = {}
            for k, v in r.getheaders():
                k = k.lower()
                got[k] = got[k] + ", " + v if k in got else v
            return Response(r.status, got, data)
        finally:
            conn.close()

    # ------------------------------------------------------------ objects
    def put(self, bucket, key, data, meta=None, headers=None):
        h = dict(headers or {})
        for k, v in (meta or {}).items():
            h["x-amz-meta-" + k] = v
        return self.request("PUT", bucket, key, headers=h, body=data)

    def get(self, bucket, key, range=None, headers=None):
        """range: (first, last) inclusive byte offsets, or a Range header value
        ("bytes=-100")"""
        h = dict(headers or {})
        if range is not None:
            h["range"] = range if isinstance(range, str) else f"bytes={range[0]}-{range[1]}"
        return self.request("GET", bucket, key, headers=h)

    def head(self, bucket, key):
        return self.request("HEAD", bucket, key)

    def delete(self, bucket, key):
        return self.request("DELETE", bucket, key)

    # ------------------------------------------------------------ buckets
    def create_bucket(self, bucket):
        return self.request("PUT", bucket)

    def delete_bucket(self, bucket):
        return self.request("DELETE", bucket)

    def list_page(self, bucket, prefix="", max_keys=None, token=None, delimiter=None):
        """one ListObjectsV2 page: (Response, [(key, size)], next continuation
        token or None); raises S3Error when the server refuses"""
        q = {"list-type": "2"}
        if prefix:
            q["prefix"] = prefix
        if max_keys is not None:
            q["max-keys"] = str(max_keys)
        if token:
            q["continuation-token"] = token
        if delimiter:
            q["delimiter"] = delimiter
        r = self.request("GET", bucket, query=q)
        if r.status != 200:
            raise S3Error(r)
        root = ET.fromstring(r.body)
        items, nxt, truncated = [], None, False
        for c in root:
            t = _strip_ns(c.tag)
            if t == "Contents":
                items.append((_child_text(c, "Key"), int(_child_text(c, "Size") or 0)))
            elif t == "NextContinuationToken":
                nxt = c.text
            elif t == "IsTruncated":
                truncated = (c.text or "").strip() == "true"
        return r, items, (nxt if truncated else None)

    def list(self, bucket, prefix="", max_keys=None):
        """every (key, size) under prefix, following continuation tokens
        (max_keys: the page size asked for); self.last_list_pages: pages read"""
        out, token, pages = [], None, 0
        while True:
            _, items, token = self.list_page(bucket, prefix, max_keys, token)
            out += items
            pages += 1
            if not token:
                break
        self.last_list_pages = pages
        return out


class S3Error(Exception):
    """a refused request where a method cannot return the Response itself"""

    def __init__(self, response):
        self.response = response
        self.status, self.code, self.message = response.status, response.code, response.message
        super().__init__(f"HTTP {response.status} {response.code}: {response.message}")
