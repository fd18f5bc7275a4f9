"""Snapshots: a folded state kept beside a long journal, so rebuilding it need not start at seq 1.

A snapshot is a cache, never a record: the journal alone is the truth, and deleting every
snapshot changes no state, only how long a rebuild takes. Rebuilding from a snapshot is
:func:`~turnkeeper.campaign.journal.fold_from`: the snapshot plus the records after it, or a
whole fold when an undo in those records takes back a command the snapshot already holds.

A snapshot is the JSON of a :class:`CampaignState`, tagged with :func:`state_format`. A
turnkeeper whose state has another shape (a field added, a type changed) or another version
ignores snapshots of the old format and folds the journal, so a stale cache cannot leak into
the state. :func:`dump_state` refuses a state that would not read back equal.

>>> from turnkeeper.campaign import Journal, Wait, parse_party
>>> from turnkeeper.rules.schema import Ruleset, RulesetInfo
>>> rules = Ruleset(ruleset=RulesetInfo(name="demo", title="Demo"))
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
>>> journal = Journal.start("demo", rules, party, seed=1)
>>> _ = journal.execute(Wait(600))
>>> text = dump_state(journal.state)
>>> load_state(text) == journal.state
True
"""

from __future__ import annotations

import functools
import hashlib
import json

from pydantic import ValidationError

import turnkeeper
from turnkeeper.kernel.state import CampaignState

SNAPSHOT_EVERY = 1000
"""Keep a snapshot each time a journal grows past another this many records.

A rebuild then folds at most about this many records after reading the snapshot; a snapshot
costs one JSON dump and one insert per thousand records, nothing on the other commands.
"""


@functools.cache
def state_format() -> str:
    """The tag of this turnkeeper's snapshot format: its version and the state's JSON schema."""
    schema = json.dumps(CampaignState.model_json_schema(), sort_keys=True)
    digest = hashlib.sha256(f"{turnkeeper.__version__}\n{schema}".encode()).hexdigest()
    return digest[:16]


def dump_state(state: CampaignState) -> str | None:
    """The snapshot JSON of ``state``, or None when it would not read back as the same state."""
    text = state.model_dump_json()
    return text if load_state(text) == state else None


def load_state(text: str) -> CampaignState | None:
    """The state a snapshot holds, or None when it no longer reads as a state (then fold)."""
    try:
        return CampaignState.model_validate_json(text)
    except ValidationError:
        return None


def due(before: int, after: int, every: int | None = None) -> bool:
    """True when a journal growing from ``before`` to ``after`` records passes a snapshot mark.

    >>> due(999, 1002), due(1002, 1010), due(0, 5)
    (True, False, False)
    """
    every = SNAPSHOT_EVERY if every is None else every
    return after // every > before // every
