"""The dungeon turn's events: what the journal records of sites, turns and encounters.

Referee-only events carry the rolls and the secrets (the die's face, the omen's notes, the
creature, distance, reaction and surprise); :class:`Perceived` is what the party's
characters perceive. See :mod:`turnkeeper.procedures.dungeon.turn` for the procedure.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import Event, Shown, Visibility
from turnkeeper.kernel.state import CampaignState
from turnkeeper.rules.schema import FaceEvent
from turnkeeper.words import counted
from turnkeeper.world.sites import Site
from turnkeeper.world.visits import MapNote, PendingEncounter, SiteVisit


def _visit(state: CampaignState) -> SiteVisit:
    if state.site is None:
        raise IllegalCommandError(
            "the party is not in a site: enter one first with `turnkeeper site enter FILE`"
        )
    return state.site


def _with_visit(state: CampaignState, **changes: object) -> CampaignState:
    return state.model_copy(update={"site": _visit(state).model_copy(update=changes)})


# --- events -------------------------------------------------------------------------------


class SiteEntered(Event):
    """The party enters a site (the whole site is kept, so replay needs no file). Referee's."""

    kind: ClassVar[str] = "site.entered"
    shown: ClassVar[Shown] = Shown.REFEREE
    site: Site
    level: int
    area: str | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        visit = SiteVisit(site=self.site, level=self.level, area=self.area, entered_at=state.now)
        visit = visit.been_at(self.level, self.area)  # EX-MAP-2: the party has been here
        return state.model_copy(update={"site": visit})

    def describe(self) -> str:
        return f"the party enters {self.site.name}, level {self.level}: dungeon turns begin"


class Perceived(Event):
    """What the party's characters perceive: an omen, something approaching, a find."""

    kind: ClassVar[str] = "site.perceived"
    shown: ClassVar[Shown] = Shown.PARTY
    text: str

    def describe(self) -> str:
        return self.text


class SiteLeft(Event):
    """The party leaves the site; the clock leaves dungeon turns."""

    kind: ClassVar[str] = "site.left"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    turns: int

    def apply(self, state: CampaignState) -> CampaignState:
        # out of the site, the party stands by it (not "in town") until it goes elsewhere
        near = state.whereabouts.model_copy(update={"near": self.name})
        return state.model_copy(update={"site": None, "whereabouts": near})

    def describe(self) -> str:
        return f"the party leaves {self.name} after {counted(self.turns, 'turn')}"


class DungeonTurnTaken(Event):
    """A dungeon turn begins: how the party moves (EX-MOV-1 to EX-MOV-3, EX-MAP-1)."""

    kind: ClassVar[str] = "dungeon.turn"
    shown: ClassVar[Shown] = Shown.PARTY
    turn: int
    mode: str | None
    feet: int | None
    map_use: bool
    halted_at_door: bool = False
    noisy: bool = False
    level: int
    area: str | None = None
    resting: bool = False
    """TP-DUN-1 face 4 (Forced Rest) at the turn's start: the party rests and covers nothing."""

    def apply(self, state: CampaignState) -> CampaignState:
        been = _visit(state).been_at(self.level, self.area).visited  # EX-MAP-2
        return _with_visit(
            state,
            turns=self.turn,
            last_mode=self.mode,
            level=self.level,
            area=self.area,
            visited=been,
        )

    def data(self) -> dict[str, object]:
        """Left out at its default, so the journals of turns before it stay as they were."""
        dumped = super().data()
        if not self.resting:
            dumped.pop("resting")
        return dumped

    def describe(self) -> str:
        if self.resting:
            return f"turn {self.turn}: a forced rest, no distance covered"
        pace = self.mode or "moving"
        if self.halted_at_door:
            reach = "halts at a door for the rest of the turn"
        else:
            reach = f"{self.feet} ft" if self.feet is not None else "as far as the site goes"
        book = "map in hand" if self.map_use else "no map"
        return f"turn {self.turn}: {pace}, {reach}, {book}" + (", noisily" if self.noisy else "")


class PartyMapNoted(Event):
    """The party's mapper writes on the party's map (EX-MAP-2); the referee corrects nothing."""

    kind: ClassVar[str] = "site.map_noted"
    shown: ClassVar[Shown] = Shown.PARTY
    note: MapNote

    def apply(self, state: CampaignState) -> CampaignState:
        return _with_visit(state, map_notes=(*_visit(state).map_notes, self.note))

    def describe(self) -> str:
        where = f"level {self.note.level}" + (f", {self.note.area}" if self.note.area else "")
        return f"the party's map ({where}): {self.note.text}"


class DungeonTurnPassed(Event):
    """A site turn passes while the party waits or rests: the turn count goes on (EX-ENC-1)."""

    kind: ClassVar[str] = "dungeon.turn_passed"
    shown: ClassVar[Shown] = Shown.PARTY
    turn: int

    def apply(self, state: CampaignState) -> CampaignState:
        return _with_visit(state, turns=self.turn)

    def describe(self) -> str:
        return f"turn {self.turn} passes without moving"


class EncounterDieRolled(Event):
    """The generic encounter die (TP-ENC-1) for a turn with no die of its own. Referee's."""

    kind: ClassVar[str] = "encounter.die"
    shown: ClassVar[Shown] = Shown.REFEREE
    face: int
    event: FaceEvent
    label: str
    moment: str = "downtime"

    def describe(self) -> str:
        return f"encounter die ({self.moment}) {self.face}: {self.label}"


