"""The campaign's state: what is true now, always the fold of the journal's events.

Nothing here changes in place: each event's ``apply`` returns a new state.
"""

from __future__ import annotations

import unicodedata

from pydantic import Field

from turnkeeper.clock.calendar import calendar, day_number, start_offset
from turnkeeper.clock.countdowns import Countdown
from turnkeeper.clock.scales import Scales
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import CombatState, Condition, Phase, Side
from turnkeeper.kernel.party import Character, Model, Monster, Party, Supplies
from turnkeeper.kernel.scene_state import SceneState
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.rules.schema import Ruleset
from turnkeeper.words import did_you_mean
from turnkeeper.world.domains import Domain
from turnkeeper.world.factions import Factions
from turnkeeper.world.visits import SiteVisit

#: What hit points make of a character (PG-HP-1): the dead are not also unconscious.
FATES = frozenset({Condition.DEAD.value, Condition.UNCONSCIOUS.value})


class LightState(Model):
    """The party's light (EX-LIGHT-1, EX-LIGHT-2, TP-ENC-2); no source means darkness.

    ``turns_left`` is None for a light that lasts until a Waning Resources face.
    ``burns_at`` is when it next loses a turn counted from when it was lit (its own turns,
    ``light.burns_down = "from_lighting"``); None for a light with no turns to count.
    """

    source: str | None = None
    radius_ft: int = 0
    turns_left: int | None = None
    burns_at: int | None = None

    @property
    def dark(self) -> bool:
        """True when no light burns: procedures that need light look here."""
        return self.source is None


class RestState(Model):
    """The party's rest cadence (EX-REST-1, EX-REST-2).

    ``active_since`` is when the party last finished resting (or started the campaign); the
    active turns of EX-REST-1 are counted from it or from entering the site, whichever is
    later, and only in a site. ``due_at`` is when a rest fell due (after 5 active turns, a
    turn of running or a fight), ``due_reason`` why, ``due_by_cadence`` True when only the
    active turns made it due (it lapses once the party is out of the site); ``resting`` is
    True while a rest is being taken. ``fed_at`` is when the party last had its day's meal
    out of a site and ``fed`` who ate it (procedures.days) (a night's healing asks, PG-HEAL-1).
    """

    active_since: int = 0
    due_at: int | None = None
    due_reason: str | None = None
    due_by_cadence: bool = False
    resting: bool = False
    fed_at: int | None = Field(None, exclude_if=lambda at: at is None)
    fed: tuple[str, ...] = Field((), exclude_if=lambda fed: not fed)


class PlaceChange(Model):
    """A party's recorded change to a place of the world: the time record's word on it.

    A place is a site's area (``site``, its ``level`` and ``area`` key) or, with ``hex``, a
    hex of a wilderness map (``site`` the map's name, ``area`` the hex's label, ``level``
    0). The world keeps every change to a place, with its game time and party (a history,
    not only the latest), so a party behind in time cannot act on what another changed after
    its present, and an earlier deed is never written over by a later command.
    """

    site: str
    level: int
    area: str
    at: int
    party: str
    what: str = "cleared"
    hex: bool = False

    @property
    def key(self) -> tuple[str, int, str, bool]:
        """Which place it is: the changes of one key are that place's history."""
        return (self.site, self.level, self.area, self.hex)

    @property
    def place(self) -> str:
        """The place as the time record names it: "area 2 of Lair", "hex 0304 of Vale"."""
        return f"{'hex' if self.hex else 'area'} {self.area} of {self.site}"


class WeatherChange(Model):
    """A change of the weather over a region of a wilderness map, with its game time and
    party: the world keeps every one, so a party behind finds it as its own time passes it,
    and no party behind changes the weather of a time another has lived there."""

    map: str
    region: str
    weather: str
    at: int
    party: str

    @property
    def place(self) -> str:
        """The place as the time record names it: "wilds of Vale" (its weather)."""
        return f"{self.region} of {self.map}"

    @property
    def what(self) -> str:
        """The change as the time record tells it, before the place: "had the weather turn
        rain over"."""
        return f"had the weather turn {self.weather.replace('_', ' ')} over"


class Whereabouts(Model):
    """What a party is doing off the procedures' maps, in the referee's words (``party
    doing``): "riding to the oracle", bound for "the oracle"; and the last place it was, so a
    party that walked out of a barrow is by the barrow, not "in town"."""

    doing: str = ""
    bound_for: str = ""
    near: str = ""


