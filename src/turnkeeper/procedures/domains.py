"""The domain turn: a character's domain settled each month (TP-TIME-1: "Haven/Domain Turn:
1 month").

The texts give only the scale; the procedure is the project's own, every number in the
ruleset's ``domains`` section (:class:`~turnkeeper.rules.schema.DomainRules`, DEFAULT):

- A domain is a hex of a map some party of the world is on, or a site the world knows (one
  a party is in, a place of the ledger, a faction's holding), granted to a character
  (``domain grant``). The grant is an event of the holder's life: it is made in the record
  of the party the holder is with (sent ``--as`` that party), and only in the world's month
  (a party behind the world's last month turn is brought forward first, or the month turns
  the world lived would have passed the domain by).
- The domain is the world's, as a faction is: the month turn settles it as the world's
  present passes a month's boundary, once, whichever party moves the world there. It keeps
  its own coffers, so the month turn never writes into the fields of a party living at
  another time: the people's mood is rolled (MOOD: last month's row's carry, and
  ``domains.unpaid`` where last month's upkeep went short), the month's income rolled and
  its share by the mood's row let in, and the upkeep paid from the coffers, as much as they
  hold. Rows may bring trouble, for the referee to play out. A dead holder's domain is not
  settled (the texts are silent; DEFAULT): the month turn records it left as it is, until
  the referee gives it up to grant it to another. A settlement's figures are what
  its own dice make by the ruleset: an import refuses one that says otherwise.
- A settlement is the referee's (:attr:`DomainSettled.shown`): it is recorded in the time
  record of whichever party's wait passes the boundary, which may be a party that has
  nothing to do with the domain, at a time the holder's party has not lived yet. The
  holder's players hear of their domain when the holder draws from its coffers
  (``domain collect``, in their own record, at their own present): the steward's account
  of the coffers and the people's mood.
- A draw is refused to a party whose present is behind the ledger's latest entry: the coins
  of a month it has not lived are not its yet (one order of events; ``party forward``
  first). Where the coin travels is the referee's: the maps have no settlements, so the
  referee runs ``domain collect`` when the holder comes home or sends for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.clock.calendar import date_at
from turnkeeper.dice import DiceSource, Roll, TypedDice, roll
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.files.names import check_name, unprintable
from turnkeeper.kernel.events import Amount, Event, RollRecord, Shown, Text
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.procedures.haven import CoinsChanged
from turnkeeper.rules.schema.domains import MOOD, DomainRules
from turnkeeper.words import did_you_mean
from turnkeeper.world.domains import MOST_DOMAINS, Domain, named, replaced
from turnkeeper.world.hexes import Hex

# --- events -------------------------------------------------------------------------------


class DomainGranted(Event):
    """A character is granted a domain: a hex of a map, or a site."""

    kind: ClassVar[str] = "domain.granted"
    shown: ClassVar[Shown] = Shown.PARTY
    domain: str
    holder: str
    map: str | None = None
    hex: str | None = None
    site: str | None = None
    coffers: Amount = 0

    def apply(self, state: CampaignState) -> CampaignState:
        domain = Domain(
            name=self.domain, holder=self.holder, map=self.map, hex=self.hex, site=self.site,
            granted_at=state.now,
        )  # fmt: skip
        if self.coffers:
            domain = domain.entered(state.now, self.coffers, "the coffers as granted")
        return state.model_copy(update={"domains": (*state.domains, domain)})

    def describe(self) -> str:
        coffers = f", {self.coffers} coins in its coffers" if self.coffers else ""
        return f"{self.holder} holds the domain {self.domain} ({self._place()}){coffers}"

    def _place(self) -> str:
        return f"hex {self.hex} of {self.map}" if self.hex is not None else str(self.site)


class DomainDropped(Event):
    """A domain is given up (or taken from its holder): the world has it no more."""

    kind: ClassVar[str] = "domain.dropped"
    shown: ClassVar[Shown] = Shown.PARTY
    domain: str
    holder: str
    coffers: Amount = 0
    reason: Text = ""

    def apply(self, state: CampaignState) -> CampaignState:
        kept = tuple(d for d in state.domains if d.name != self.domain)
        return state.model_copy(update={"domains": kept})

    def describe(self) -> str:
        left = f"; {self.coffers} coins stay in its coffers" if self.coffers else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.holder} holds {self.domain} no more{why}{left}"


class DomainSettled(Event):
    """A domain's month: the people's mood (its roll first), the income (its roll second) and
    the share the mood lets in, the upkeep paid, and the coffers left. The referee's."""

    kind: ClassVar[str] = "domain.settled"
    shown: ClassVar[Shown] = Shown.REFEREE
    domain: str
    holder: str
    month: str
    mood: str
    rolled: Amount
    income: Amount
    upkeep: Amount
    paid: Amount
    coffers: Amount
    modifier: int
    trouble: Text = ""

    def apply(self, state: CampaignState) -> CampaignState:
        domain = named(state.domains, self.domain)
        assert domain is not None
        self._check(state, domain)
        reason = f"the month of {self.month}: income {self.income}, upkeep {self.paid}"
        settled = domain.entered(state.now, self.income - self.paid, reason)
        settled = settled.model_copy(update={"mood": self.mood, "modifier": self.modifier})
        return state.model_copy(update={"domains": replaced(state.domains, settled)})

    def _check(self, state: CampaignState, domain: Domain) -> None:
        """Refuse a settlement its own dice and the ruleset do not make (an import's check of
        a journal changed by hand): the month turn's reckoning again, from the same faces."""
        rules = state.ruleset.domains
        try:
            if len(self.rolls) != 2:
                raise TurnkeeperError(f"{len(self.rolls)} rolls, not the mood's and the income's")
            mood, income = (TypedDice(face for _, face, _ in r.dice) for r in self.rolls)
            made = settlement(
                domain, rules, _month_of(state),
                roll(rules.mood, mood, {MOOD: domain.modifier}), roll(rules.income, income),
            )  # fmt: skip
        except TurnkeeperError as error:
            wrong: str | None = f"its dice are not the ruleset's mood and income ({error})"
        else:
            wrong = self._unlike(made)
        if wrong is not None:
            raise TurnkeeperError(
                f"the settlement of {self.domain} for {self.month}: {wrong}: the journal was "
                "changed by hand; export it again from turnkeeper"
            )

    def _unlike(self, made: DomainSettled) -> str | None:
        """Where this settlement differs from ``made`` (the same month from the same dice)."""
        for what, stated, rolled in zip(("mood", "income"), self.rolls, made.rolls, strict=True):
            if stated.model_copy(update={"typed_in": rolled.typed_in}) != rolled:
                return (
                    f"its {what} roll reads {stated.breakdown!r}, but the ruleset's with its "
                    f"dice reads {rolled.breakdown!r}"
                )
        for field, value in made.model_dump(exclude={"rolls"}).items():
            if getattr(self, field) != value:
                return f"its {field} is {getattr(self, field)!r}, but its dice make {value!r}"
        return None

    def describe(self) -> str:
        share = f"{self.income} of {self.rolled}" if self.income != self.rolled else self.income
        short = self.upkeep - self.paid
        upkeep = (
            f"upkeep {self.upkeep} paid"
            if not short
            else f"upkeep {self.upkeep}: {self.paid} paid, {short} short"
        )
        trouble = f"; trouble: {self.trouble}" if self.trouble else ""
        return (
            f"{self.domain} ({self.holder}'s), the month of {self.month}: the people are "
            f"{self.mood}; income {share}; {upkeep}; coffers {self.coffers}{trouble}"
        )


