"""A small JSON client for the records API over one keep-alive connection (standard library only)."""

import http.client
import json
import urllib.parse


class ApiError(Exception):
    """A non-2xx answer: the method, path, status and the start of the body."""

    def __init__(self, method, path, status, body):
        super().__init__(f"{method} {path} -> {status}: {body[:500]}")
        self.status = status


class ApiClient:
    """One HTTP/1.1 connection to base_url with the API token; not thread-safe (one per thread)."""

    def __init__(self, base_url, token, timeout=300):
        parts = urllib.parse.urlsplit(base_url)
        self.host = parts.hostname
        self.port = parts.port or 80
        self.token = token
        self.timeout = timeout
        self.connection = None
        self.last_headers = None  # headers of the last response (an http.client.HTTPMessage)

    def _connect(self):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self.connection

    def request(self, method, path, payload=None, expect=(200, 201, 204)):
        """Sends one request and returns (status, decoded JSON or None). Raises ApiError otherwise."""
        body = None if payload is None else json.dumps(payload).encode()
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            connection = self._connect()
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                raw = response.read()
                self.last_headers = response.headers
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed while idle: reconnect once.
                self.close()
                if attempt == 2:
                    raise
        if response.status not in expect:
            raise ApiError(method, path, response.status, raw.decode(errors="replace"))
        return response.status, (json.loads(raw) if raw else None)

    def get(self, path, expect=(200,)):
        return self.request("GET", path, expect=expect)[1]

    def post(self, path, payload):
        return self.request("POST", path, payload)[1]

    def patch(self, path, payload):
        return self.request("PATCH", path, payload)[1]

    def status_of(self, path):
        """HTTP status of a GET, whatever it is (e.g. 404 for an endpoint that does not exist)."""
        return self.request("GET", path, expect=range(100, 600))[0]

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None
