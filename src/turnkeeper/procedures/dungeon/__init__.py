"""The dungeon: time in a site by 10-minute turns, and what happens in them.

One module per job: :mod:`.turn` has the commands (enter and leave a site, take a turn, note
the party's map, end an encounter), :func:`decide_dungeon` and the turn's check;
:mod:`.wandering` the wandering check and the creature met (EX-ENC, PG-REA);
:mod:`.encounter` meeting it in a turn (distance, surprise, what the party perceives);
:mod:`.wait` the hook that runs the turn's check while time passes in a site; :mod:`.events`
what the journal records. Surprise stays :mod:`turnkeeper.procedures.surprise`: it is settled
wherever two groups meet, not in a site only.
"""

from turnkeeper.procedures.dungeon.downtime import (
    DOWNTIME_HOOK,
)
from turnkeeper.procedures.dungeon.encounter import (
    TurnSituation,
    meet_encounter,
)
from turnkeeper.procedures.dungeon.events import (
    DungeonDieRolled,
    DungeonTurnTaken,
    EncounterEnded,
    EncounterRolled,
    GoodEncounterRolled,
    OmenRolled,
    PartyMapNoted,
    Perceived,
    SiteEntered,
    SiteLeft,
    SpellEffectsEnded,
    WanderingChecked,
)
from turnkeeper.procedures.dungeon.turn import (
    DungeonCommand,
    EndEncounter,
    EnterSite,
    LeaveSite,
    NoteMap,
    Turn,
    decide_dungeon,
    dungeon_turn,
    end_encounter,
    enter_site,
    leave_site,
    movement_mode,
    note_map,
    turn_check,
)
from turnkeeper.procedures.dungeon.wait import (
    DUNGEON_HOOK,
)
from turnkeeper.procedures.dungeon.wandering import (
    Encounter,
    WanderingCheck,
    check_due,
    reaction_roll,
    roll_encounter,
    wandering_chance,
    wandering_check,
)

__all__ = [
    "DOWNTIME_HOOK",
    "DUNGEON_HOOK",
    "DungeonCommand",
    "DungeonDieRolled",
    "DungeonTurnTaken",
    "Encounter",
    "EncounterEnded",
    "EncounterRolled",
    "EndEncounter",
    "EnterSite",
    "GoodEncounterRolled",
    "LeaveSite",
    "NoteMap",
    "OmenRolled",
    "PartyMapNoted",
    "Perceived",
    "SiteEntered",
    "SiteLeft",
    "SpellEffectsEnded",
    "Turn",
    "TurnSituation",
    "WanderingCheck",
    "WanderingChecked",
    "check_due",
    "decide_dungeon",
    "dungeon_turn",
    "end_encounter",
    "enter_site",
    "leave_site",
    "meet_encounter",
    "movement_mode",
    "note_map",
    "reaction_roll",
    "roll_encounter",
    "turn_check",
    "wandering_chance",
    "wandering_check",
]
