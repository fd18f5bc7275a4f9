"""The glance: ``turnkeeper status`` without SQLAlchemy, the engine or a fold.

After every command the service keeps the campaign's status document (built by
:func:`turnkeeper.campaign.glance.glance_of`) beside its journal, tagged with the version it
shows and the format it was written in. :func:`read_glance` reads it back from a SQLite
store with the standard library alone, read-only, and only when it is exactly current: the
campaign's version and the document's are read in one query and must be equal, and the
format must be this turnkeeper's. Anything else (another database, an older document, a
campaign written by an older turnkeeper, a locked file) answers None, and ``status`` reads
the campaign the usual way, which gives the same document. So the glance is a cache: it can
be stale or missing and ``status`` is still right, only slower.

The document is left out for a campaign whose state holds a wilderness map: the map would
make every command write it whole, for a status that prints it rarely.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import quote

import turnkeeper
from turnkeeper.store.base import CURRENT

GLANCES = "glances"
"""The table that keeps each campaign's glance."""

GLANCE_FORMAT = f"{turnkeeper.__version__}/3"
"""The glance documents this turnkeeper writes and reads: a release, and the document's own
revision (bumped when its shape changes); a document in any other format is not read."""

_QUERY = f"""
SELECT c.version, g.version, g.format, g.document
FROM campaigns AS c JOIN {GLANCES} AS g ON g.campaign = c.name
WHERE c.name = COALESCE(?, (SELECT value FROM settings WHERE key = ?))
"""


def read_glance(url: str, campaign: str | None) -> dict[str, Any] | None:
    """The current glance of ``campaign`` (None: the current campaign) in the SQLite store at
    ``url``, or None when the store is not a SQLite file or holds no current glance."""
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///").split("?", 1)[0]
    if not path or path == ":memory:" or not Path(path).is_file():
        return None
    try:
        with closing(sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True)) as conn:
            row = conn.execute(_QUERY, (campaign, CURRENT)).fetchone()
    except sqlite3.Error:  # no glances table yet, a lock, a file that is not a database
        return None
    if row is None:
        return None
    version, glanced, tag, document = row
    if version != glanced or tag != GLANCE_FORMAT:
        return None
    data: dict[str, Any] = json.loads(document)
    return data
