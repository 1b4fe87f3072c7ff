#!/usr/bin/env python3
"""Do failed sign-ins starve other requests? Latency of an unrelated read (one client, back to
back) first alone, then while FLOODERS clients send wrong passwords to /login/ (JSON) as fast as
they are answered, against a running records-api. Prints the read's median, p99 and max in each
phase and how the sign-ins were answered (403 checked, 429 throttled or refused by the hashing
pool). Bounded: each phase lasts --seconds and every request has a 30 s timeout.

  python3 sign_in_flood.py --api http://127.0.0.1:18300 --token <superuser token> \
      [--flooders 16] [--seconds 15] [--usernames one|many] [--json FILE]
"""
import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request


def request(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        e.read()
        return e.code


def reads(api, token, seconds):
    """Latencies (ms) of back-to-back GET /api/dcim/sites/?limit=1 for `seconds`."""
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        status = request("GET", api + "/api/dcim/sites/?limit=1", headers={"Authorization": "Token " + token})
        out.append((time.monotonic() - t0) * 1000)
        if status != 200:
            raise SystemExit("the read answered %d" % status)
    return out


def summary(ms):
    ms = sorted(ms)
    return {
        "reads": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
        "max_ms": round(ms[-1], 1),
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--api", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--flooders", type=int, default=16)
    p.add_argument("--seconds", type=float, default=15)
    p.add_argument("--usernames", choices=["one", "many"], default="one",
                   help="one: every flooder signs in as the same existing user; many: each as its own")
    p.add_argument("--json")
    a = p.parse_args()

    stamp = str(int(time.time()))
    victim = "flood-" + stamp
    status = request("POST", a.api + "/api/users/users/", {"username": victim, "password": "Flood-Victim-" + stamp},
                     {"Authorization": "Token " + a.token})
    if status != 201:
        raise SystemExit("could not create the user: %d" % status)
    reads(a.api, a.token, 3)  # warm-up, unmeasured
    idle = summary(reads(a.api, a.token, a.seconds))

    statuses = {}
    lock = threading.Lock()
    stop = time.monotonic() + a.seconds + 1

    def flood(i):
        name = victim if a.usernames == "one" else "%s-%d" % (victim, i)
        while time.monotonic() < stop:
            s = request("POST", a.api + "/login/", {"username": name, "password": "Wrong-Password-1"})
            with lock:
                statuses[s] = statuses.get(s, 0) + 1
            if s == 429:
                time.sleep(0.05)  # a throttled client that retries at once, nearly

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(a.flooders)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    loaded = summary(reads(a.api, a.token, a.seconds))
    for t in threads:
        t.join(timeout=35)

    result = {"flooders": a.flooders, "usernames": a.usernames, "seconds": a.seconds,
              "read_alone": idle, "read_during_flood": loaded,
              "sign_in_statuses": {str(k): v for k, v in sorted(statuses.items())}}
    print("read alone:        median %(median_ms)7.1f ms  p99 %(p99_ms)7.1f ms  max %(max_ms)7.1f ms  (%(reads)d reads)" % idle)
    print("read during flood: median %(median_ms)7.1f ms  p99 %(p99_ms)7.1f ms  max %(max_ms)7.1f ms  (%(reads)d reads)" % loaded)
    print("sign-ins (%d clients, %s username%s): %s" % (a.flooders, a.usernames, "" if a.usernames == "one" else "s",
          ", ".join("%s x %d" % (k, v) for k, v in sorted(statuses.items()))))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