class PartyFields(Model):
    """A party's own fields, declared once: the party the referee runs has them on the state
    (:class:`CampaignState` is made of them), every other party on its away record
    (:class:`PartyAway`), and switching swaps exactly these (:meth:`CampaignState.switched_to`).

    What a split and a join do with each is the table ``procedures.parting.PARTING``, which
    refuses to load while a field here is missing from it; everything else on the state is
    the world's, the same whichever party is run.
    """

    now: int = 0
    party: Party
    supplies: Supplies = Supplies()
    monsters: tuple[Monster, ...] = ()
    light: LightState = LightState()
    rest: RestState = RestState()
    countdowns: tuple[Countdown, ...] = Field(
        (),
        description="The party's countdowns (on the state run, the world's countdowns too).",
    )
    site: SiteVisit | None = Field(None, description="The site the party is in (dungeon turns).")
    wilderness: WildernessState | None = Field(
        None, description="The wilderness map and the party on it (hex travel, TP-WIL-*)."
    )
    combat: CombatState | None = Field(
        None, description="The fight running; an ended fight is history in the journal."
    )
    scenes: SceneState = Field(
        SceneState(), description="The Dungeoneers table: seats, tokens, dread, the scene."
    )
    whereabouts: Whereabouts = Field(
        Whereabouts(), description="What the party is doing and where it is bound, in words."
    )


#: The fields a party keeps of its own; the rest of the state is the world's.
PARTY_FIELDS: tuple[str, ...] = tuple(PartyFields.model_fields)


class PartyAway(PartyFields):
    """A party the referee is not running now: its name and its own fields (its present,
    place and affairs), as the run party has them on the state."""

    name: str