class DungeonDieRolled(Event):
    """The overloaded dungeon die's face (TP-DUN-1, TP-DUN-2). Referee's."""

    kind: ClassVar[str] = "dungeon.die"
    shown: ClassVar[Shown] = Shown.REFEREE
    face: int
    event: FaceEvent
    label: str

    def describe(self) -> str:
        return f"dungeon die {self.face}: {self.label}"


class WanderingChecked(Event):
    """A wandering-monster check (EX-ENC-1, EX-ENC-4), or why it was skipped (EX-ENC-3)."""

    kind: ClassVar[str] = "dungeon.check"
    shown: ClassVar[Shown] = Shown.CHOSEN
    chance: int
    sides: int
    encounter: bool = False
    skipped: str | None = None

    def seen_by(self, state: CampaignState) -> Visibility | None:
        # the check is rolled behind the screen; why none was made is the table's to hear
        return Visibility.PARTY if self.skipped else Visibility.REFEREE

    def describe(self) -> str:
        if self.skipped:
            return f"wandering check skipped: {self.skipped}"
        got = "an encounter!" if self.encounter else "nothing"
        return f"wandering check ({self.chance} in {self.sides}): {got}"


class OmenRolled(Event):
    """The dungeon rouses (TP-DUN-2): the omen from the site's table. Referee's."""

    kind: ClassVar[str] = "dungeon.omen"
    shown: ClassVar[Shown] = Shown.REFEREE
    text: str
    notes: str = ""

    def describe(self) -> str:
        return f"the dungeon rouses: {self.text}" + (f" [{self.notes}]" if self.notes else "")


class GoodEncounterRolled(Event):
    """A good encounter (TP-DUN-1 face 6) from the site's table. Referee's."""

    kind: ClassVar[str] = "dungeon.good"
    shown: ClassVar[Shown] = Shown.REFEREE
    text: str
    notes: str = ""

    def describe(self) -> str:
        return f"good encounter: {self.text}" + (f" [{self.notes}]" if self.notes else "")


class SpellEffectsEnded(Event):
    """Waning resources (TP-ENC-1 face 4, TP-DUN-1 face 3): running spell effects end."""

    kind: ClassVar[str] = "dungeon.spells_end"
    shown: ClassVar[Shown] = Shown.PARTY

    def describe(self) -> str:
        return "resources wane: spell effects end"


class EncounterRolled(Event):
    """A wandering encounter with its distance, reaction and surprise. Referee's.

    ``roll_names`` says what each of the rolls was for ("table", "number", "distance",
    "reaction", or whose surprise check), so the line names them; a journal from before
    they were recorded has none, and its line reads as it did.
    """

    kind: ClassVar[str] = "dungeon.encounter"
    shown: ClassVar[Shown] = Shown.REFEREE
    encounter: PendingEncounter
    text: str = ""
    notes: str = ""
    heard: bool = True
    surprise_rule: str = ""
    surprise_reason: str = ""
    roll_names: tuple[str, ...] = Field((), exclude_if=lambda names: not names)

    def apply(self, state: CampaignState) -> CampaignState:
        return _with_visit(state, encounter=self.encounter)

    def describe(self) -> str:
        hid = "; the party hides" if self.encounter.concealed else ""
        rolled = self.rolled()
        return (
            f"encounter: {self.encounter.told()} "
            f"({self.surprise_rule}: {self.surprise_reason}){hid}"
            + (f"; rolled: {rolled}" if rolled else "")
        )

    def rolled(self) -> str:
        """Each roll by name with what it gave, in the order of the rolls shown after the
        line: ``table 4 (marsh goblins), number 3, distance 50 ft, reaction 4 (unfriendly)``;
        "" when the names were not recorded.

        >>> from turnkeeper.kernel.events import RollRecord
        >>> met = PendingEncounter(creature="rats", number=2, distance_ft=30, reaction="hostile")
        >>> rolls = tuple(RollRecord(expression="d6", total=t, breakdown="") for t in (1, 2, 30, 2))
        >>> names = ("table", "number", "distance", "reaction")
        >>> EncounterRolled(encounter=met, rolls=rolls, roll_names=names).rolled()
        'table 1 (rats), number 2, distance 30 ft, reaction 2 (hostile)'
        """
        if len(self.roll_names) != len(self.rolls):
            return ""
        told = {
            "table": f" ({self.encounter.creature})",
            "distance": " ft",
            "reaction": f" ({self.encounter.reaction})" if self.encounter.reaction else "",
        }
        return ", ".join(
            f"{name} {roll.total}{told.get(name, '')}"
            for name, roll in zip(self.roll_names, self.rolls, strict=True)
        )


class EncounterEnded(Event):
    """The encounter is over: back to exploring (a fight makes a rest due, EX-REST-2)."""

    kind: ClassVar[str] = "dungeon.encounter_ended"
    shown: ClassVar[Shown] = Shown.PARTY
    fought: bool = False

    def apply(self, state: CampaignState) -> CampaignState:
        return _with_visit(state, encounter=None)

    def describe(self) -> str:
        if self.fought:
            return "the encounter ends after a fight"
        return "the encounter ends without a fight: the party goes on exploring"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    SiteEntered,
    Perceived,
    SiteLeft,
    DungeonTurnTaken,
    PartyMapNoted,
    DungeonTurnPassed,
    EncounterDieRolled,
    DungeonDieRolled,
    WanderingChecked,
    OmenRolled,
    GoodEncounterRolled,
    SpellEffectsEnded,
    EncounterRolled,
    EncounterEnded,
)
