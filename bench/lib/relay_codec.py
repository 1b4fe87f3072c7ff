#!/usr/bin/env python3
"""The outbox relay's Kafka compression codecs compared on the JVM: change events per second
through the relay, bytes the topic holds, and how fast a Kafka consumer (the dispatcher's client)
reads them back.

Seeds a backlog of change events once (sites created, then updated: create events carry one
snapshot, updates two), with the relay off. Then, per run, it puts every change-log row back on the
outbox's pending list, starts the packaged records-api with KAFKA_COMPRESSION_TYPE=<codec> and a
topic of its own, and times the relay from its first published row to its last. Codecs take turns
(the order rotates from one round to the next, so a change in the machine's load falls on all of
them); each codec's figure is the median of its rounds. Bytes on the topic: the size of its log
(Kafka's log dirs, record batches as stored). Consumer: kafka-consumer-perf-test reading the whole
topic once.

Everything runs on 127.0.0.1; PostgreSQL and Kafka must already run (deploy/local/stack infra).
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from api_client import ApiClient  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# the packaged service; RECORDS_API_APP names another quarkus-app directory (e.g. a copy kept while rebuilding)
JAR = os.path.join(os.environ.get("RECORDS_API_APP", os.path.join(REPO, "records-api", "target", "quarkus-app")),
                   "quarkus-run.jar")


def psql(db, sql):
    done = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-h", "127.0.0.1", "-U", "sot", "-d", db, "-c", sql],
                          capture_output=True, text=True, env={**os.environ, "PGPASSWORD": "sot"})
    if done.returncode != 0:
        raise SystemExit(f"psql failed: {done.stderr.strip()}")
    return done.stdout.strip()


def kafka_tool(args, kafka_libs, bootstrap, *tool_args):
    command = ["java", "-Xmx256m", "-cp", os.path.join(kafka_libs, "*"), *tool_args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tool_args[0]} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout


def start_api(args, codec, topic, outbox_enabled, log):
    env = {**os.environ,
           "DB_HOST": "127.0.0.1", "DB_NAME": args.db, "DB_USER": "sot", "DB_PASSWORD": "sot",
           "KAFKA_BOOTSTRAP_SERVERS": args.bootstrap, "CHANGES_TOPIC": topic,
           "SOT_OUTBOX_ENABLED": "true" if outbox_enabled else "false",
           "HTTP_HOST": "127.0.0.1", "HTTP_PORT": str(args.port), "MANAGEMENT_HOST": "127.0.0.1",
           "MANAGEMENT_PORT": str(args.port + 2), "SUPERUSER_PASSWORD": "bench-password",
           "SUPERUSER_API_TOKEN": args.token, "DATA_SOURCE_SYNC_CHECK": "off", "MALLOC_ARENA_MAX": "2",
           "DISPATCHER_URL": "http://127.0.0.1:1"}
    if codec is not None:
        env["KAFKA_COMPRESSION_TYPE"] = codec
    process = subprocess.Popen(["java", "-Xmx160m", "-XX:+UseSerialGC", "-jar", JAR],
                               stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"records-api exited ({process.returncode}); see {log.name}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{args.port + 2}/q/health/ready", timeout=2) as r:
                if r.status == 200:
                    return process
        except OSError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("records-api did not become ready in 180 s")


def stop(process):
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def seed(args, log):
    """Creates and then updates args.sites sites with the relay off; returns the change count."""
    process = start_api(args, None, "bench-codec-seed", False, log)
    try:
        api = ApiClient(f"http://127.0.0.1:{args.port}", args.token)
        run = str(int(time.time()))
        for start in range(0, args.sites, 500):
            batch = [{"name": f"codec site {run}-{i}", "slug": f"codec-{run}-{i}", "status": "active",
                      "facility": f"Facility {i % 97}", "time_zone": "Europe/Zurich",
                      "physical_address": f"{i} Example Street\n8000 Zurich\nSwitzerland",
                      "description": f"Benchmark site {i} of the relay codec comparison",
                      "comments": "Rack rows A-F, cage 12. Access through the loading dock; badge required.\n" * 3}
                     for i in range(start, min(args.sites, start + 500))]
            _, created = api.request("POST", "/api/dcim/sites/", batch)
            updates = [{"id": site["id"], "description": site["description"] + " (updated)",
                        "status": "planned"} for site in created]
            api.request("PATCH", "/api/dcim/sites/", updates)
        api.close()
    finally:
        stop(process)
    return int(psql(args.db, "select count(*) from core_objectchange"))


def topic_bytes(args, topic):
    out = kafka_tool(args, args.kafka_libs, args.bootstrap, "org.apache.kafka.tools.LogDirsCommand",
                     "--bootstrap-server", args.bootstrap, "--describe", "--topic-list", topic)
    line = next(l for l in out.splitlines() if l.startswith("{"))
    total = 0
    for broker in json.loads(line)["brokers"]:
        for log_dir in broker["logDirs"]:
            total += sum(p["size"] for p in log_dir["partitions"] if p["partition"].startswith(topic + "-"))
    return total


def consume_rate(args, topic, messages):
    out = kafka_tool(args, args.kafka_libs, args.bootstrap, "org.apache.kafka.tools.ConsumerPerformance",
                     "--bootstrap-server", args.bootstrap, "--topic", topic, "--messages", str(messages),
                     "--timeout", "60000", "--hide-header")
    # start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, ...
    fields = [f.strip() for f in out.strip().splitlines()[-1].split(",")]
    return float(fields[5])


def one_run(args, codec, round_number, changes, log):
    topic = f"bench-codec.{args.db}.{codec}.{round_number}.{int(time.time())}"
    kafka_tool(args, args.kafka_libs, args.bootstrap, "org.apache.kafka.tools.TopicCommand",
               "--bootstrap-server", args.bootstrap, "--create", "--topic", topic, "--partitions", "6",
               "--replication-factor", "1", "--config", "max.message.bytes=8404992")
    psql(args.db, "truncate core_objectchange_pending; "
                  "insert into core_objectchange_pending (id) select id from core_objectchange")
    load_before = os.getloadavg()[0]
    process = start_api(args, codec, topic, True, log)
    try:
        first = last = None
        deadline = time.monotonic() + args.timeout
        while time.monotonic() < deadline:
            pending = int(psql(args.db, "select count(*) from core_objectchange_pending"))
            now = time.monotonic()
            if first is None and pending < changes:
                first = now
            if pending == 0:
                last = now
                break
            time.sleep(0.05)
        if last is None:
            raise SystemExit(f"{codec}: the relay did not drain {changes} changes in {args.timeout} s")
    finally:
        stop(process)
    # the first poll that saw progress came up to one poll interval after the first batch
    seconds = max(last - first, 0.05)
    result = {"codec": codec, "round": round_number, "events": changes, "relay_seconds": round(seconds, 3),
              "events_per_s": round(changes / seconds), "topic_bytes": topic_bytes(args, topic),
              "load_average_before": load_before}
    result["consumer_events_per_s"] = round(consume_rate(args, topic, changes))
    kafka_tool(args, args.kafka_libs, args.bootstrap, "org.apache.kafka.tools.TopicCommand",
               "--bootstrap-server", args.bootstrap, "--delete", "--topic", topic)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--codecs", default="zstd,lz4,gzip,snappy,none")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sites", type=int, default=5000, help="sites created and updated: twice as many changes")
    parser.add_argument("--db", default=os.environ.get("BENCH_DB_NAME", "sot_bench_codec"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("API_PORT", "18080")),
                        help="records-api's HTTP port; its management port is this + 2")
    parser.add_argument("--bootstrap", default="127.0.0.1:" + os.environ.get("KAFKA_PORT", "9092"))
    parser.add_argument("--kafka-libs", default=os.path.join(os.environ.get("STACK_HOME", os.path.join(REPO, ".local")),
                                                             "kafka", "libs"))
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if "bench" not in args.db:
        raise SystemExit("--db must contain 'bench': it is dropped and re-created")
    args.token = "0123456789abcdef0123456789abcdefbe0c0dec"
    codecs = args.codecs.split(",")

    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "sot", "--if-exists", args.db], check=True,
                   env={**os.environ, "PGPASSWORD": "sot"})
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "sot", args.db], check=True,
                   env={**os.environ, "PGPASSWORD": "sot"})
    log_path = args.out + ".records-api.log"
    runs = []
    with open(log_path, "w") as log:
        changes = seed(args, log)
        print(f"seeded {changes} change events (a create and an update per site)", flush=True)
        for round_number in range(1, args.rounds + 1):
            shift = (round_number - 1) % len(codecs)
            for codec in codecs[shift:] + codecs[:shift]:
                result = one_run(args, codec, round_number, changes, log)
                runs.append(result)
                print(f"  round {round_number} {codec:7} {result['events_per_s']:6} events/s through the relay, "
                      f"{result['topic_bytes']:10} bytes on the topic, consumer {result['consumer_events_per_s']}"
                      f" events/s (load {result['load_average_before']:.1f})", flush=True)
    summary = []
    for codec in codecs:
        mine = [r for r in runs if r["codec"] == codec]
        summary.append({"codec": codec,
                        "events_per_s_median": statistics.median(r["events_per_s"] for r in mine),
                        "topic_bytes_median": statistics.median(r["topic_bytes"] for r in mine),
                        "bytes_per_event": round(statistics.median(r["topic_bytes"] for r in mine) / changes),
                        "consumer_events_per_s_median": statistics.median(r["consumer_events_per_s"] for r in mine),
                        "runs_events_per_s": [r["events_per_s"] for r in mine]})
    none = next((s for s in summary if s["codec"] == "none"), None)
    print(f"\nrelay codecs, {changes} change events, median of {args.rounds} alternated rounds "
          f"({platform.node()}, {os.cpu_count()} CPUs, load average now {os.getloadavg()[0]:.1f})")
    print(f"{'codec':8} {'events/s':>9} {'topic bytes':>12} {'bytes/event':>12} {'vs none':>8} {'consumer ev/s':>14}")
    for s in summary:
        ratio = f"{none['topic_bytes_median'] / s['topic_bytes_median']:.2f}x" if none else "-"
        print(f"{s['codec']:8} {s['events_per_s_median']:>9} {s['topic_bytes_median']:>12} "
              f"{s['bytes_per_event']:>12} {ratio:>8} {s['consumer_events_per_s_median']:>14}")
    with open(args.out, "w") as f:
        json.dump({"changes": changes, "rounds": args.rounds, "summary": summary, "runs": runs,
                   "cpus": os.cpu_count(), "load_average_end": os.getloadavg()}, f, indent=2)


if __name__ == "__main__":
    main()
