"""The application service: runs a campaign's commands against an event store.

Its modules: :mod:`~turnkeeper.service.campaigns` (the service itself),
:mod:`~turnkeeper.service.reader` (what the service reads, which never writes),
:mod:`~turnkeeper.service.moving` (journals as text, in and out) and
:mod:`~turnkeeper.service.collector` (the garbage collector paused over a fold, and settled
as a server starts).

Each front door (CLI, HTTP, a bot) goes through :class:`Campaigns`: it loads a campaign's
records from the store, folds them into the live state, decides a command with the right dice
and appends the new records carrying the version it folded from. If another writer got there
first, the store refuses with ConflictError and nothing is appended; the service reloads and
runs the command again on the campaign as it is then, unless the caller named the version it
expected (a page's form does), when the ConflictError is the caller's.

Dice: a command starting at version ``v`` rolls :func:`~turnkeeper.campaign.command_dice`
``(seed, v)``, so the same seed and commands give the same journal in any process; faces typed
in from physical dice replace them, and every one of them must be used.

>>> from turnkeeper.store import open_store
>>> from turnkeeper.campaign import Wait, parse_party
>>> from turnkeeper.rules.loader import preset
>>> import tempfile, os
>>> campaigns = Campaigns(open_store(os.path.join(tempfile.mkdtemp(), "t.db")))
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
>>> campaigns.new("Keep", preset("ex"), party, seed=7).version
1
>>> [r.seq for r in campaigns.execute("Keep", Wait(600))]
[2]
>>> campaigns.state("Keep").now
600
"""

from turnkeeper.service.campaigns import Campaigns
from turnkeeper.service.collector import gc_paused, settled
from turnkeeper.service.reader import CharacterRecord

__all__ = ["Campaigns", "CharacterRecord", "gc_paused", "settled"]
