"""What a split and a join do with each of a party's fields: one table, :data:`PARTING`.

A party's fields are declared once (:class:`~turnkeeper.kernel.state.PartyFields`); this
table says for every one of them what a split does (``carry``: both parties carry it on;
``divide``: the leavers take their part; ``keep``: it stays with the party that stays, the
leavers start without; ``refuse``: no split while it is set) and what a join does (``same``:
both must have it alike, or the join is refused; ``merge``: the joined party has both
parties'; ``refuse``: no join while the joiners have it). The split and the join are driven
by the table, never by fields picked by hand, and the module refuses to load while a field
is missing from it, so a field added to a party cannot be silently shared or dropped.

The project's reading of "a pending encounter, a fight or a scene belongs to one party"
(``docs/rules.md``, *A world of parties*): a split leaves a pending encounter with the party
that stays (the leavers slip away; they do not take the monster); a split waits while a
fight runs, or while a leaver plays in the scene in play (close it first); a join carries
whatever the joiners bring (a burning light, a pending encounter, what they found, a rest
due, the monsters they met, their seats and the dread of their table), and is refused, with
what to do first, where the joined party could hold only one of two (two lights, two
encounters, two fights, two scenes, two countdowns or monsters of one name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from turnkeeper.clock.countdowns import Countdown
from turnkeeper.kernel.combat_state import CombatState, Phase
from turnkeeper.kernel.party import Monster, Party, Supplies
from turnkeeper.kernel.scene_state import SceneState
from turnkeeper.kernel.state import PARTY_FIELDS, LightState, RestState
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.words import of_creature, of_item, singular, words
from turnkeeper.world.visits import SiteVisit

SplitWord = Literal["carry", "divide", "keep", "refuse"]
JoinWord = Literal["same", "merge", "refuse"]


@dataclass(frozen=True)
class Leaving:
    """Who leaves the party run now in a split, and what they take (for :attr:`Parting.part`)."""

    characters: frozenset[str]
    supplies: Supplies
    party: str
    """The party that stays (for the refusals' words)."""

    def goes(self, name: str) -> bool:
        """Whether ``name`` (a character, a player's seat) leaves, names read as one."""
        return name.casefold() in self.folded

    @property
    def folded(self) -> frozenset[str]:
        """The leavers' names, case folded."""
        return frozenset(n.casefold() for n in self.characters)


@dataclass(frozen=True)
class Joining:
    """The two parties of a join, by name (for the refusals' words)."""

    ours: str
    theirs: str


def _both(value: Any, leaving: Leaving) -> tuple[Any, Any]:
    return value, value


def _ours(ours: Any, theirs: Any) -> Any:
    return ours


def _no_balk(value: Any, leaving: Leaving) -> str | None:
    return None


def _no_clash(ours: Any, theirs: Any, joining: Joining) -> str | None:
    return None


def _nothing(ours: Any, theirs: Any) -> str | None:
    return None


@dataclass(frozen=True)
class Parting:
    """What a split and a join do with one of a party's fields.

    ``part`` gives what stays and what the leavers take; ``balk`` why a split must wait (what
    to do first), or None. ``meet`` gives the joined party's value from the party run now's
    and the joiners'; ``clash`` why a join must wait, or None; ``brings`` what the joiners
    bring, in the join's line, or None.
    """

    split: SplitWord
    join: JoinWord
    part: Callable[[Any, Leaving], tuple[Any, Any]] = _both
    meet: Callable[[Any, Any], Any] = _ours
    balk: Callable[[Any, Leaving], str | None] = _no_balk
    clash: Callable[[Any, Any, Joining], str | None] = _no_clash
    brings: Callable[[Any, Any], str | None] = _nothing


# --- the party: its characters, what it carries, the monsters it met ------------------------


def _part_party(party: Party, leaving: Leaving) -> tuple[Party, Party]:
    stay = tuple(c for c in party.characters if c.name not in leaving.characters)
    going = tuple(c for c in party.characters if c.name in leaving.characters)
    leader = party.leader if party.leader not in leaving.characters else stay[0].name
    kept = party.model_copy(update={"characters": stay, "leader": leader})
    return kept, Party(characters=going, supplies=leaving.supplies)


def _meet_party(ours: Party, theirs: Party) -> Party:
    return ours.model_copy(update={"characters": (*ours.characters, *theirs.characters)})


def less(supplies: Supplies, taken: Supplies) -> Supplies:
    """What is left of ``supplies`` once ``taken`` is taken: a usage die taken goes whole."""
    counted = {k: v - taken.counted.get(k, 0) for k, v in supplies.counted.items()}
    dice = {k: v for k, v in supplies.dice.items() if k not in taken.dice}
    return supplies.model_copy(update={"counted": counted, "dice": dice})


def more(supplies: Supplies, added: Supplies) -> Supplies:
    """``supplies`` and ``added`` together: counts add up, of two usage dice for one item the
    larger is kept (the fuller stock: PG-USE-1 has no rule for pooling two)."""
    counted = dict(supplies.counted)
    for item, count in added.counted.items():
        counted[item] = counted.get(item, 0) + count
    dice = dict(supplies.dice)
    for item, sides in added.dice.items():
        dice[item] = max(sides, dice.get(item, 0))
    return supplies.model_copy(update={"counted": counted, "dice": dice})


def supplies_text(supplies: Supplies) -> str:
    """Supplies in words: "6 rations, 2 torches, arrows d8"."""
    counted = [of_item(n, words(item)) for item, n in supplies.counted.items() if n]
    return ", ".join(counted + [f"{words(item)} d{n}" for item, n in supplies.dice.items()])


def _part_supplies(supplies: Supplies, leaving: Leaving) -> tuple[Supplies, Supplies]:
    return less(supplies, leaving.supplies), leaving.supplies


def _monsters_clash(
    ours: tuple[Monster, ...], theirs: tuple[Monster, ...], joining: Joining
) -> str | None:
    known = {m.name.casefold(): m for m in ours}
    for monster in theirs:
        mine = known.get(monster.name.casefold())
        if mine is not None and mine != monster:
            return (
                f"{joining.ours} and {joining.theirs} each know a monster called "
                f"{monster.name!r}, not alike: the joined party can hold one (give one of them "
                "another name first)"
            )
    return None


def _meet_monsters(ours: tuple[Monster, ...], theirs: tuple[Monster, ...]) -> tuple[Monster, ...]:
    known = {m.name.casefold() for m in ours}
    return (*ours, *(m for m in theirs if m.name.casefold() not in known))


def _monsters_brought(ours: tuple[Monster, ...], theirs: tuple[Monster, ...]) -> str | None:
    known = {m.name.casefold() for m in ours}
    new = [m.name for m in theirs if m.name.casefold() not in known]
    return f"the monsters met: {', '.join(new)}" if new else None


# --- light, rest, countdowns ------------------------------------------------------------------


def _light_clash(ours: LightState, theirs: LightState, joining: Joining) -> str | None:
    if ours.dark or theirs.dark:
        return None
    return (
        f"{joining.ours} and {joining.theirs} each have a light burning, and a party has one: "
        f'douse one first (`light --douse --as "{joining.theirs}"`)'
    )


def _meet_light(ours: LightState, theirs: LightState) -> LightState:
    return theirs if ours.dark else ours


def _light_brought(ours: LightState, theirs: LightState) -> str | None:
    if theirs.dark or not ours.dark:
        return None
    left = (
        "until resources wane"
        if theirs.turns_left is None
        else f"{theirs.turns_left} turn{'' if theirs.turns_left == 1 else 's'} left"
    )
    return f"a {words(theirs.source)} burning ({left})"


def _meet_rest(ours: RestState, theirs: RestState) -> RestState:
    """The wearier party's count: a rest falls due for the joined party when one of its
    members' would (EX-REST-1, EX-REST-2)."""
    due = min(
        (r for r in (ours, theirs) if r.due_at is not None),
        key=lambda r: r.due_at or 0,
        default=ours,
    )
    return ours.model_copy(
        update={
            "active_since": min(ours.active_since, theirs.active_since),
            "due_at": due.due_at,
            "due_reason": due.due_reason,
            "due_by_cadence": due.due_by_cadence,
            "resting": ours.resting or theirs.resting,
            "fed_at": max((r.fed_at for r in (ours, theirs) if r.fed_at is not None), default=None),
            "fed": (*ours.fed, *(name for name in theirs.fed if name not in ours.fed)),
        }
    )


def _rest_brought(ours: RestState, theirs: RestState) -> str | None:
    if theirs.due_at is None or ours.due_at is not None:
        return None
    return f"a rest due ({theirs.due_reason})" if theirs.due_reason else "a rest due"


def _part_countdowns(
    countdowns: tuple[Countdown, ...], leaving: Leaving
) -> tuple[tuple[Countdown, ...], tuple[Countdown, ...]]:
    # the party's own countdowns are the staying party's affairs; the world's stay with the world
    return countdowns, ()


def _countdowns_clash(
    ours: tuple[Countdown, ...], theirs: tuple[Countdown, ...], joining: Joining
) -> str | None:
    names = {c.name.casefold() for c in ours}
    both = next((c.name for c in theirs if c.name.casefold() in names), None)
    if both is None:
        return None
    return (
        f"{joining.ours} and {joining.theirs} each keep a countdown called {both!r}: end one "
        f'first (`countdown end "{both}" --as "{joining.theirs}"`)'
    )


def _meet_countdowns(
    ours: tuple[Countdown, ...], theirs: tuple[Countdown, ...]
) -> tuple[Countdown, ...]:
    return (*ours, *theirs)


def _countdowns_brought(ours: tuple[Countdown, ...], theirs: tuple[Countdown, ...]) -> str | None:
    return f"countdowns {', '.join(c.name for c in theirs)}" if theirs else None


# --- where the party is: a site, the wilderness ----------------------------------------------


def _part_site(
    site: SiteVisit | None, leaving: Leaving
) -> tuple[SiteVisit | None, SiteVisit | None]:
    if site is None or site.encounter is None:
        return site, site
    # the encounter pending is the staying party's: the leavers slip away, the monster stays
    return site, site.model_copy(update={"encounter": None})


def _site_clash(ours: SiteVisit | None, theirs: SiteVisit | None, joining: Joining) -> str | None:
    if ours is None or theirs is None or ours.encounter is None or theirs.encounter is None:
        return None
    return (
        f"{joining.ours} and {joining.theirs} each face an encounter, and a party faces one: "
        f'settle {joining.theirs}\'s first (`combat start --as "{joining.theirs}"`, or '
        f'`site resume --as "{joining.theirs}"`)'
    )


def _meet_site(ours: SiteVisit | None, theirs: SiteVisit | None) -> SiteVisit | None:
    if ours is None or theirs is None:
        return ours
    visited = (*ours.visited, *(v for v in theirs.visited if v not in ours.visited))
    notes = (*ours.map_notes, *(n for n in theirs.map_notes if n not in ours.map_notes))
    return ours.model_copy(
        update={
            "visited": visited,
            "map_notes": notes,
            "encounter": ours.encounter or theirs.encounter,
        }
    )


def _site_brought(ours: SiteVisit | None, theirs: SiteVisit | None) -> str | None:
    if ours is None or theirs is None:
        return None
    told = []
    if theirs.encounter is not None and ours.encounter is None:
        met = theirs.encounter
        if met.described:  # the site's own words ("3 ghouls"), not a count of a creature
            many = met.creature
        elif met.number == 1:
            many = singular(met.creature)
        else:
            many = of_creature(met.number, met.creature)
        told.append(f"the encounter with {many}")
    areas = [v for v in theirs.visited if v not in ours.visited]
    notes = [n for n in theirs.map_notes if n not in ours.map_notes]
    if areas:
        told.append(f"{len(areas)} area{'' if len(areas) == 1 else 's'} explored")
    if notes:
        told.append(f"{len(notes)} map note{'' if len(notes) == 1 else 's'}")
    return ", ".join(told) or None


def _wilderness_clash(
    ours: WildernessState | None, theirs: WildernessState | None, joining: Joining
) -> str | None:
    if ours is None or theirs is None:
        return None
    if ours.map.name != theirs.map.name:
        return (
            f"{joining.theirs} is on the map {theirs.map.name!r} and {joining.ours} on "
            f"{ours.map.name!r}: parties join where they meet"
        )
    if theirs.pending is not None and theirs.pending != ours.pending:
        return (
            f"{joining.theirs} is on its way into hex {theirs.pending.to.label}: finish its "
            f'move first (`travel {theirs.pending.to.label} --as "{joining.theirs}"`)'
        )
    return None


def _meet_wilderness(
    ours: WildernessState | None, theirs: WildernessState | None
) -> WildernessState | None:
    """What both found, and the day's travel of the one that went furthest (the joined party
    has spent what either did: TP-WIL-1, TP-WIL-7, TP-LOST-1)."""
    if ours is None or theirs is None:
        return ours
    camp = [n for n in (ours.camp_rolled, theirs.camp_rolled) if n is not None]
    done = set(ours.checks_done)
    return ours.with_(
        visited=ours.visited | theirs.visited,
        seen=ours.seen | theirs.seen,
        found=ours.found | theirs.found,
        tp_spent=max(ours.tp_spent, theirs.tp_spent),
        movement_points=max(ours.movement_points, theirs.movement_points),
        checks_done=(*ours.checks_done, *(c for c in theirs.checks_done if c not in done)),
        lost_checked=ours.lost_checked or theirs.lost_checked,
        forage_owed=ours.forage_owed or theirs.forage_owed,
        camp_rolled=max(camp) if camp else None,
    )


def _wilderness_brought(ours: WildernessState | None, theirs: WildernessState | None) -> str | None:
    if ours is None or theirs is None:
        return None
    told = []
    hexes = len(theirs.visited - ours.visited)
    found = len(theirs.found - ours.found)
    if hexes:
        told.append(f"{hexes} hex{'' if hexes == 1 else 'es'} visited")
    if found:
        told.append(f"{found} feature{'' if found == 1 else 's'} found")
    return ", ".join(told) or None


# --- a fight, a scene -----------------------------------------------------------------------


def _running(fight: CombatState | None) -> bool:
    return fight is not None and bool(fight.combatants) and fight.phase is not Phase.ENDED


def _part_combat(
    fight: CombatState | None, leaving: Leaving
) -> tuple[CombatState | None, CombatState | None]:
    return fight, None


def _combat_balk(fight: CombatState | None, leaving: Leaving) -> str | None:
    if not _running(fight):
        return None
    return f"{leaving.party} is fighting: end the fight before the party splits"


def _combat_clash(
    ours: CombatState | None, theirs: CombatState | None, joining: Joining
) -> str | None:
    if _running(ours):
        return f"{joining.ours} is fighting: end the fight before another party joins it"
    if _running(theirs):
        return f"{joining.theirs} is fighting: end its fight first"
    return None


def _part_scenes(scenes: SceneState, leaving: Leaving) -> tuple[SceneState, SceneState]:
    """The leavers' seats (and their spotlight tokens) go with them; the scene in play, the
    dread and what it bought stay at the table of the party that stays."""
    kept = tuple(s for s in scenes.seats if not leaving.goes(s.name))
    if len(kept) == len(scenes.seats):
        return scenes, SceneState(scenes_opened=scenes.scenes_opened)
    going = tuple(s for s in scenes.seats if leaving.goes(s.name))
    return (
        scenes.model_copy(update={"seats": kept}),
        SceneState(seats=going, scenes_opened=scenes.scenes_opened),
    )


def _scenes_balk(scenes: SceneState, leaving: Leaving) -> str | None:
    scene = scenes.scene
    if scene is None:
        return None
    playing = [p for p in scene.players if leaving.goes(p)]
    if not playing:
        return None
    return (
        f"{', '.join(playing)} {'plays' if len(playing) == 1 else 'play'} in the scene in "
        f"play: close the scene first (`scene close`), then split"
    )


def _scenes_clash(ours: SceneState, theirs: SceneState, joining: Joining) -> str | None:
    if theirs.scene is None:
        return None
    return (
        f"{joining.theirs} has a scene in play: close it first "
        f'(`scene close --as "{joining.theirs}"`)'
    )


def _meet_scenes(ours: SceneState, theirs: SceneState) -> SceneState:
    sitting = {s.name for s in ours.seats}
    return ours.model_copy(
        update={
            "seats": (*ours.seats, *(s for s in theirs.seats if s.name not in sitting)),
            "dread": ours.dread + theirs.dread,
            "bought": (*ours.bought, *theirs.bought),
            "scenes_opened": max(ours.scenes_opened, theirs.scenes_opened),
        }
    )


def _scenes_brought(ours: SceneState, theirs: SceneState) -> str | None:
    sitting = {s.name for s in ours.seats}
    told = [f"{s.name}'s seat" for s in theirs.seats if s.name not in sitting]
    if theirs.dread:
        told.append(f"{theirs.dread} dread")
    return ", ".join(told) or None


#: What a split and a join do with each of a party's fields (the module docstring's words).
PARTING: dict[str, Parting] = {
    "now": Parting("carry", "same"),
    "party": Parting("divide", "merge", part=_part_party, meet=_meet_party),
    "supplies": Parting(
        "divide",
        "merge",
        part=_part_supplies,
        meet=more,
        brings=lambda ours, theirs: supplies_text(theirs) or None,
    ),
    "monsters": Parting(
        "keep",
        "merge",
        part=lambda monsters, leaving: (monsters, ()),
        meet=_meet_monsters,
        clash=_monsters_clash,
        brings=_monsters_brought,
    ),
    "light": Parting(
        "keep",
        "merge",
        part=lambda light, leaving: (light, LightState()),
        meet=_meet_light,
        clash=_light_clash,
        brings=_light_brought,
    ),
    "rest": Parting("carry", "merge", meet=_meet_rest, brings=_rest_brought),
    "countdowns": Parting(
        "keep",
        "merge",
        part=_part_countdowns,
        meet=_meet_countdowns,
        clash=_countdowns_clash,
        brings=_countdowns_brought,
    ),
    "site": Parting(
        "carry", "merge", part=_part_site, meet=_meet_site, clash=_site_clash, brings=_site_brought
    ),
    "wilderness": Parting(
        "carry", "merge", meet=_meet_wilderness, clash=_wilderness_clash, brings=_wilderness_brought
    ),
    "combat": Parting(
        "refuse", "refuse", part=_part_combat, balk=_combat_balk, clash=_combat_clash
    ),
    "scenes": Parting(
        "divide",
        "merge",
        part=_part_scenes,
        meet=_meet_scenes,
        balk=_scenes_balk,
        clash=_scenes_clash,
        brings=_scenes_brought,
    ),
    # the leavers go on doing what the party did until told otherwise; the joined party
    # does what the party run now does
    "whereabouts": Parting("carry", "merge"),
}


def check_parting(table: dict[str, Parting], fields: tuple[str, ...]) -> None:
    """Raise TypeError unless ``table`` says what a split and a join do with exactly the
    party's ``fields``: a field added to a party and not here would be silently shared."""
    missing = [f for f in fields if f not in table]
    extra = [f for f in table if f not in fields]
    if missing or extra:
        raise TypeError(
            "procedures.parting.PARTING must name each of a party's fields (PartyFields): "
            + "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"not a party's field: {', '.join(extra)}" if extra else "",
                )
                if part
            )
        )


check_parting(PARTING, PARTY_FIELDS)
