"""A writer for the crash test: appends batches forever until it is killed.

Usage: ``python appender.py URL SCHEMA|- CAMPAIGN BATCH``. After each committed append it prints
the new version, so the test knows what the store promised before the SIGKILL.
"""

from __future__ import annotations

import sys

from turnkeeper.store.sql import SqlStore


def record(seq: int) -> dict[str, object]:
    """A record whose content the test can check from its seq alone."""
    return {
        "command": seq,
        "at": seq * 600,
        "kind": "test.tick",
        "visibility": "party",
        "data": {"seq": seq, "note": "x" * (seq % 97), "nested": {"list": list(range(seq % 7))}},
        "rolls": [{"expr": "1d6", "faces": [seq % 6 + 1]}],
    }


def main() -> None:
    url, schema, campaign, batch = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = SqlStore(url, schema=None if schema == "-" else schema)
    version = store.version(campaign)
    while True:
        version = store.append(
            campaign, version, [record(version + i) for i in range(1, batch + 1)]
        )
        print(version, flush=True)


if __name__ == "__main__":
    main()