class DomainUnsettled(Event):
    """A domain the month turn leaves as it is, its holder being dead: no mood, no income, no
    upkeep, until the referee gives it up (``domain drop``) to grant it to another. The
    referee's, as a settlement is."""

    kind: ClassVar[str] = "domain.unsettled"
    shown: ClassVar[Shown] = Shown.REFEREE
    domain: str
    holder: str
    month: str

    def describe(self) -> str:
        return (
            f"{self.domain} ({self.holder}'s), the month of {self.month}: not settled, for "
            f"{self.holder} is dead (`domain drop` it to grant it to another)"
        )


class CoffersDrawn(Event):
    """The holder draws coins from a domain's coffers, and hears the steward's account: what
    is left, and the people's mood (the coins come to the holder in a ``coins.changed``)."""

    kind: ClassVar[str] = "domain.drawn"
    shown: ClassVar[Shown] = Shown.PARTY
    domain: str
    holder: str
    amount: Amount
    coffers: Amount
    mood: str | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        domain = named(state.domains, self.domain)
        assert domain is not None
        drawn = domain.entered(state.now, -self.amount, f"drawn by {self.holder}")
        return state.model_copy(update={"domains": replaced(state.domains, drawn)})

    def describe(self) -> str:
        mood = f"; its people are {self.mood}" if self.mood else "; no month settled yet"
        return (
            f"{self.holder} draws {self.amount} coins from the coffers of {self.domain}: "
            f"{self.coffers} left{mood}"
        )


