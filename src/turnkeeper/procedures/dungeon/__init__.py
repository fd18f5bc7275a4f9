"""The dungeon: time in a site by 10-minute turns, and what happens in them.

One module per job: :mod:`.turn` has the commands (enter and leave a site, take a turn, note
the party's map, end an encounter), :func:`decide_dungeon` and the turn's check;
:mod:`.wandering` the wandering check and the creature met (EX-ENC, PG-REA);
:mod:`.encounter` meeting it in a turn (distance, surprise, what the party perceives);
:mod:`.wait` the hook that runs the turn's check while time passes in a site; :mod:`.events`
what the journal records. Surprise stays :mod:`turnkeeper.procedures.surprise`: it is settled
wherever two groups meet, not in a site only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; at run time they load on first use
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

# Loaded lazily: the campaign's hooks import ``dungeon.wait``, and the dungeon's events and
# turn import the campaign's, so importing the whole package eagerly would go round in a
# circle.
_WHERE = {
    "DUNGEON_HOOK": "turnkeeper.procedures.dungeon.wait",
    "DungeonCommand": "turnkeeper.procedures.dungeon.turn",
    "DungeonDieRolled": "turnkeeper.procedures.dungeon.events",
    "DungeonTurnTaken": "turnkeeper.procedures.dungeon.events",
    "Encounter": "turnkeeper.procedures.dungeon.wandering",
    "EncounterEnded": "turnkeeper.procedures.dungeon.events",
    "EncounterRolled": "turnkeeper.procedures.dungeon.events",
    "EndEncounter": "turnkeeper.procedures.dungeon.turn",
    "EnterSite": "turnkeeper.procedures.dungeon.turn",
    "GoodEncounterRolled": "turnkeeper.procedures.dungeon.events",
    "LeaveSite": "turnkeeper.procedures.dungeon.turn",
    "NoteMap": "turnkeeper.procedures.dungeon.turn",
    "OmenRolled": "turnkeeper.procedures.dungeon.events",
    "PartyMapNoted": "turnkeeper.procedures.dungeon.events",
    "Perceived": "turnkeeper.procedures.dungeon.events",
    "SiteEntered": "turnkeeper.procedures.dungeon.events",
    "SiteLeft": "turnkeeper.procedures.dungeon.events",
    "SpellEffectsEnded": "turnkeeper.procedures.dungeon.events",
    "Turn": "turnkeeper.procedures.dungeon.turn",
    "TurnSituation": "turnkeeper.procedures.dungeon.encounter",
    "WanderingCheck": "turnkeeper.procedures.dungeon.wandering",
    "WanderingChecked": "turnkeeper.procedures.dungeon.events",
    "check_due": "turnkeeper.procedures.dungeon.wandering",
    "decide_dungeon": "turnkeeper.procedures.dungeon.turn",
    "dungeon_turn": "turnkeeper.procedures.dungeon.turn",
    "end_encounter": "turnkeeper.procedures.dungeon.turn",
    "enter_site": "turnkeeper.procedures.dungeon.turn",
    "leave_site": "turnkeeper.procedures.dungeon.turn",
    "meet_encounter": "turnkeeper.procedures.dungeon.encounter",
    "note_map": "turnkeeper.procedures.dungeon.turn",
    "reaction_roll": "turnkeeper.procedures.dungeon.wandering",
    "roll_encounter": "turnkeeper.procedures.dungeon.wandering",
    "turn_check": "turnkeeper.procedures.dungeon.turn",
    "wandering_chance": "turnkeeper.procedures.dungeon.wandering",
    "wandering_check": "turnkeeper.procedures.dungeon.wandering",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
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
    "note_map",
    "reaction_roll",
    "roll_encounter",
    "turn_check",
    "wandering_chance",
    "wandering_check",
]
