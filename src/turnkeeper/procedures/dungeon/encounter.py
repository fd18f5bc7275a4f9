"""A wandering encounter met in a site: who comes, how far, how they react, who is surprised.

The dungeon turn and the wait's dungeon hook both meet encounters through
:func:`meet_encounter` (EX-ENC-1, TP-DUN-1 face 1; surprise EX-SUR-1 to EX-SUR-5, EX-ENC-5).
The party's DEX/Stealth and WIS/Scout are skill checks: a wearied character rolls them at
the ruleset's penalty (EX-REST-3, -2 under EX).
The roll and the secrets land in a referee-only :class:`EncounterRolled`; the party gets a
:class:`Perceived` of what its characters see or hear.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from turnkeeper.dice import DiceSource, Roll, roll
from turnkeeper.kernel.events import NoteMade, RollRecord, Visibility
from turnkeeper.kernel.party import Character
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.events import EncounterRolled, Perceived, _visit
from turnkeeper.procedures.dungeon.wandering import (
    met_by_row,
    reaction_roll,
    roll_encounter,
    surprise_names,
)
from turnkeeper.procedures.rest import weariness_penalty
from turnkeeper.procedures.surprise import Approach, SurpriseSituation, settle_surprise
from turnkeeper.rules.schema import MovementMode
from turnkeeper.words import of_creature
from turnkeeper.world.sites import Area, EncounterRow, Occupants, StatLine
from turnkeeper.world.visits import PendingEncounter

__all__ = ["TurnSituation", "meet_encounter", "meet_occupants"]

REFEREE = Visibility.REFEREE


@dataclass(frozen=True)
class TurnSituation:
    """How the party meets what comes this turn: its pace, a place to hide, the area."""

    mode_name: str | None = None
    mode: MovementMode | None = None
    hiding: bool = False
    occupied: bool = False
    both_unaware: bool = False
    ambush: bool = False
    #: The party rests or waits where it is: no pace (the ruleset's ``surprise.at_rest``).
    still: bool = False
    turn_ends: int | None = None
    """When the turn the party meets others in would end: a turn command's meeting stops
    its time there, and the rest of it passes when the party goes on exploring."""

    @property
    def approach(self) -> Approach:
        if self.ambush:
            return Approach.AMBUSH  # EX-SUR-1: the one way a cautious party is surprised
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
    met = roll_encounter(
        state.ruleset,
        table,
        _party_side(state, situation),
        dice,
        leader_cha=state.party.leader_cha,
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
        turn_ends=situation.turn_ends,
        notes=met.notes,
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
            roll_names=met.roll_names,
        )
    )
    draft.add(Perceived(text=_perceived(pending, met.text, met.heard)))


def _party_side(state: CampaignState, situation: TurnSituation) -> SurpriseSituation:
    """The meeting as the party's side of it stands: its pace, skills, light (EX-LIGHT-3)."""
    rules = state.ruleset.surprise
    return SurpriseSituation(
        approach=situation.approach,
        mode_name=situation.mode_name,
        mode=situation.mode,
        party_stealth=_best(state, rules.stealth_stat),
        party_notice=_best(state, rules.notice_stat),
        party_notice_each=tuple(
            (c.name, _skill(state, c, rules.notice_stat)) for c in state.party.living
        ),
        party_has_light=not state.light.dark,
        foes_in_darkness=not _visit(state).site.site.lit,
        both_may_be_surprised=situation.both_unaware,
        still=situation.still,
    )


@dataclass(frozen=True)
class _Dwellers:
    """Who dwells in an area as the site writes them: a creature, how many (rolled on the
    level's table where the row gives the number), their stat line, their row if any."""

    creature: str
    number: int = 1
    foes: StatLine | None = None
    row: EncounterRow | None = None
    rolled: Roll | None = None
    described: bool = False


def _dwellers(state: CampaignState, area: Area, dice: DiceSource) -> _Dwellers:
    occupants = area.occupants
    if not isinstance(occupants, Occupants):
        # words ("4 skeletons") or only `occupied`: met as described, not counted
        place = area.name or f"area {area.key}"
        return _Dwellers(occupants or f"the occupants of {place}", described=True)
    foes = StatLine.model_validate(occupants.line())
    if occupants.encounter is None:
        return _Dwellers(occupants.name, occupants.count or 1, foes)
    table = _visit(state).current_level.encounters
    assert table is not None  # the site's check: a row of the level's table
    row = table.row_for(occupants.encounter)
    if occupants.count is not None:
        return _Dwellers(row.creature, occupants.count, foes, row)
    number = roll(row.number, dice)
    return _Dwellers(row.creature, number.total, foes, row, number)


