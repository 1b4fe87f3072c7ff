#!/usr/bin/env python3
"""Seeds the benchmark data set through the API's bulk endpoints (POST of a JSON list).

At --scale 1: 50 sites, 500 racks, 5,000 devices with 48 interfaces each (240,000), and, when the
API has IPAM (/api/ipam/ip-addresses/ is not 404), 2,000 prefixes, 20,000 IP addresses and 500
VLANs. Every count is multiplied by --scale (at least 1 of each). The generated values are
deterministic (fixed random seed), so two runs at one scale seed the same data.

Writes a JSON file with the counts, the seeding throughput per model and what the load scripts
need (device ids, a site and role slug for the filtered list, the prefix used by available-ips).
"""

import argparse
import json
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from api_client import ApiClient

BASE_COUNTS = {"sites": 50, "racks": 500, "devices": 5000, "prefixes": 2000, "ip_addresses": 20000, "vlans": 500}
INTERFACES_PER_DEVICE = 48
CHUNK = 1000
DEVICE_ROLES = ["leaf", "spine", "server", "firewall", "router"]
DEVICE_TYPES = ["dcs-7050sx3", "dcs-7280cr3", "dcs-7020tr", "dcs-7160"]
# Device status mix: mostly active, as in a real inventory.
DEVICE_STATUSES = ["active"] * 8 + ["planned", "offline"]
# available-ips allocations go to this prefix, large enough for every POST of a run.
ALLOCATION_POOL = "10.250.0.0/16"


def scaled_counts(scale):
    return {name: max(1, round(count * scale)) for name, count in BASE_COUNTS.items()}


class Seeder:
    def __init__(self, api_url, token, parallel):
        self.api_url = api_url
        self.token = token
        self.parallel = parallel
        self.local = threading.local()
        self.timings = {}

    def client(self):
        if not hasattr(self.local, "client"):
            self.local.client = ApiClient(self.api_url, self.token)
        return self.local.client

    def bulk_create(self, label, path, items):
        """POSTs items in lists of CHUNK, `parallel` requests at a time; returns the created objects."""
        chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=self.parallel) as pool:
            results = list(pool.map(lambda chunk: self.client().post(path, chunk), chunks))
        seconds = time.monotonic() - started
        created = [obj for result in results for obj in result]
        if len(created) != len(items):
            raise SystemExit(f"{path}: asked for {len(items)} objects, got {len(created)}")
        self.timings[label] = {"objects": len(created), "requests": len(chunks), "seconds": round(seconds, 2),
                               "objects_per_s": round(len(created) / seconds, 1) if seconds > 0 else None}
        print(f"    seeded {len(created):>7} {label:<14} in {seconds:7.1f} s"
              f" ({len(created) / max(seconds, 1e-9):8.0f} objects/s)", flush=True)
        return created


def seed(args):
    counts = scaled_counts(args.scale)
    rng = random.Random(42)
    seeder = Seeder(args.api, args.token, args.parallel)
    api = seeder.client()

    manufacturer = seeder.bulk_create("manufacturers", "/api/dcim/manufacturers/",
                                      [{"name": "Arista", "slug": "arista"}])[0]
    device_types = seeder.bulk_create("device_types", "/api/dcim/device-types/", [
        {"manufacturer": manufacturer["id"], "model": model, "slug": model, "u_height": 1} for model in DEVICE_TYPES])
    roles = seeder.bulk_create("device_roles", "/api/dcim/device-roles/", [
        {"name": role, "slug": role, "color": "2196f3"} for role in DEVICE_ROLES])
    sites = seeder.bulk_create("sites", "/api/dcim/sites/", [
        {"name": f"Site {i:03d}", "slug": f"site-{i:03d}", "status": "active", "facility": f"DC{i:03d}",
         "description": "benchmark site"} for i in range(counts["sites"])])
    racks = seeder.bulk_create("racks", "/api/dcim/racks/", [
        {"name": f"R{i:04d}", "site": sites[i % len(sites)]["id"], "status": "active", "u_height": 42}
        for i in range(counts["racks"])])
    site_of_rack = {rack["id"]: rack["site"]["id"] for rack in racks}

    device_items = []
    for i in range(counts["devices"]):
        rack = racks[i % len(racks)]
        device_items.append({
            "name": f"dev{i:05d}", "device_type": rng.choice(device_types)["id"], "role": rng.choice(roles)["id"],
            "site": site_of_rack[rack["id"]], "rack": rack["id"], "status": rng.choice(DEVICE_STATUSES),
            "serial": f"SN{i:08d}", "description": "benchmark device"})
    devices = seeder.bulk_create("devices", "/api/dcim/devices/", device_items)

    interface_items = [
        {"device": device["id"], "name": f"Ethernet{n}", "type": "10gbase-x-sfpp", "mtu": 9216}
        for device in devices for n in range(1, INTERFACES_PER_DEVICE + 1)]
    seeder.bulk_create("interfaces", "/api/dcim/interfaces/", interface_items)

    ipam = api.status_of("/api/ipam/ip-addresses/?limit=1") != 404
    pool_prefix_id = None
    if ipam:
        prefixes = seeder.bulk_create("prefixes", "/api/ipam/prefixes/", [
            {"prefix": f"10.{k // 256}.{k % 256}.0/24", "status": "active"} for k in range(counts["prefixes"])])
        per_prefix = -(-counts["ip_addresses"] // len(prefixes))
        if per_prefix > 253:
            raise SystemExit("too many IP addresses for the prefixes at this scale")
        addresses = []
        for k in range(counts["prefixes"]):
            for host in range(1, per_prefix + 1):
                if len(addresses) < counts["ip_addresses"]:
                    addresses.append({"address": f"10.{k // 256}.{k % 256}.{host}/24", "status": "active"})
        seeder.bulk_create("ip_addresses", "/api/ipam/ip-addresses/", addresses)
        seeder.bulk_create("vlans", "/api/ipam/vlans/", [
            {"vid": 1 + k % 4094, "name": f"vlan{k:04d}", "status": "active"} for k in range(counts["vlans"])])
        pool_prefix_id = api.post("/api/ipam/prefixes/", {"prefix": ALLOCATION_POOL, "status": "active",
                                                           "description": "available-ips benchmark pool"})["id"]
    else:
        print("    /api/ipam/ip-addresses/ is 404: no IPAM in this build; prefixes, IP addresses, VLANs skipped")
        for name in ("prefixes", "ip_addresses", "vlans"):
            counts[name] = 0

    filter_site, filter_role = sites[0]["slug"], roles[0]["slug"]
    matching = api.get(f"/api/dcim/devices/?site={filter_site}&status=active&role={filter_role}&limit=1")["count"]
    counts["interfaces"] = len(interface_items)
    with open(args.device_ids, "w") as out:
        out.write("\n".join(str(device["id"]) for device in devices) + "\n")
    return {
        "scale": args.scale,
        "counts": counts,
        "seeding": seeder.timings,
        "filter": {"site": filter_site, "role": filter_role, "status": "active", "matching_devices": matching},
        "device_ids_file": args.device_ids,
        "ipam": ipam,
        "allocation_pool_prefix_id": pool_prefix_id,
        "sample_device_id": devices[0]["id"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", required=True, help="base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--token", required=True)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--parallel", type=int, default=2, help="bulk requests in flight at once")
    parser.add_argument("--device-ids", required=True, help="file to write the device ids to, one a line")
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args()
    result = seed(args)
    with open(args.out, "w") as out:
        json.dump(result, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