class CampaignState(PartyFields):
    """Everything the procedures read, rebuilt by folding the journal without rolling again.

    A campaign is a world: the party the referee runs now has its fields here (``now``,
    ``party``, ``site``...: :class:`PartyFields`), every other party waits in ``away`` with
    its own present, and the world's own facts (its countdowns, the places parties changed)
    are shared by all.
    """

    name: str
    seed: int
    ruleset: Ruleset
    version: int = 0
    party_name: str | None = Field(
        None, description="The name of the party run now (None: the campaign's own name)."
    )
    away: tuple[PartyAway, ...] = Field(
        (), description="The other parties of the world, each at its own present."
    )
    places: tuple[PlaceChange, ...] = Field(
        (), description="Every recorded change to a place (an area, a hex), in the order made."
    )
    weather_changes: tuple[WeatherChange, ...] = Field(
        (),
        description="Every change of the weather over a map's region, in the order made: a "
        "party behind the world's present lives through the others' as its time passes them.",
    )
    factions: Factions | None = Field(
        None,
        description="The world's factions as its month turns leave them (None: none loaded).",
        exclude_if=lambda factions: factions is None,
    )
    domains: tuple[Domain, ...] = Field(
        (),
        description="The world's domains, each with its holder, coffers and people's mood.",
        exclude_if=lambda domains: not domains,
    )
    caught_up: str | None = Field(
        None,
        description="The actual date (YYYY-MM-DD) the world was last caught up to between "
        "sessions (`world catch-up`); None: never.",
        exclude_if=lambda caught_up: caught_up is None,
    )
    undoable: int | None = Field(
        None, description="The latest command an undo would take back (None: nothing to undo)."
    )
    redoable: tuple[int, ...] = Field(
        (),
        description="The commands undone since the last command done, in the order undone: "
        "a redo brings back the last (empty: nothing to redo).",
    )

    @property
    def scales(self) -> Scales:
        """Seconds in each time frame under this campaign's ruleset."""
        return Scales.of(self.ruleset.time)

    @property
    def date(self) -> str:
        """The calendar date and time now."""
        return calendar(self.now, self.ruleset.time)

    @property
    def fight_running(self) -> bool:
        """A fight has started and has not ended."""
        fight = self.combat
        return fight is not None and bool(fight.combatants) and fight.phase is not Phase.ENDED

    def check_able(self, what: str) -> None:
        """Refuse ``what`` (entering a site, clearing a place) to a party of which nobody can
        act, the dead and the unconscious (PG-HP-1): a corpse changes no place of the world."""
        if self.party.able:
            return
        fates = ", ".join(
            f"{c.name} {'dead' if not c.alive else 'unconscious'}" for c in self.party.characters
        )
        raise IllegalCommandError(
            f"nobody in {self.company} can act ({fates}), so it cannot {what}: bring one round "
            "with `heal NAME HP`, or let another party go"
        )

    @property
    def company(self) -> str:
        """The name of the party run now."""
        return self.party_name or self.name

    @property
    def record_party(self) -> str | None:
        """The party a record made now is the record of, as the journal names it: the party
        run, in a world of several parties (None while the world is one party)."""
        return self.company if self.away else None

    @property
    def companies(self) -> tuple[str, ...]:
        """Every party of the world, the one run now first."""
        return (self.company, *(p.name for p in self.away))

    @property
    def passed_by_others(self) -> int:
        """The furthest any other party has lived: the world's present but for this party.
        World time up to it has passed already (its countdowns ticked)."""
        return max((p.now for p in self.away), default=-1)

    @property
    def present(self) -> int:
        """The world's present: the furthest any party has lived."""
        return max(self.now, self.passed_by_others)

    def away_party(self, name: str) -> PartyAway:
        """The party called ``name`` that is not run now, or IllegalCommandError listing them."""
        for other in self.away:
            if same_party(other.name, name):
                return other
        if same_party(name, self.company):
            raise IllegalCommandError(f"{self.company} is the party run now")
        known = [p.name for p in self.away]
        raise IllegalCommandError(
            f"no party called {name!r}{did_you_mean(name, known)}"
            f" (the parties: {', '.join(self.companies)})"
        )

    def switched_to(self, name: str) -> CampaignState:
        """The state with the party ``name`` run, and the one run now waiting in ``away``.

        The world's countdowns stay; each party's own go with it."""
        incoming = self.away_party(name)
        mine = {f: getattr(self, f) for f in PARTY_FIELDS}
        mine["countdowns"] = tuple(c for c in self.countdowns if not c.world)
        leaving = PartyAway(name=self.company, **mine)
        world_countdowns = tuple(c for c in self.countdowns if c.world)
        theirs = {f: getattr(incoming, f) for f in PARTY_FIELDS}
        theirs["countdowns"] = world_countdowns + incoming.countdowns
        others = tuple(p if p is not incoming else leaving for p in self.away)
        return self.model_copy(update={**theirs, "party_name": incoming.name, "away": others})

    def party_of(self, character: str) -> str | None:
        """The party the character called ``character`` is with, or None."""
        if self.party.character(character) is not None:
            return self.company
        return next((p.name for p in self.away if p.party.character(character)), None)

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every character of the world (henchmen and hirelings too), party by party."""
        return tuple(
            c.name for p in (self.party, *(a.party for a in self.away)) for c in p.characters
        )

    def as_party(self, name: str) -> CampaignState:
        """The state as the party ``name`` lives it (itself if that party is run now)."""
        if same_party(name, self.company):
            return self
        return self.switched_to(name)

    def passing_to(self, to: int) -> CampaignState:
        """This state with the run party's present moved on to ``to``: the world's weather
        changes it lives through on its map (another party's, made at a later present than
        its own) become its weather as they pass."""
        state = self.model_copy(update={"now": to})
        wild = self.wilderness
        if not self.away or wild is None:
            return state
        passed = [
            c
            for c in self.weather_changes
            if self.now <= c.at <= to and c.map == wild.map.name and c.party != self.company
        ]
        if passed:
            # in game time order: the ledger is in the order made, parties at their presents
            passed.sort(key=lambda c: c.at)
            weather = {**wild.weather, **{c.region: c.weather for c in passed}}
            state = state.model_copy(update={"wilderness": wild.with_(weather=weather)})
        return state

    def changed(
        self, site: str, level: int, area: str, what: str, *, hex: bool = False
    ) -> CampaignState:
        """This state with the run party's change to a place, now, added to the place's
        history: a site's ``area`` on its ``level`` (with ``hex``, a map's hex, ``area`` its
        label). Earlier changes stay: the ledger is the world's time record of its places."""
        change = PlaceChange(
            site=site, level=level, area=area, at=self.now, party=self.company, what=what, hex=hex
        )
        return self.model_copy(update={"places": (*self.places, change)})

    def later_change(
        self, site: str, level: int, area: str, *, hex: bool = False
    ) -> PlaceChange | None:
        """The latest change another party made to one place, ``area`` of ``site`` on its
        ``level`` (with ``hex``, a map and its hex), later than now: one order of events, so
        this party may not act there until brought forward. Only that place: the rest of the
        site is open to it."""
        key = (site, level, area, hex)
        changes = [
            p for p in self.places if p.key == key and p.at > self.now and p.party != self.company
        ]
        return max(changes, key=lambda p: p.at, default=None)

    def check_in_order(self, site: str, level: int, area: str, *, hex: bool = False) -> None:
        """Refuse to act on a place (``area`` of ``site`` on its ``level``; with ``hex``, a
        map's hex) another party changed later in game time than this party's present: one
        order of events in the time record."""
        change = self.later_change(site, level, area, hex=hex)
        if change is not None:
            deed = f"{change.party} {change.what} {change.place}"
            raise self.out_of_order(self.before(deed, change.at))

    def out_of_order(self, why: str) -> IllegalCommandError:
        """The one refusal of a command that would act before another party's deed in the
        world's order of events (``why``: :meth:`before`'s words), with what to do."""
        return IllegalCommandError(f"{why}: bring {self.company} forward first (`party forward`)")

    def before(self, deed: str, at: int, lived_to: int | None = None) -> str:
        """Where this party stands in time against another party's ``deed`` done at game time
        ``at`` (``lived_to``: when the party that did it has lived it to): which place, who,
        when."""
        time = self.ruleset.time
        then, now = day_number(at, time), self.day
        # the hour too where both fall on one day, or the refusal would read "day 5 ... day 5"
        hour = (lambda at: " " + calendar(at, time).rsplit(" ", 1)[-1]) if then == now else None
        lived = "" if lived_to is None else f" and lived it to day {day_number(lived_to, time)}"
        return (
            f"{self.company} is at day {now}{hour(self.now) if hour else ''}; {deed} "
            f"on day {then}{hour(at) if hour else ''}{lived}"
        )

    def check_weather(self, map: str, region: str) -> None:
        """Refuse to change the weather over ``region`` of ``map`` now where the world's
        weather of this time is written already (:meth:`weather_lived`)."""
        lived = self.weather_lived(map, region)
        if lived is not None:
            raise self.out_of_order(lived)

    def weather_lived(self, map: str, region: str) -> str | None:
        """Why the weather over ``region`` of ``map`` now is the world's already, or None: a
        day's weather is a place, and the world lives it once. Another party changed it later
        than this party's present, or lived this time there (in its own change's weather, or
        on the map at all). The change holding now is named first, else the next one."""
        mine = self.company
        here = sorted(
            (c for c in self.weather_changes if (c.map, c.region) == (map, region)),
            key=lambda c: c.at,
        )
        ahead = {p.name: p for p in self.away if p.now > self.now}
        holding = next((c for c in reversed(here) if c.at <= self.now), None)
        if holding is not None and holding.party in ahead:
            # the weather its party lived on past this time, until the next change
            until = next((c.at for c in here if c.at > holding.at), ahead[holding.party].now)
            return self.before(self._weather_deed(holding), holding.at, until)
        later = [c for c in here if c.at > self.now and c.party != mine]
        if later:
            return self.before(self._weather_deed(later[0]), later[0].at)
        there = [p for p in ahead.values() if p.wilderness and p.wilderness.map.name == map]
        if there:
            other = max(there, key=lambda p: p.now)
            return (
                f"{mine} is at day {self.day}; {other.name} has lived to day "
                f"{day_number(other.now, self.ruleset.time)} on {map}, and the weather over "
                f"{region} with it"
            )
        return None

    @staticmethod
    def _weather_deed(change: WeatherChange) -> str:
        return f"{change.party} {change.what} {change.place}"

    def cleared(self, site: str, level: int, area: str | None) -> bool:
        """Whether a party cleared the area by now (its dwellers are met no more): a change to
        it at or before this party's present; one after it is not yet."""
        if area is None:
            return False
        key = (site, level, area, False)
        return any(p.key == key and p.at <= self.now for p in self.places)

    @property
    def day(self) -> int:
        """The campaign day now, the first being 1."""
        return day_number(self.now, self.ruleset.time)

    def character(self, name: str) -> Character:
        """The character called ``name``, or IllegalCommandError listing the party."""
        found = self.party.character(name)
        if found is None:
            known = [c.name for c in self.party.characters]
            raise IllegalCommandError(
                f"no character called {name!r} in the party{did_you_mean(name, known)}"
                f" ({', '.join(known)})"
            )
        return found

    def monster(self, name: str) -> Monster | None:
        """The monster called ``name`` (case-insensitive), or None."""
        return next((m for m in self.monsters if m.name.lower() == name.lower()), None)

    def countdown(self, name: str) -> Countdown:
        """The running countdown called ``name``, or IllegalCommandError listing them."""
        for countdown in self.countdowns:
            if countdown.name.lower() == name.lower():
                return countdown
        known = [c.name for c in self.countdowns]
        raise IllegalCommandError(
            f"no countdown called {name!r}{did_you_mean(name, known)}"
            f" (running: {', '.join(known) or 'none'})"
        )

    def with_character(self, character: Character) -> CampaignState:
        """The state with one character replaced (matched by name)."""
        characters = tuple(
            character if c.name == character.name else c for c in self.party.characters
        )
        return self.model_copy(
            update={"party": self.party.model_copy(update={"characters": characters})}
        )

    def with_monster(self, monster: Monster) -> CampaignState:
        """The state with one monster replaced or added."""
        others = tuple(m for m in self.monsters if m.name != monster.name)
        if len(others) == len(self.monsters):
            return self.model_copy(update={"monsters": (*self.monsters, monster)})
        return self.model_copy(
            update={
                "monsters": tuple(monster if m.name == monster.name else m for m in self.monsters)
            }
        )

    def with_countdowns(self, countdowns: tuple[Countdown, ...]) -> CampaignState:
        """The state with its countdowns replaced."""
        return self.model_copy(update={"countdowns": countdowns})

    def with_fight(self, fight: CombatState | None) -> CampaignState:
        """The state with its fight replaced, and the party's hit points and fates with it.

        A character's hit points are kept once, on the party (PG-HP-1): the fight's
        combatant stands for the character while it runs, and every fold step that changes
        one writes the other in the same step, so no view can read two numbers."""
        state = self.model_copy(update={"combat": fight})
        if fight is None or (
            self.combat is not None and fight.combatants is self.combat.combatants
        ):
            return state
        characters = []
        for character in self.party.characters:
            fighter = fight.find(character.name)
            if fighter is not None and fighter.side is Side.PARTY and not fighter.is_monster:
                fate = next(
                    (
                        c.value
                        for c in (Condition.DEAD, Condition.UNCONSCIOUS)
                        if c in fighter.conditions
                    ),
                    None,
                )
                character = character.model_copy(update={"hp": fighter.hp}).with_conditions(
                    add=(fate,) if fate else (), remove=tuple(sorted(FATES - {fate}))
                )
            characters.append(character)
        party = self.party.model_copy(update={"characters": tuple(characters)})
        return state.model_copy(update={"party": party})


