"""What bulkcpu.py and bulktotal.py share: the service slot (svc.sh's b or c), its database's
outbox backlog, and a POST of 1,000 new interfaces on its seeded devices."""
import json, subprocess, time, urllib.request

TOKEN = "0123456789abcdef0123456789abcdef01234567"


class Slot:
    def __init__(self, svc):
        self.svc = svc
        self.port = {"b": 18082, "c": 18084}[svc]
        self.pid = int(open(f"/tmp/perf/{svc}.pid").read())
        self.devices = [int(l) for l in open(f"/tmp/perf/{svc}.ids") if l.strip()][:20]
        # the pending list since V166; before it, unpublished rows of the change log
        self.backlog_sql = ("select count(*) from core_objectchange_pending"
                            if self.psql("select to_regclass('core_objectchange_pending')")
                            else "select count(*) from core_objectchange where published_at is null and parked_at is null")

    def psql(self, sql):
        return subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", sql, f"sot_bench_{self.svc}"],
                              capture_output=True, text=True).stdout.strip()

    def drain(self, poll=0.1):
        while self.psql(self.backlog_sql) != "0":
            time.sleep(poll)

    def post_interfaces(self, tag):
        items = [{"device": self.devices[k % 20], "name": f"{tag}{time.time()}-{k}", "type": "1000base-t"} for k in range(1000)]
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/dcim/interfaces/", method="POST",
                                     data=json.dumps(items).encode(),
                                     headers={"Authorization": f"Token {TOKEN}", "Content-Type": "application/json",
                                              "Accept": "application/json"})
        urllib.request.urlopen(req, timeout=120).read()
