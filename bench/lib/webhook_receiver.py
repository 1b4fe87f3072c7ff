#!/usr/bin/env python3
"""Webhook receiver for the benchmark, on 127.0.0.1 only.

Answers every POST with 200 at once and records, per delivery: the arrival time, the latency
(arrival minus the "timestamp" of the change in the NetBox webhook body, i.e. change committed ->
delivery received), the request path, the object's "description" (the benchmark's tag of the
change), the object's id and the delivery's X-Hook-Delivery id (null before the dispatcher sent
one). GET /stats gives {"count": n}; GET /records?from=i gives the records from index i as
[[arrival_epoch_s, latency_ms, path, description, object_id, delivery_id], ...].
"""

import argparse
import json
import sys
import threading
import time
import urllib.parse
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

records = []
records_lock = threading.Lock()


def change_latency_ms(body, arrival):
    """Milliseconds from the change's timestamp (e.g. '2025-01-31 12:00:00.123456+00:00') to arrival."""
    stamp = body.get("timestamp")
    if not stamp:
        return None
    return (arrival - datetime.fromisoformat(stamp).timestamp()) * 1000


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the dispatcher's client pools connections

    def do_POST(self):
        arrival = time.time()
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        try:
            body = json.loads(raw)
            data = body.get("data") or {}
            record = [arrival, change_latency_ms(body, arrival), self.path, data.get("description"), data.get("id"),
                      self.headers.get("X-Hook-Delivery")]
        except (ValueError, AttributeError):
            record = [arrival, None, self.path, None, None, self.headers.get("X-Hook-Delivery")]
        with records_lock:
            records.append(record)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/stats":
            answer = {"count": len(records)}
        elif url.path == "/records":
            start = int(urllib.parse.parse_qs(url.query).get("from", ["0"])[0])
            with records_lock:
                answer = records[start:]
        else:
            self.send_error(404)
            return
        payload = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass  # one line per delivery would cost more than the delivery


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"webhook receiver on http://127.0.0.1:{args.port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
