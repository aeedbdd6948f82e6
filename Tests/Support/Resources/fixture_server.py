#!/usr/bin/env python3
"""A fixture HTTP server for ContentLoadingKit's tests. Listens on 127.0.0.1 only.

Prints "PORT <n>" once listening, then serves until its standard input closes (so it never
outlives the test process that started it). Options: --root DIR (the fixtures), --port N (0, the
default, for any free port), --contacts FILE (a JSON array of seller contacts that seeds
/contacts).

Routes:
  /fixtures/<name>   the file <root>/<name> (200, with an ETag of its content and its
                     Last-Modified; 304 with no body when If-None-Match names that ETag), or 404
  /flaky/<key>/<n>/<status>/<name>
                     the first <n> requests for <key> answer <status> (with Retry-After:
                     <s> when the query has retry_after=<s>), later ones serve /fixtures/<name>
  /count/<key>       how many requests /flaky/<key>/… got (as JSON)
  /status/<code>     that status with a short JSON body
  /slow/<ms>         waits <ms> milliseconds, then 200 with "[]"
  /truncated         announces 1000 bytes, sends 20, closes the connection
  /empty             200 with an empty body
  /requests          how many requests were served before this one (as JSON)
  /trickle/<n>/<ms>  200 announcing n bytes of "[   …]", sent one byte every <ms> milliseconds
  /silence           200 headers, then no body bytes for a minute
  /gzip-bomb/<mib>   200, Content-Encoding gzip: a small body that inflates to <mib> MiB
  /redirect?to=<url> 302 to <url> (any method; status=<code> for another redirect status,
                     delay_ms=<ms> to answer after a wait)
  /redirect-loop     302 to itself, forever
  /hostile           500 with a body that holds a newline, a forged line and escape codes
  /long-utf8/<n>     500 with a body of n "é" characters (2 bytes each)
  /short-length      200 announcing 5 bytes of a longer JSON body
  /content-length/<n> 200 announcing <n> bytes (any text), sends "[]" and closes
  /records/<name>    a JSON record store with ETags ("v<version>"): GET (304 to a matching
                     If-None-Match), PUT (creates or replaces), PATCH (merges an object), DELETE
                     (204), POST /records/<collection> (creates <collection>/<n>, 201 with the
                     record and its "id"). A write whose If-Match names another ETag, or any ETag
                     of a record that does not exist, is 412 with the current record and ETag.
                     A write with an Idempotency-Key already seen answers the first answer again
                     and changes nothing.
  /contacts          the seeded contacts (records contacts/<order>), as one JSON array in order,
                     with an ETag of the array (304 to a matching If-None-Match)
  /contacts/<order>  one contact: a record (GET, PUT with If-Match and Idempotency-Key as above)
  /idempotency-keys  how many idempotency keys were applied (as JSON)
  /idempotency-replays
                     how many writes came again with a key already applied (as JSON)
  /record-writes/<collection>
                     how many writes were applied under <collection> (as JSON)
  /flaky/<key>/<n>/<status>/echo (any write method)
                     the first <n> writes for <key> answer <status>, later ones echo
  /protected/<name>  /fixtures/<name> (GET) or /echo (any write method), only with
                     "Authorization: Bearer <the current token>"; otherwise 401. The first
                     token is "t0"
  /token (POST)      replaces the current token with a new one ("t1", "t2"…) and answers
                     {"token": "<new>"}; with after_refusals=<n> it first waits (up to 10 s)
                     until /protected/ has refused <n> requests, then delay_ms=<ms>; with
                     fail=<status> it answers that status and keeps the token
  /token-refreshes   how many tokens /token issued (as JSON)
  /catalog?limit=N[&cursor=C][&opaque=1]
                     items 1-100 in pages of N after cursor C, with the cursors of the pages
                     after and before (opaque=1: cursors of the form "at+<id>/=", as base64
                     ones), an ETag, 304 to a matching If-None-Match
  /cookie/set?value=V
                     200 with "Set-Cookie: session=V; Path=/cookie"
  /cookie/echo       what /echo answers
  /fresh/<name>      /fixtures/<name> (200 or 304) with the freshness headers the query asks
                     for: cc=<Cache-Control value>, expires_in=<seconds after its Date>,
                     expires=<an Expires value as given>, age=<an Age value as given>
"""
import email.utils
import hashlib
import json
import urllib.parse
import argparse
import http.server
import os
import socket
import struct
import sys
import threading
import time
import zlib

