"""Parties in one world: they form, split, meet and are brought forward in time.

"You can not have a meaningful campaign if strict time records are not kept": a campaign is a
world in which several parties live, each at its own present. The referee runs one party at a
time (its fields are the state's own; the others wait in ``state.away``), and every party's
command is in the one journal, so the journal is the world's time record.

- A party splits (some characters leave with what they take), a new party of characters
  arrives at the world's present, and two parties join into one when they stand at the same
  place at the same time: characters who join must first be brought to the same time.
- One order of events: a party may not act on a place (a site's area, a map's hex, a
  region's weather on a day) that another party changed later in game time than the
  party's present. The place ledger keeps every change to a place with its game time and
  party (``state.places``, ``state.weather_changes``): a history, never only the latest.
- Bringing a party forward is downtime: its days pass as every command's days do
  (``procedures.days``: the day's meal at its hour, the night's healing, the ruleset's
  downtime die at each day's start, TP-TIME-1, TP-ENC-1; no light burns, no turns count).
- World time passes once: a world countdown ticks only where the party run is the first to
  live through an instant (``procedures.countdowns``); a party's own countdowns tick with it.
- Between sessions the world may follow the real calendar (:mod:`.forward`, ``world
  catch-up``): every idle party lives the actual days since the last catch-up.

The commands are :mod:`.commands`, their events :mod:`.events`, and :func:`decide_parties`
(:mod:`.decide`) runs a command against the state.
"""

from turnkeeper.procedures.parties.commands import (
    BringAllForward,
    BringForward,
    ClearArea,
    ClearHex,
    JoinParty,
    NewParty,
    PartyCommand,
    SetDoing,
    ShareKnowledge,
    SplitParty,
    SwitchParty,
)
from turnkeeper.procedures.parties.decide import decide_parties, switch, where
from turnkeeper.procedures.parties.events import (
    AreaCleared,
    DowntimeBegun,
    HexCleared,
    KnowledgeShared,
    PartiesJoined,
    PartyArrived,
    PartyOccupied,
    PartySplit,
    PartySwitched,
)
from turnkeeper.procedures.parties.forward import (
    CatchUp,
    Forward,
    HavenMonth,
    PartyCaughtUp,
    WorldCaughtUp,
    bring_all_forward,
    busy,
    catch_up,
)

__all__ = [
    "AreaCleared",
    "BringAllForward",
    "BringForward",
    "CatchUp",
    "ClearArea",
    "ClearHex",
    "DowntimeBegun",
    "Forward",
    "HavenMonth",
    "HexCleared",
    "JoinParty",
    "KnowledgeShared",
    "NewParty",
    "PartiesJoined",
    "PartyArrived",
    "PartyCaughtUp",
    "PartyCommand",
    "PartyOccupied",
    "PartySplit",
    "PartySwitched",
    "SetDoing",
    "ShareKnowledge",
    "SplitParty",
    "SwitchParty",
    "WorldCaughtUp",
    "bring_all_forward",
    "busy",
    "catch_up",
    "decide_parties",
    "switch",
    "where",
]
