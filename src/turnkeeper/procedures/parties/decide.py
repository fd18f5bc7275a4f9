"""The procedures of a world of parties: each command checked against the state (one clear
refusal, nothing changed) and turned into its events; bringing a party forward passes its days.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from turnkeeper.clock.calendar import day_number
from turnkeeper.clock.durations import format_duration
from turnkeeper.dice import DiceSource
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files.names import check_name, unprintable
from turnkeeper.kernel.events import Event
from turnkeeper.kernel.party import MAX_CHARACTERS, Party, Supplies
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState, PartyAway, PartyFields, party_key, same_party
from turnkeeper.procedures.days import pass_days
from turnkeeper.procedures.parties.commands import (
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
from turnkeeper.procedures.parting import PARTING, Joining, Leaving, supplies_text
from turnkeeper.words import words
from turnkeeper.world.hexes import Hex


def decide_parties(draft: Draft, command: PartyCommand, dice: DiceSource) -> None:
    """Dispatch a party command to its procedure (for the command table's ``decide``)."""
    state = draft.state
    if isinstance(command, NewParty):
        _newcomers(state, command.party)
    if isinstance(command, SplitParty):
        draft.add(split(state, command.name, command.characters, command.supplies, command.whole))
    elif isinstance(command, NewParty):
        name = _new_name(state, command.name)
        # the party run now did not see them come: a new party is the referee's news
        arrived = PartyArrived(name=name, party=command.party, at=state.present)
        draft.add(arrived)
    elif isinstance(command, SwitchParty):
        if same_party(command.name, state.company):
            raise IllegalCommandError(f"{state.company} is the party run now: nothing to switch")
        draft.add(*switch(state, command.name))
    elif isinstance(command, JoinParty):
        draft.add(join(state, command.name))
    elif isinstance(command, ShareKnowledge):
        draft.add(share(state, command.name))
    elif isinstance(command, ClearArea):
        draft.add(clear_area(state, command.area, command.level, command.what))
    elif isinstance(command, ClearHex):
        draft.add(clear_hex(state, command.hex, command.what))
    elif isinstance(command, SetDoing):
        draft.add(occupied(state, command.doing, command.bound_for))
    else:
        bring_forward(draft, command.days, dice)


def occupied(state: CampaignState, doing: str, bound_for: str) -> PartyOccupied:
    """What the party run now is doing, told in words; refused where nothing would change."""
    doing, bound_for = " ".join(doing.split()), " ".join(bound_for.split())
    for text, what in ((doing, "what the party is doing"), (bound_for, "where it is bound")):
        if any(not c.isprintable() for c in text):
            raise IllegalCommandError(f"{what}: write it in words, without control characters")
        if len(text) > 200:
            raise IllegalCommandError(f"{what}: {len(text)} characters; say it in 200 at most")
    if bound_for and not doing:
        raise IllegalCommandError(
            'say what the party is doing on the way too: `party doing "riding north" --to '
            f'"{bound_for}"`'
        )
    told = state.whereabouts
    if (told.doing, told.bound_for) == (doing, bound_for):
        raise IllegalCommandError(
            f"{state.company} is already {doing}" if doing else "nothing is told of it already"
        )
    return PartyOccupied(doing=doing, bound_for=bound_for)


def switch(state: CampaignState, name: str) -> list[Event]:
    """Turn to the party ``name`` (nothing to record if it is the one run now)."""
    if same_party(name, state.company):
        return []
    return [PartySwitched(to=state.away_party(name).name)]


def _new_name(state: CampaignState, name: str) -> str:
    """A new party's name as it is kept: composed (NFC) and trimmed; one that names a party
    of the world as names are compared (:func:`party_key`: "Café" either way, "Grey Band ")
    is refused, so no two parties look alike."""
    check_name(name, "party name", IllegalCommandError)
    taken = next((n for n in state.companies if party_key(n) == party_key(name)), None)
    if taken is not None:
        same = "" if taken == name else f" (as {taken!r})"
        raise IllegalCommandError(
            f"a party called {name!r} is already in the world{same}: give the new party "
            "another name"
        )
    return unicodedata.normalize("NFC", name).strip()


def _newcomers(state: CampaignState, party: Party) -> None:
    """Refuse newcomers named as a character of the world: a name is one character; and
    newcomers beyond the world's :data:`MAX_CHARACTERS`."""
    everyone = state.everyone
    if len(everyone) + len(party.characters) > MAX_CHARACTERS:
        raise IllegalCommandError(
            f"the world has {len(everyone)} characters and {len(party.characters)} more would "
            f"make {len(everyone) + len(party.characters)}; a world holds at most "
            f"{MAX_CHARACTERS} (docs/party.md): bring fewer newcomers, or play them in a "
            "campaign of their own"
        )
    known = {name.casefold() for name in everyone}
    taken = [c.name for c in party.characters if c.name.casefold() in known]
    if taken:
        raise IllegalCommandError(
            f"{', '.join(taken)}: already a character of the world (with "
            f"{state.party_of(taken[0])}): give the newcomers names of their own"
        )


def _no_fight(state: CampaignState, what: str) -> None:
    if state.fight_running:
        raise IllegalCommandError(f"{state.company} is fighting: end the fight before {what}")


def split(
    state: CampaignState,
    name: str,
    characters: tuple[str, ...],
    supplies: Mapping[str, int],
    whole: tuple[str, ...] = (),
) -> PartySplit:
    """Characters of the party run now leave it as the party ``name``.

    The leavers take counted supplies by count, and a usage-die supply whole: the project's
    reading of PG-USE-1, whose die tracks one stock and cannot be divided, so it goes to one
    side of a split, the leavers' where they take it.
    """
    name = _new_name(state, name)
    if not characters:
        raise IllegalCommandError("name the characters who leave: `party split NAME Aldo,Bea`")
    going = tuple(dict.fromkeys(state.character(c).name for c in characters))
    if len(going) == len(state.party.characters):
        raise IllegalCommandError(
            f"everyone would leave {state.company}: leave someone behind, or rename nothing "
            "and go on as one party"
        )
    carried = state.supplies
    counted: dict[str, int] = {}
    for item, amount in supplies.items():
        has = carried.count(item)
        if has == 0 and item in carried.dice:
            raise IllegalCommandError(
                f"{state.company} carries {words(item)} as a usage die (d{carried.dice[item]}), "
                f"which cannot be divided: it goes whole to one side; write --take {item} for "
                "the leavers to take it all, or leave it out to keep it (PG-USE-1)"
            )
        if amount < 1 or amount > has:
            raise IllegalCommandError(
                f"{state.company} carries {has} {item}: the leavers can take 1 to {has}"
            )
        counted[item] = amount
    dice: dict[str, int] = {}
    for item in whole:
        if item not in carried.dice:
            has = carried.count(item)
            raise IllegalCommandError(
                f"{state.company} carries {has} {words(item)}, counted, not a usage die: write "
                f"--take {item}=N, 1 to {has}"
                if has
                else f"{state.company} carries no {words(item)}; it carries "
                f"{supplies_text(carried) or 'nothing'}"
            )
        dice[item] = carried.dice[item]
    taken = Supplies(counted=counted, dice=dice)
    leaving = Leaving(frozenset(going), taken, state.company)
    for field_name, parting in PARTING.items():
        balked = parting.balk(getattr(state, field_name), leaving)
        if balked is not None:
            raise IllegalCommandError(balked)
    return PartySplit(name=name, left=state.company, characters=going, supplies=taken)


def _place(state: PartyFields) -> tuple[object, ...]:
    site = state.site
    hex_ = state.wilderness.position if state.wilderness is not None else None
    if site is None:
        return (None, hex_)
    return (site.site.name, site.level, site.area, hex_)


def where(state: PartyFields) -> str:
    """Where a party is, in words: a site's area, a hex; off every map, on its way where it
    is bound, by the site it last left, or in town."""
    site = state.site
    if site is not None:
        area = f", area {site.area}" if site.area else ""
        return f"in {site.site.name} (level {site.level}{area})"
    if state.wilderness is not None:
        return f"at hex {state.wilderness.position.label}"
    told = state.whereabouts
    if told.bound_for:
        return f"on the way to {told.bound_for}"
    if told.near:
        return f"by {told.near}"
    return "in town"


def join(state: CampaignState, name: str) -> PartiesJoined:
    """The party ``name`` joins the party run now, if they stand at the same place and time."""
    other = state.away_party(name)
    joining = Joining(state.company, other.name)
    fights = PARTING["combat"].clash(state.combat, other.combat, joining)
    if fights is not None:
        raise IllegalCommandError(fights)
    if other.now != state.now:
        behind, ahead = (other, state) if other.now < state.now else (state, other)
        behind_name = behind.name if isinstance(behind, PartyAway) else state.company
        ahead_name = ahead.name if isinstance(ahead, PartyAway) else state.company
        days = _days_between(state, behind.now, ahead.now)
        raise IllegalCommandError(
            f"{behind_name} is {days} behind {ahead_name}: characters who join must first be "
            f'brought to the same time (`party forward --as "{behind_name}"`)'
        )
    if _place(other) != _place(state):
        raise IllegalCommandError(
            f"{other.name} is {where(other)} and {state.company} {where(state)}: parties join "
            "where they meet"
        )
    brought: list[str] = []
    for field_name, parting in PARTING.items():
        ours, theirs = getattr(state, field_name), getattr(other, field_name)
        clash = parting.clash(ours, theirs, joining)
        if clash is not None:
            raise IllegalCommandError(clash)
        told = parting.brings(ours, theirs)
        if told is not None:
            brought.append(told)
    return PartiesJoined(name=other.name, into=state.company, brought=tuple(brought))


def share(state: CampaignState, name: str) -> KnowledgeShared:
    """The party run now shares what it found with the party ``name``: on the map both
    travel, in the site both stand in; never with a party behind in time, which would learn
    what was not found yet at its present."""
    other = state.away_party(name)
    if other.now < state.now:
        days = _days_between(state, other.now, state.now)
        raise IllegalCommandError(
            f"{other.name} is {days} behind {state.company}: what {state.company} found was "
            f"not found yet at its present; bring it forward first (`party forward --as "
            f'"{other.name}"`)'
        )
    mine, theirs = state.wilderness, other.wilderness
    same_map = mine is not None and theirs is not None and mine.map.name == theirs.map.name
    here, there = state.site, other.site
    same_site = here is not None and there is not None and here.site.name == there.site.name
    if not same_map and not same_site:
        raise IllegalCommandError(
            f"{state.company} and {other.name} share no map: what a party finds is shared on "
            "a wilderness map both travel, or in a site both are in"
        )
    return KnowledgeShared(to=other.name, giver=state.company)


def clear_area(state: CampaignState, area: str | None, level: int | None, what: str) -> AreaCleared:
    """The party run now cleared an area of its site: one it may act on (no other party
    changed it later in game time)."""
    visit = state.site
    if visit is None:
        raise IllegalCommandError(f"{state.company} is in no site: `site enter` first")
    state.check_able("clear an area")
    number = visit.level if level is None else level
    key = visit.area if area is None else area
    if key is None:
        raise IllegalCommandError("name the area the party cleared: `site clear AREA`")
    visit.site.level(number).area(key)  # an unknown area is refused, with the known ones
    # one order of events: never over another party's later deed there, wherever this
    # party stands (the deed stays the area's history; a party behind acts before it)
    state.check_in_order(visit.site.name, number, key)
    return AreaCleared(site=visit.site.name, level=number, area=key, what=_what_was_done(what))


def clear_hex(state: CampaignState, label: str | None, what: str) -> HexCleared:
    """The party run now cleared a hex of its map: one it may act on (no other party changed
    it later in game time)."""
    wild = state.wilderness
    if wild is None:
        raise IllegalCommandError(f"{state.company} is on no map: `map load` first")
    state.check_able("clear a hex")
    place = wild.position if label is None else Hex.from_label(label)
    if place not in wild.hexmap:
        raise IllegalCommandError(f"hex {label} is off the map {wild.map.name!r}")
    state.check_in_order(wild.map.name, 0, place.label, hex=True)
    return HexCleared(map=wild.map.name, hex=place.label, what=_what_was_done(what))


def _what_was_done(what: str) -> str:
    """``--what`` as the ledger keeps it: printable text on one line (an escape would drive
    the referee's terminal when the log shows it, a new line would break the log's line), its
    blanks made single; "cleared" when it says nothing."""
    hidden = unprintable(what)
    if hidden is not None:
        raise IllegalCommandError(
            f"--what {what[:40]!r} holds {hidden}; say what was done in printable text on one line"
        )
    return " ".join(what.split()) or "cleared"


def bring_forward(draft: Draft, days: int | None, dice: DiceSource) -> None:
    """Downtime: the days pass as every command's days pass (:func:`days.pass_days`)."""
    state = draft.state
    _no_fight(state, "downtime")
    if state.site is not None:
        raise IllegalCommandError(
            f"{state.company} is in {state.site.site.name}: downtime is spent out of sites "
            "(`site leave` first)"
        )
    day = state.scales.day
    if days is None:
        seconds = state.present - state.now
        if seconds <= 0:
            raise IllegalCommandError(
                f"{state.company} is at the world's present already ({state.date}): "
                "give the days to spend (`party forward --days N`)"
            )
    elif days < 1:
        raise IllegalCommandError(f"downtime lasts at least 1 day, not {days}")
    else:
        seconds = days * day
    if seconds > state.ruleset.time.longest_wait:
        raise IllegalCommandError(
            "one command passes at most "
            f"{state.ruleset.time.longest_wait // day:,} days of game time (the ruleset's "
            "time.max_wait_days): bring the party forward in shorter steps"
        )
    whole, part = divmod(seconds, day)
    told = state.whereabouts
    where_now = (
        "in the wilderness"
        if state.wilderness is not None
        else f"by {told.near}"
        if told.near and not told.bound_for
        else "in town"
    )
    draft.add(DowntimeBegun(party=state.company, days=whole, where=where_now, seconds_more=part))
    # an encounter stops the days there: the referee plays it out
    pass_days(draft, seconds, dice, downtime=True)


def _days_between(state: CampaignState, earlier: int, later: int) -> str:
    time = state.ruleset.time
    days = day_number(later, time) - day_number(earlier, time)
    if days == 0:
        return format_duration(later - earlier)
    return "1 day" if days == 1 else f"{days} days"