served = 0
flaky = {}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # NB: the head and the body are separate writes; with Nagle's algorithm the body waits for
    # the client's delayed ACK (about 40 ms) on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def echo(self):
        """Answers with what was asked: the method, the headers (names lowercased) and the body."""
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        answer = {
            "method": self.command,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
        }
        return self.send_body(200, json.dumps(answer).encode())

    def redirect(self):
        """/redirect?to=<url>[&status=<code>][&delay_ms=<ms>]: that status (302 by default) to
        <url>, after <ms> milliseconds."""
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        time.sleep(int(query.get("delay_ms", ["0"])[0]) / 1000)
        self.send_response(int(query.get("status", ["302"])[0]))
        self.send_header("Location", query["to"][0])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_write(self):
        """POST, PUT, PATCH and DELETE: /echo answers what was sent, /status/204 has no content,
        /records/… writes the record store, /flaky/… fails the first writes."""
        route = self.path.split("?")[0].strip("/")
        if route == "echo":
            return self.echo()
        if route == "token":
            return self.issue_token()
        if route.startswith("protected/"):
            return self.echo() if self.authorized() else self.refuse()
        if route.startswith("records/"):
            return self.write_record(route[len("records/"):])
        if route.startswith("contacts/"):
            return self.write_record(route)
        if route == "redirect":
            self.read_body()
            return self.redirect()
        if route.startswith("flaky/") and route.endswith("/echo"):
            key, failures, status, _ = route[len("flaky/"):].split("/", 3)
            with lock:
                flaky[key] = flaky.get(key, 0) + 1
                attempt = flaky[key]
            if attempt > int(failures):
                return self.echo()
            self.read_body()
            return self.send_body(int(status), ('{"error": "status %s"}' % status).encode())
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if route == "status/204":
            self.send_response(204)
            self.end_headers()
            return
        return self.send_body(405, b'{"error": "method not allowed"}')

    do_POST = do_PUT = do_PATCH = do_DELETE = do_write

    def authorized(self):
        with lock:
            return self.headers.get("Authorization") == "Bearer " + token["current"]

    def refuse(self):
        self.read_body()
        with refusals:
            token["refused"] += 1
            refusals.notify_all()
        self.send_response(401)
        self.send_header("WWW-Authenticate", "Bearer")
        self.send_header("Content-Type", "application/json")
        body = b'{"error": "token missing, unknown or expired"}'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def issue_token(self):
        self.read_body()
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        if "after_refusals" in query:
            wanted = int(query["after_refusals"][0])
            with refusals:
                refusals.wait_for(lambda: token["refused"] >= wanted, timeout=10)
        if "delay_ms" in query:
            time.sleep(int(query["delay_ms"][0]) / 1000.0)
        if "fail" in query:
            status = int(query["fail"][0])
            return self.send_body(status, ('{"error": "status %d"}' % status).encode())
        with lock:
            token["issued"] += 1
            token["current"] = "t%d" % token["issued"]
            body = json.dumps({"token": token["current"]}).encode()
        return self.send_body(200, body)

    def read_body(self):
        """The request's body; None when the client went away before sending all of it (killed
        mid-request): then nothing may be applied, as a real server would not."""
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            self.close_connection = True
            return None
        return body

    def send_record(self, status, name, extra=None):
        """Answers with record <name> (its JSON and ETag), or with no body when it is gone."""
        headers = dict(extra or {})
        record = records.get(name)
        body = b""
        if record is not None:
            headers["ETag"] = '"v%d"' % record[0]
            body = record[1]
        self.send_response(status)
        for header, value in headers.items():
            self.send_header(header, value)
        if body or status != 204:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return status, headers, body

    def write_record(self, name):
        body = self.read_body()
        if body is None:
            return
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key is not None and key in answered:
                replays["count"] += 1
                status, headers, answer = answered[key]
                self.send_response(status)
                for header, value in headers.items():
                    self.send_header(header, value)
                self.send_header("Idempotent-Replay", "true")
                if answer or status != 204:
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                return
            answer = self.apply_write(name, body)
            if key is not None:
                answered[key] = answer

    def apply_write(self, name, body):
        """Applies one write to the record store (under the lock) and answers it."""
        collection = name.split("/")[0]
        if self.command == "POST":
            counters[collection] = counters.get(collection, 0) + 1
            name = "%s/%d" % (name.strip("/"), counters[collection])
            record = json.loads(body or b"{}")
            record["id"] = counters[collection]
            records[name] = (1, json.dumps(record).encode())
            writes[collection] = writes.get(collection, 0) + 1
            return self.send_record(201, name, {"Location": "/records/" + name})
        current = records.get(name)
        expected = self.headers.get("If-Match")
        if expected is not None:
            tags = [tag.strip() for tag in expected.split(",")]
            if current is None or ('"v%d"' % current[0] not in tags and "*" not in tags):
                return self.send_record(412, name)
        if self.command == "DELETE":
            if current is None:
                return self.send_body(404, b'{"error": "no such record"}')
            del records[name]
            writes[collection] = writes.get(collection, 0) + 1
            return self.send_record(204, name)
        if self.command == "PATCH":
            if current is None:
                return self.send_body(404, b'{"error": "no such record"}')
            merged = json.loads(current[1])
            merged.update(json.loads(body or b"{}"))
            body = json.dumps(merged).encode()
        version = current[0] + 1 if current else 1
        records[name] = (version, body)
        writes[collection] = writes.get(collection, 0) + 1
        return self.send_record(200 if current else 201, name)

    def read_record(self, name):
        with lock:
            record = records.get(name)
        if record is None:
            return self.send_body(404, b'{"error": "no such record"}')
        etag = '"v%d"' % record[0]
        if etag in [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(record[1])))
        self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.write(record[1])

    def send_contacts(self):
        """The records contacts/<order> as one JSON array, by order, with an ETag of the array."""
        with lock:
            named = [(int(name.split("/")[1]), record[1]) for name, record in records.items()
                     if name.startswith("contacts/") and name.split("/")[1].isdigit()]
        return self.send_tagged(json.dumps([json.loads(record) for _, record in sorted(named)]).encode())

    def send_tagged(self, body):
        """200 with JSON `body` and an ETag of it, or 304 to a matching If-None-Match."""
        tag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        if tag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]:
            self.send_response(304)
            self.send_header("ETag", tag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", tag)
        self.end_headers()
        self.wfile.write(body)

    def freshness_headers(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        headers = {}
        if "cc" in query:
            headers["Cache-Control"] = query["cc"][0]
        if "expires_in" in query:
            # NB: send_response sends the Date header, from the same clock (within a second).
            headers["Expires"] = email.utils.formatdate(time.time() + int(query["expires_in"][0]), usegmt=True)
        if "expires" in query:
            headers["Expires"] = query["expires"][0]
        if "age" in query:
            headers["Age"] = query["age"][0]
        return headers

    def send_catalog_page(self):
        """/catalog?limit=N[&cursor=C]: items 1-100 ({"id", "title": "Item i"}), N a page after
        the item whose id is C, as {"items", "next", "previous"} (the cursors of the pages after
        and before), an ETag, and 304 to a matching If-None-Match. With opaque=1 the cursors
        are "at+<id>/=" (as base64 cursors hold "+", "/" and "="), and another cursor is a 400."""
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        limit = int(query.get("limit", ["10"])[0])
        opaque = "opaque" in query
        cursor = query.get("cursor", ["at+0/=" if opaque else "0"])[0]
        if opaque:
            if not (cursor.startswith("at+") and cursor.endswith("/=")):
                return self.send_body(400, json.dumps({"error": "unknown cursor %r" % cursor}).encode())
            cursor = cursor[len("at+"):-len("/=")]
        start = int(cursor)
        ids = list(range(start + 1, min(start + limit, 100) + 1))
        def cursor_of(position):
            return ("at+%d/=" % position) if opaque else str(position)
        body = json.dumps({
            "items": [{"id": i, "title": "Item %d" % i} for i in ids],
            "next": cursor_of(ids[-1]) if ids and ids[-1] < 100 else None,
            "previous": cursor_of(max(0, ids[0] - 1 - limit)) if ids and ids[0] > 1 else None,
        }).encode()
        return self.send_tagged(body)

    def send_fixture(self, name, extra=None):
        path = os.path.realpath(os.path.join(self.server.root, name))
        if not path.startswith(os.path.realpath(self.server.root)) or not os.path.isfile(path):
            return self.send_body(404, b'{"error": "no such fixture"}')
        etag, modified = validators(path)
        matches = [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]
        extra = extra or {}
        if etag in matches or "*" in matches:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
            for header, value in extra.items():
                self.send_header(header, value)
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        for header, value in extra.items():
            self.send_header(header, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        global served
        with lock:
            count = served
            served += 1
        parts = self.path.split("?")[0].strip("/").split("/")
        route, rest = parts[0], "/".join(parts[1:])
        try:
            if route == "fixtures":
                return self.send_fixture(rest)
            if route == "catalog":
                return self.send_catalog_page()
            if route == "cookie" and rest == "echo":
                return self.echo()
            if route == "cookie" and rest == "set":
                query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
                body = b"{}"
                self.send_response(200)
                self.send_header("Set-Cookie", "session=%s; Path=/cookie" % query["value"][0])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if route == "echo":
                return self.echo()
            if route == "records":
                return self.read_record(rest)
            if route == "contacts":
                return self.read_record("contacts/" + rest) if rest else self.send_contacts()
            if route == "idempotency-keys":
                with lock:
                    return self.send_body(200, str(len(answered)).encode())
            if route == "idempotency-replays":
                with lock:
                    return self.send_body(200, str(replays["count"]).encode())
            if route == "fresh":
                return self.send_fixture(rest, self.freshness_headers())
            if route == "protected":
                return self.send_fixture(rest) if self.authorized() else self.refuse()
            if route == "token-refreshes":
                with lock:
                    return self.send_body(200, str(token["issued"]).encode())
            if route == "record-writes":
                with lock:
                    return self.send_body(200, str(writes.get(rest, 0)).encode())
            if route == "flaky":
                key, failures, status, name = rest.split("/", 3)
                with lock:
                    flaky[key] = flaky.get(key, 0) + 1
                    attempt = flaky[key]
                if attempt > int(failures):
                    return self.send_fixture(name)
                query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
                body = ('{"error": "status %s"}' % status).encode()
                self.send_response(int(status))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if "retry_after" in query:
                    self.send_header("Retry-After", query["retry_after"][0])
                self.end_headers()
                self.wfile.write(body)
                return
            if route == "count":
                with lock:
                    return self.send_body(200, str(flaky.get(rest, 0)).encode())
            if route == "status" and rest == "204":
                self.send_response(204)
                self.end_headers()
                return
            if route == "status":
                code = int(rest)
                return self.send_body(code, ('{"error": "status %d"}' % code).encode())
            if route == "slow":
                time.sleep(int(rest) / 1000.0)
                return self.send_body(200, b"[]")
            if route == "truncated":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b'[{"order": 1, "phone"')
                self.wfile.flush()
                self.close_connection = True
                return
            if route == "trickle":
                count, interval = (int(x) for x in rest.split("/"))
                body = b"[" + b" " * (count - 2) + b"]"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(count))
                self.end_headers()
                for i in range(count):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(interval / 1000.0)
                return
            if route == "silence":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.flush()
                time.sleep(60)
                return
            if route == "gzip-bomb":
                body = gzip_bomb(int(rest))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if route == "redirect":
                return self.redirect()
            if route == "redirect-loop":
                self.send_response(302)
                self.send_header("Location", "/redirect-loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if route == "hostile":
                return self.send_body(500, b"oops\nseller-contacts: forged line\x1b[31m red \x1b]0;title\x07", "text/plain")
            if route == "short-length":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "5")
                self.end_headers()
                self.wfile.write(b'[{"order": 1}]')
                self.close_connection = True
                return
            if route == "content-length":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", rest)
                self.end_headers()
                self.wfile.write(b"[]")
                self.close_connection = True
                return
            if route == "long-utf8":
                return self.send_body(500, "é".encode() * int(rest), "text/plain; charset=utf-8")
            if route == "empty":
                return self.send_body(200, b"")
            if route == "requests":
                return self.send_body(200, str(count).encode())
            return self.send_body(404, b'{"error": "no such route"}')
        except (BrokenPipeError, ConnectionResetError):
            pass


bombs = {}
tags = {}
records = {}   # name -> (version, JSON body)
counters = {}  # collection -> the last id POST gave
writes = {}    # collection -> writes applied
token = {"current": "t0", "issued": 0, "refused": 0}
refusals = threading.Condition(lock)
answered = {}  # Idempotency-Key -> (status, headers, body) of its first answer
replays = {"count": 0}  # writes that came again with a key in answered


def validators(path):
    """The ETag (a hash of the content) and Last-Modified of a file, kept while the file's
    size and modification time stay the same, as a real server keeps them."""
    stat = os.stat(path)
    key = (path, stat.st_size, stat.st_mtime_ns)
    with lock:
        if key not in tags:
            with open(path, "rb") as f:
                digest = hashlib.sha1(f.read()).hexdigest()[:16]
            tags[key] = ('"%s"' % digest, email.utils.formatdate(stat.st_mtime, usegmt=True))
        return tags[key]


def gzip_bomb(mib):
    """A gzip body of <mib> MiB of spaces (about 1 KiB on the wire per MiB), made once.

    One MiB is compressed once, ending in a full flush (a block that refers to nothing before
    it), and that block is repeated: a bomb of gigabytes takes a second (the CRC), not the
    minute compressing it whole would.
    """
    with lock:
        if mib not in bombs:
            chunk = b" " * (1 << 20)
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            block = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
            crc = 0
            for _ in range(mib):
                crc = zlib.crc32(chunk, crc)
            header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # gzip, deflate, no name, no time
            final = b"\x03\x00"  # an empty last block
            bombs[mib] = header + block * mib + final + struct.pack("<II", crc, (mib << 20) & 0xFFFFFFFF)
        return bombs[mib]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--contacts")
    args = parser.parse_args()
    if args.contacts:
        with open(args.contacts, "rb") as f:
            for contact in json.load(f):
                records["contacts/%d" % contact["order"]] = (1, json.dumps(contact).encode())
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    # NB: Python's listen backlog is 5; a client opening more connections at once than that
    # (the kit's shared session has room for 32 to a host) met a full queue: SYNs dropped and
    # sent again a second later, and connections reset. A production server listens with
    # the system's limit.
    http.server.ThreadingHTTPServer.request_queue_size = socket.SOMAXCONN
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.root = args.root
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the test process closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
