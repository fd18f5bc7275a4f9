"""A wandering encounter met in a site: who comes, how far, how they react, who is surprised.

The dungeon turn and the wait's dungeon hook both meet encounters through
:func:`meet_encounter` (EX-ENC-1, TP-DUN-1 face 1; surprise EX-SUR-1 to EX-SUR-5, EX-ENC-5).
The party's DEX/Stealth and WIS/Scout are skill checks: a wearied character rolls them at
the ruleset's penalty (EX-REST-3, -2 under EX).
The roll and the secrets land in a referee-only :class:`EncounterRolled`; the party gets a
:class:`Perceived` of what its characters see or hear.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnkeeper.dice import DiceSource
from turnkeeper.kernel.events import NoteMade, RollRecord, Visibility
from turnkeeper.kernel.party import Character
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.events import EncounterRolled, Perceived, _visit
from turnkeeper.procedures.dungeon.wandering import roll_encounter
from turnkeeper.procedures.rest import weariness_penalty
from turnkeeper.procedures.surprise import Approach, SurpriseSituation
from turnkeeper.rules.schema import MovementMode
from turnkeeper.world.sites import PendingEncounter

__all__ = ["TurnSituation", "meet_encounter"]

REFEREE = Visibility.REFEREE


@dataclass(frozen=True)
class TurnSituation:
    """How the party meets what comes this turn: its pace, a place to hide, the area."""

    mode_name: str | None = None
    mode: MovementMode | None = None
    hiding: bool = False
    occupied: bool = False
    both_unaware: bool = False

    @property
    def approach(self) -> Approach:
        return Approach.ENTERING if self.occupied else Approach.WANDERING


def _skill(state: CampaignState, character: Character, stat: str) -> int:
    """A character's bonus to a skill check on ``stat``, -2 when wearied (EX-REST-3)."""
    return character.stats.get(stat, 0) + weariness_penalty(character, "skill", state.ruleset.rest)


def _best(state: CampaignState, stat: str) -> int:
    return max((_skill(state, c, stat) for c in state.party.living), default=0)


def meet_encounter(draft: Draft, dice: DiceSource, situation: TurnSituation) -> None:
    """Roll the level's wandering encounter and its surprise; record it for the referee."""
    state = draft.state
    visit = _visit(state)
    table = visit.current_level.encounters
    if table is None:
        text = f"level {visit.level} has no encounter table: the referee improvises"
        draft.add(NoteMade(text=text, visibility=REFEREE))
        return
    rules = state.ruleset.surprise
    leader = state.party.character(state.party.leader or "") or state.party.characters[0]
    surprise_situation = SurpriseSituation(
        approach=situation.approach,
        mode_name=situation.mode_name,
        mode=situation.mode,
        party_stealth=_best(state, rules.stealth_stat),
        party_notice=_best(state, rules.notice_stat),
        party_notice_each=tuple(
            (c.name, _skill(state, c, rules.notice_stat)) for c in state.party.living
        ),
        party_has_light=not state.light.dark,
        foes_in_darkness=not visit.site.site.lit,
        both_may_be_surprised=situation.both_unaware,
    )
    met = roll_encounter(
        state.ruleset,
        table,
        surprise_situation,
        dice,
        leader_cha=leader.stats.get("CHA", 0),
        hiding_place=situation.hiding,
    )
    surprise = met.surprise
    free = surprise.free_round
    pending = PendingEncounter(
        creature=met.creature,
        number=met.number.total,
        distance_ft=met.distance_ft,
        reaction=met.reaction.result if met.reaction else None,
        reaction_modifier=met.reaction.modifier if met.reaction else 0,
        party_surprised=surprise.party_surprised,
        foes_surprised=surprise.foes_surprised,
        free_round=free.value if free else None,
        surprised_members=surprise.surprised_members,
        morale_check=surprise.morale_check,
        concealed=met.concealed,
        turn=visit.turns,
    )
    draft.add(
        EncounterRolled(
            encounter=pending,
            text=met.text,
            notes=met.notes,
            heard=met.heard,
            surprise_rule=surprise.rule,
            surprise_reason=surprise.reason,
            rolls=tuple(RollRecord.of(r) for r in met.rolls),
            visibility=REFEREE,
        )
    )
    draft.add(Perceived(text=_perceived(pending, met.text, met.heard)))


def _perceived(e: PendingEncounter, text: str, heard: bool) -> str:
    """What the characters perceive of an encounter (the party's view)."""
    sound = f" ({text})" if heard and text else ""
    if e.concealed:
        return f"Something approaches{sound}; the party hides."
    if e.party_surprised and not e.foes_surprised:
        return f"Surprise! {e.number} {e.creature} at {e.distance_ft} ft."
    seen = f"{e.number} {e.creature} at {e.distance_ft} ft"
    if e.foes_surprised and not e.party_surprised:
        return f"{seen}, caught unawares."
    return f"Something approaches{sound}: {seen}." if heard else f"{seen}."