def party_key(name: str) -> str:
    """A party's name as names are compared: composed (Unicode NFC), trimmed and case folded,
    so that "Café" typed composed or decomposed, "Grey Band " and "grey band" are one party's
    name, never two look-alike parties.

    >>> party_key(" Cafe\u0301 ") == party_key("café")
    True
    """
    folded = unicodedata.normalize("NFC", name).strip().casefold()
    return unicodedata.normalize("NFC", folded)  # case folding can decompose again


def same_party(one: str, other: str) -> bool:
    """Whether ``one`` and ``other`` name the same party (:func:`party_key`)."""
    return party_key(one) == party_key(other)


def wilderness_of(state: CampaignState) -> WildernessState:
    """The campaign's wilderness, or one clear error saying how to load a map."""
    if state.wilderness is None:
        raise IllegalCommandError(
            "the party is not on a wilderness map: "
            "load one with `turnkeeper map load FILE --at HEX`"
        )
    return state.wilderness


def in_darkness(state: CampaignState) -> bool:
    """Whether the party is in the dark where light matters: no light burns, and it is in a
    site, or in a campaign without a wilderness map (a delve). Out on the wilderness map the
    party travels by day and camps by its fire, so an unlit torch there is no alarm."""
    return state.light.dark and (state.site is not None or state.wilderness is None)


def night_of(state: CampaignState, at: int) -> int:
    """Which night an instant belongs to (TP-WENC-1/-2 "at the night camp"): nights run noon
    to noon and are numbered by the calendar day of their evening, so a camp made late or
    after midnight and the midnight a wait passes are the same night."""
    day = state.scales.day
    return (at + start_offset(state.ruleset.time) - day // 2) // day


def with_wilderness(state: CampaignState, wild: WildernessState) -> CampaignState:
    """The campaign state with its wilderness replaced."""
    return state.model_copy(update={"wilderness": wild})