# --- the month turn -----------------------------------------------------------------------


def _frames(state: CampaignState) -> frozenset[str]:
    return frozenset({"month"}) if state.domains else frozenset()


def _domain_turn(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """Every domain's month at ``boundary``, in the order granted, unless the world lived
    this boundary already (another party's present is at or past it); a dead holder's
    domain is not settled, and the record says so."""
    state = draft.state
    if state.now <= state.passed_by_others:
        return
    month = _month_of(state)
    for domain in state.domains:
        if _dead(state, domain.holder):
            draft.add(DomainUnsettled(domain=domain.name, holder=domain.holder, month=month))
        else:
            settle(draft, domain.name, month, dice)


def _dead(state: CampaignState, holder: str) -> bool:
    """Whether the character ``holder``, in whichever party of the world, is dead."""
    for party in (state.party, *(away.party for away in state.away)):
        found = party.character(holder)
        if found is not None:
            return not found.alive
    return False


def _month_of(state: CampaignState) -> str:
    """The month the world's present is in, as a settlement names it ("1-02")."""
    date = date_at(state.now, state.ruleset.time)
    return f"{date.year}-{date.month:02d}"


def settle(draft: Draft, name: str, month: str, dice: DiceSource) -> None:
    """One domain's month (see the module's docstring): mood, income, upkeep."""
    domain = named(draft.state.domains, name)
    assert domain is not None
    rules = draft.state.ruleset.domains
    mood = roll(rules.mood, dice, {MOOD: domain.modifier})
    draft.add(settlement(domain, rules, month, mood, roll(rules.income, dice)))


def settlement(
    domain: Domain, rules: DomainRules, month: str, mood: Roll, income: Roll
) -> DomainSettled:
    """What the people's ``mood`` and the ``income`` rolled make of ``domain``'s month: the
    one reckoning of the month turn, and of an import's check of what it recorded."""
    row = rules.row_for(mood.total)
    rolled = max(0, income.total)
    let_in = rolled * row.income // 100
    held = domain.coffers + let_in
    paid = min(rules.upkeep, held)
    return DomainSettled(
        domain=domain.name, holder=domain.holder, month=month, mood=row.mood, rolled=rolled,
        income=let_in, upkeep=rules.upkeep, paid=paid, coffers=held - paid,
        modifier=rules.carried(row.mood, paid < rules.upkeep), trouble=row.trouble,
        rolls=(RollRecord.of(mood), RollRecord.of(income)),
    )  # fmt: skip


#: At each month's boundary the world passes first: its domains settled.
DOMAIN_HOOK = Hook("domains", _frames, _domain_turn)

# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GrantDomain:
    """Grant ``character`` a domain: ``hex`` of ``map`` (by default the map of the party
    run) or ``site``; ``name`` (by default the site's, or the map's and the hex's), with
    ``coffers`` coins in its treasury."""

    character: str
    hex: str | None = None
    site: str | None = None
    map: str | None = None
    name: str | None = None
    coffers: int = 0


@dataclass(frozen=True)
class DropDomain:
    """The holder gives up the domain ``domain`` (``reason``: the referee's words)."""

    domain: str
    reason: str = ""


@dataclass(frozen=True)
class DrawCoffers:
    """The holder draws ``amount`` coins (None: all) from the coffers of ``domain``."""

    domain: str
    amount: int | None = None


DomainCommand = GrantDomain | DropDomain | DrawCoffers


def grant(state: CampaignState, command: GrantDomain) -> list[Event]:
    """The grant (see the module's docstring), refused for an unknown character, hex or site,
    a place held already, a name taken, or a party behind the world's month."""
    holder = _holder_here(state, command.character, "be granted a domain")
    if (command.hex is None) == (command.site is None):
        raise IllegalCommandError("a domain is a hex or a site: give --hex LABEL or --site NAME")
    _in_the_world_s_month(state)
    if command.hex is not None:
        where = _hex_place(state, command.hex, command.map)
        name = command.name or f"{where['map']} {where['hex']}"
    else:
        if command.map is not None:
            raise IllegalCommandError("--map names the map of a hex: a site takes no --map")
        where = {"site": _known_site(state, str(command.site))}
        name = command.name or str(where["site"])
    for other in state.domains:
        same = (other.map, other.hex, other.site) == (
            where.get("map"), where.get("hex"), where.get("site"),
        )  # fmt: skip
        if same:
            raise IllegalCommandError(
                f"{other.place} is held already: it is {other.holder}'s domain {other.name} "
                f"(`domain drop {other.name!r}` first)"
            )
    check_name(name, "domain name", IllegalCommandError)
    taken = named(state.domains, name)
    if taken is not None:
        raise IllegalCommandError(
            f"there is a domain called {taken.name!r} already ({taken.holder}'s): give --name"
        )
    if len(state.domains) >= MOST_DOMAINS:
        raise IllegalCommandError(f"a world holds at most {MOST_DOMAINS} domains")
    if command.coffers < 0:
        raise IllegalCommandError(f"--coffers {command.coffers}: coins are never fewer than none")
    return [DomainGranted(domain=name, holder=holder, coffers=command.coffers, **where)]


def drop(state: CampaignState, command: DropDomain) -> list[Event]:
    """The holder gives the domain up, at a present not behind its ledger."""
    domain = _domain(state, command.domain)
    _holder_here(state, domain.holder, f"give up {domain.name}")
    _not_behind(state, domain)
    hidden = unprintable(command.reason)
    if hidden is not None:
        raise IllegalCommandError(
            f"--reason {command.reason[:40]!r} holds {hidden}; say why in printable text on "
            "one line"
        )
    return [
        DomainDropped(
            domain=domain.name, holder=domain.holder, coffers=domain.coffers,
            reason=" ".join(command.reason.split()),
        )
    ]  # fmt: skip


def draw(state: CampaignState, command: DrawCoffers) -> list[Event]:
    """The holder draws from the coffers, at a present not behind their ledger; the coins
    are the holder's own."""
    domain = _domain(state, command.domain)
    holder = state.character(_holder_here(state, domain.holder, "draw from its coffers"))
    _not_behind(state, domain)
    amount = domain.coffers if command.amount is None else command.amount
    if not 0 <= amount <= domain.coffers:
        raise IllegalCommandError(
            f"the coffers of {domain.name} hold {domain.coffers} coins: draw from 0 to "
            f"{domain.coffers}"
        )
    drawn = CoffersDrawn(
        domain=domain.name, holder=holder.name, amount=amount, coffers=domain.coffers - amount,
        mood=domain.mood,
    )  # fmt: skip
    if not amount:
        return [drawn]
    why = f"drawn from {domain.name}"
    coins = CoinsChanged(
        character=holder.name, change=amount, coins=holder.coins + amount, reason=why
    )
    return [drawn, coins]


def _domain(state: CampaignState, name: str) -> Domain:
    found = named(state.domains, name)
    if found is None:
        known = [d.name for d in state.domains]
        raise IllegalCommandError(
            f"no domain called {name!r}{did_you_mean(name, known)}"
            f" (the domains: {', '.join(known) or 'none; grant one with `domain grant`'})"
        )
    return found


def _holder_here(state: CampaignState, character: str, what: str) -> str:
    """The name of ``character`` if the party run has them; else one refusal saying which
    party to send the command as, or that the world has no such character."""
    found = state.party.character(character)
    if found is not None:
        return found.name
    party = state.party_of(character)
    if party is not None:
        raise IllegalCommandError(
            f"{character} is with {party}, not {state.company}: to {what}, send it "
            f'--as "{party}" (their present, their record)'
        )
    everyone = state.everyone
    raise IllegalCommandError(
        f"no character called {character!r}{did_you_mean(character, everyone)}"
        f" (the world's: {', '.join(everyone)})"
    )


def _in_the_world_s_month(state: CampaignState) -> None:
    """Refuse a grant by a party behind a month turn the world has lived."""
    time = state.ruleset.time
    mine, world = date_at(state.now, time), date_at(state.present, time)
    if (mine.year, mine.month) != (world.year, world.month):
        raise state.out_of_order(
            f"{state.company} is at day {state.day}, and the world has lived the month turn "
            f"of {world.year}-{world.month:02d}, which would have passed the domain by"
        )


def _not_behind(state: CampaignState, domain: Domain) -> None:
    """Refuse a party whose present is behind the domain's grant or its ledger's last entry."""
    last = domain.last_entry
    if last is not None and last > state.now:
        deed = f"the coffers of {domain.name} were settled"
        raise state.out_of_order(state.before(deed, last))
    if domain.granted_at > state.now:
        deed = f"{domain.holder} was granted {domain.name}"
        raise state.out_of_order(state.before(deed, domain.granted_at))


def _hex_place(state: CampaignState, label: str, map_name: str | None) -> dict[str, str]:
    """The map and hex of a hex domain: on the map of the party run, or ``map_name``, a map
    some party of the world is on."""
    maps = maps_of(state)
    if not maps:
        raise IllegalCommandError(
            "no party of the world is on a map: `map load` one, or grant a site (--site)"
        )
    if map_name is None:
        if state.wilderness is None and len(maps) > 1:
            raise IllegalCommandError(
                f"{state.company} is on no map: name the hex's map with --map ({', '.join(maps)})"
            )
        wild = state.wilderness or next(iter(maps.values()))
    else:
        found = next(
            (w for name, w in maps.items() if name.casefold() == map_name.casefold()), None
        )
        if found is None:
            raise IllegalCommandError(
                f"no party is on a map called {map_name!r}{did_you_mean(map_name, list(maps))}"
                f" (the maps: {', '.join(maps)})"
            )
        wild = found
    try:
        place = Hex.from_label(label)
        if place.label != label.strip():
            raise TurnkeeperError(label)
    except TurnkeeperError:
        raise IllegalCommandError(f"{label!r} is not a hex label such as 0304") from None
    if place not in wild.hexmap:
        raise IllegalCommandError(
            f"hex {place.label} is off the map {wild.map.name!r} "
            f"({wild.map.width} x {wild.map.height})"
        )
    state.check_in_order(wild.map.name, 0, place.label, hex=True)
    return {"map": wild.map.name, "hex": place.label}


def maps_of(state: CampaignState) -> dict[str, WildernessState]:
    """The maps some party of the world is on, by name (the party run's first)."""
    wilds = (state.wilderness, *(p.wilderness for p in state.away))
    return {wild.map.name: wild for wild in wilds if wild is not None}


def known_sites(state: CampaignState) -> list[str]:
    """The sites the world knows, each once: those parties are in, those of the place
    ledger, those factions hold."""
    visits = (state.site, *(p.site for p in state.away))
    known = [v.site.name for v in visits if v is not None]
    known += [c.site for c in state.places if not c.hex]
    if state.factions is not None:
        known += [s for f in state.factions.factions for s in f.sites]
    return list(dict.fromkeys(known))


def _known_site(state: CampaignState, name: str) -> str:
    """The site called ``name`` (in any case) that the world knows: one a party is in, one
    of the place ledger, or one a faction holds."""
    known = known_sites(state)
    found = next((s for s in known if s.casefold() == name.casefold()), None)
    if found is None:
        raise IllegalCommandError(
            f"the world knows no site called {name!r}{did_you_mean(name, known)}"
            f" (the sites: {', '.join(known) or 'none yet: enter one with `site enter`'})"
        )
    return found


def decide_domains(state: CampaignState, command: DomainCommand) -> list[Event]:
    """The events of a domain command."""
    if isinstance(command, GrantDomain):
        return grant(state, command)
    if isinstance(command, DropDomain):
        return drop(state, command)
    return draw(state, command)


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    DomainGranted,
    DomainDropped,
    DomainSettled,
    DomainUnsettled,
    CoffersDrawn,
)
