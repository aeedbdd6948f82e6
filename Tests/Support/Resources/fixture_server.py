#!/usr/bin/env python3
"""A fixture HTTP server for ContentLoadingKit's tests. Listens on 127.0.0.1 only.

Prints "PORT <n>" once listening, then serves until its standard input closes (so it never
outlives the test process that started it).

Routes:
  /fixtures/<name>   the file <root>/<name> (200), or 404
  /status/<code>     that status with a short JSON body
  /slow/<ms>         waits <ms> milliseconds, then 200 with "[]"
  /truncated         announces 1000 bytes, sends 20, closes the connection
  /empty             200 with an empty body
  /requests          how many requests were served before this one (as JSON)
"""
import argparse
import http.server
import os
import sys
import threading
import time

served = 0
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
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
                path = os.path.realpath(os.path.join(self.server.root, rest))
                if not path.startswith(os.path.realpath(self.server.root)) or not os.path.isfile(path):
                    return self.send_body(404, b'{"error": "no such fixture"}')
                with open(path, "rb") as f:
                    return self.send_body(200, f.read())
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
            if route == "empty":
                return self.send_body(200, b"")
            if route == "requests":
                return self.send_body(200, str(count).encode())
            return self.send_body(404, b'{"error": "no such route"}')
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = args.root
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the test process closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