def meet_occupants(draft: Draft, dice: DiceSource, situation: TurnSituation, area: Area) -> None:
    """The party's movement carries it into an occupied area: it meets who dwells there.

    Surprise is settled as for a wandering encounter, by the same procedure: a running
    party is always surprised (EX-SUR-3), a swift one rolls the contest (EX-SUR-2, EX-SUR-4),
    a cautious one is not surprised unless the occupants lie in ambush (EX-SUR-1, the area's
    ``ambush`` or the turn's). No distance is rolled (EX-ENC-2 is the wandering encounter's):
    they are where the party comes in. Then the reaction (PG-REA-1).

    Occupants written as foes are met as many as they are, with their stat line; a row of
    the level's table rolls their number first, as a wandering one does, and the row says
    how they meet the party (its darkness, hunger, Stealth, Notice, discipline). Occupants
    written in words are met as described, and the referee names the foes for a fight.
    """
    state = draft.state
    ambush = situation.ambush or area.ambush
    meeting = replace(situation, occupied=True, ambush=ambush, hiding=False)
    who = _dwellers(state, area, dice)
    side = _party_side(state, meeting)
    if who.row is not None:
        side = met_by_row(side, who.row, who.number)
    elif not who.described:
        side = replace(side, foe_count=who.number)
    surprise = settle_surprise(state.ruleset.surprise, side, dice)
    mood = reaction_roll(state.ruleset, state.party.leader_cha, dice, surprise.reaction_modifier)
    place = area.name or f"area {area.key}"
    free = surprise.free_round
    pending = PendingEncounter(
        creature=who.creature,
        number=who.number,
        distance_ft=0,
        reaction=mood.result if mood else None,
        reaction_modifier=mood.modifier if mood else 0,
        party_surprised=surprise.party_surprised,
        foes_surprised=surprise.foes_surprised,
        free_round=free.value if free else None,
        surprised_members=surprise.surprised_members,
        morale_check=surprise.morale_check,
        turn=_visit(state).turns,
        turn_ends=situation.turn_ends,
        foes=who.foes,
        described=who.described,
        notes=who.row.notes if who.row is not None else "",
    )
    number = (who.rolled,) if who.rolled else ()
    rolls = (*number, *surprise.rolls, *((mood.roll,) if mood else ()))
    names = (
        *(("number",) if who.rolled else ()),
        *surprise_names(surprise),
        *(("reaction",) if mood else ()),
    )
    seen = (
        f"{who.creature} in {place}"
        if who.described
        else f"{of_creature(who.number, who.creature)} in {place}"
    )
    draft.add(
        EncounterRolled(
            encounter=pending,
            text=seen + (", lying in ambush" if ambush else ""),
            notes=who.row.notes if who.row is not None else "",
            heard=False,
            surprise_rule=surprise.rule,
            surprise_reason=surprise.reason,
            rolls=tuple(RollRecord.of(r) for r in rolls),
            roll_names=names,
        )
    )
    if who.described:
        draft.add(
            NoteMade(
                text=(
                    f"{who.creature} in {place}: the site describes them in words, with no "
                    "count or stat line; name the foes when the fight starts (combat start "
                    "--monster 'Skeleton:hd=1,ac=7,count=4'), or write them in the site file "
                    "as occupants = { name = ..., count = ..., hd = ..., ac = ... }"
                ),
                visibility=REFEREE,
            )
        )
    if surprise.party_surprised and not surprise.foes_surprised:
        draft.add(Perceived(text=f"Surprise! {seen}."))
    else:
        draft.add(Perceived(text=f"{seen[0].upper()}{seen[1:]}."))


def _perceived(e: PendingEncounter, text: str, heard: bool) -> str:
    """What the characters perceive of an encounter (the party's view)."""
    sound = f" ({text})" if heard and text else ""
    if e.concealed:
        return f"Something approaches{sound}; the party hides."
    if e.party_surprised and not e.foes_surprised:
        return f"Surprise! {of_creature(e.number, e.creature)} at {e.distance_ft} ft."
    seen = f"{of_creature(e.number, e.creature)} at {e.distance_ft} ft"
    if e.foes_surprised and not e.party_surprised:
        return f"{seen}, caught unawares."
    return f"Something approaches{sound}: {seen}." if heard else f"{seen}."
