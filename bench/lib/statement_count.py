#!/usr/bin/env python3
"""SQL statements one request costs: sends it once and prints the X-SQL-Statements header that
records-api adds when SOT_DEBUG_STATEMENT_COUNT_HEADER=true (bench/run sets it). The count covers
the statements issued through the engine's Db helper (authentication included); the change-log
insert of each changed object comes on top. Prints "-" when the header is absent."""

import argparse
import json
import sys

from api_client import ApiClient


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("method")
    parser.add_argument("path")
    parser.add_argument("body", nargs="?", help="JSON body")
    args = parser.parse_args()
    client = ApiClient(args.api, args.token)
    client.request(args.method, args.path, None if args.body is None else json.loads(args.body))
    print(client.last_headers.get("X-SQL-Statements") or "-")


if __name__ == "__main__":
    sys.exit(main())
