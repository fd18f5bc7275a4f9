"""The pages and their fragments, drawn by Jinja2 templates with autoescape on.

Every value taken from a campaign is escaped by the template engine; the one piece of markup
passed through whole is the map's SVG, which :func:`turnkeeper.world.svg.render_svg` escapes
itself. The players' fragments are drawn from :func:`~turnkeeper.views.party.player_state`,
:func:`~turnkeeper.views.journal.player_record` and the party's map only: the template never
sees the referee's state, so it cannot show what it was not given.

A page is a frame (the campaign's name, the controls) around a *display*, the part that
changes with every command. The live stream (:mod:`turnkeeper.web.live`) sends the display
alone, so a form being filled in is never redrawn.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from turnkeeper.campaign import CampaignState, Recorded, Visibility
from turnkeeper.campaign.month_calendar import MonthCalendar
from turnkeeper.clock.calendar import calendar
from turnkeeper.dice import dice_named, format_mixed
from turnkeeper.errors import TurnkeeperError
from turnkeeper.kernel.combat_state import CombatState, Declaration, Phase, Side
from turnkeeper.kernel.events import undone_commands
from turnkeeper.kernel.state import in_darkness
from turnkeeper.verbs import places_now
from turnkeeper.views.journal import party_perceives, player_record
from turnkeeper.views.maps import page_map_svg
from turnkeeper.views.party import player_state
from turnkeeper.views.timeline import timeline
from turnkeeper.web import phone
from turnkeeper.web.controls import grouped, table
from turnkeeper.words import words

JOURNAL_LINES = 40
"""How many of the latest journal records a display shows."""

RECORD_LINES = 200
"""How many of a character's latest time record lines the dashboard shows (the CLI's
``party record --lines`` prints them all)."""

RECORD_STRETCHES = 60
"""How many of a character's latest stretches of whereabouts the dashboard shows (the CLI's
``party record`` prints them all)."""

templates = Environment(
    loader=PackageLoader("turnkeeper.web", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    extensions=["jinja2.ext.do"],
    # the templates ship with the package and never change under a running server: without
    # this, every drawing asks the file system whether each of its templates changed
    auto_reload=False,
    trim_blocks=True,
    lstrip_blocks=True,
)
templates.filters["words"] = words
templates.filters["dice_named"] = dice_named
templates.filters["tp"] = lambda amount: format_mixed(Fraction(amount))  # "5/2" is 2½


@dataclass(frozen=True)
class Links:
    """The URLs a page's forms and stream use, each carrying the page's own token."""

    page: str
    commands: str
    live: str
    player_link: str
    journal: str
    hand: str
    hand_link: str
    record: str
    line: str
    complete: str
    route: str
    dice: str
    calendar: str


def page(name: str, **context: Any) -> str:
    """A whole page from ``templates/{name}.html``."""
    return templates.get_template(f"{name}.html").render(**context)


def fragment(name: str, **context: Any) -> str:
    """A fragment from ``templates/{name}.html`` (the same loader: it is all one set)."""
    return page(name, **context)


# -- the referee -------------------------------------------------------------------------------


def places(state: CampaignState) -> list[str]:
    """Where the party is now, as the command table's verbs name places (``anywhere`` aside).

    >>> from turnkeeper.campaign import Journal, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> places(Journal.start("Keep", preset("ex"), party, seed=1).state)
    []
    """
    here = {str(place) for place in places_now(state)} - {"anywhere"}
    return sorted(here)


def next_actor(combat: CombatState) -> str | None:
    """Who declares next: the first standing combatant in the round's order without a
    declaration yet, while the round takes declarations."""
    if combat.phase is not Phase.DECLARE:
        return None
    names = [name for beat in combat.order for name in beat]
    if combat.face is not None:
        # TP-CBT-1: under the overloaded die the side with initiative announces last.
        names.sort(key=lambda name: combat.get(name).side is combat.initiative)
    for name in names:
        found = combat.find(name)
        if found is not None and name in combat.still_to_act(found.side):
            return found.name
    return None


def still_to_declare(combat: CombatState) -> list[str]:
    """Who has yet to declare this round, both sides, in the order of play: whom the referee
    waits for before resolving.

    >>> from turnkeeper.kernel.combat_state import Combatant, Side
    >>> ann = Combatant(name="Ann", side=Side.PARTY, hp=5, max_hp=5, ac=12)
    >>> still_to_declare(CombatState(combatants=(ann,), phase=Phase.DECLARE, round=1))
    ['Ann']
    """
    waiting = {name for side in (Side.PARTY, Side.OPPOSITION) for name in combat.still_to_act(side)}
    ordered = [name for beat in combat.order for name in beat]
    ordered += [c.name for c in combat.combatants if c.name not in ordered]
    return [name for name in ordered if name in waiting]


def declared_in_order(combat: CombatState) -> list[Declaration]:
    """The round's declarations in the order they will be done: by beat, then the rest."""
    placed = {name.casefold(): i for i, beat in enumerate(combat.order) for name in beat}
    return sorted(combat.declarations, key=lambda d: placed.get(d.actor.casefold(), len(placed)))


def referee_display(
    state: CampaignState, records: list[Recorded], undone: frozenset[int] | None = None
) -> str:
    """The referee's display: everything, the secrets marked as the referee's and what an
    undo took back struck through. ``records`` are the journal's latest records (its last
    :data:`JOURNAL_LINES` are shown) and ``undone`` the commands undone up to the state's
    version (:meth:`~turnkeeper.service.Campaigns.undone`); without ``undone``, ``records``
    must be the whole journal, whose undos say it."""
    # a fight that ended leaves the panel: its hit points are those of its last round
    combat = state.combat if state.fight_running else None
    if undone is None:
        undone = undone_commands(records)
    lines = _referee_lines(state, records[-JOURNAL_LINES:], undone)
    return fragment(
        "referee_display",
        state=state,
        here=places(state),
        combat=combat,
        fighting=state.fight_running,
        next_actor=next_actor(combat) if combat is not None else None,
        still_to_declare=still_to_declare,
        declarations=declared_in_order(combat) if combat is not None else [],
        lines=lines,
        map=_map(state, player=False),
        names=_names(state),
        dark=in_darkness(state),
        found=_found(state),
        world=timeline(state) if state.away else None,
    )


def done(version: int, lines: list[str], display: str, parts: str | None = None) -> str:
    """A form's answer: what its command did, and the ``display`` drawn after it, swapped in
    out of band (the page keeps whichever of it and the live stream's is newer); or, when
    ``parts`` says what changed since the version the page shows
    (:func:`turnkeeper.web.parts.changed_parts`), those parts alone, each taking its part's
    place out of band, as the live stream sends them."""
    whole = None if parts is not None else Markup(display)
    changed = None if parts is None else Markup(parts)
    return fragment("done", version=version, lines=lines, display=whole, parts=changed)


def referee_page(state: CampaignState, links: Links, display: str) -> str:
    """The referee's dashboard: the controls that fit where the party is, around the
    ``display`` drawn by :func:`referee_display`."""
    here = places(state)
    return page(
        "referee",
        title=f"{state.name} (referee)",
        state=state,
        here=here,
        groups=grouped(table()),
        links=links,
        display=Markup(display),
    )


# -- the players -------------------------------------------------------------------------------


def player_display(
    state: CampaignState,
    records: list[Recorded],
    undone: frozenset[int] | None = None,
    hand: str | None = None,
) -> str:
    """The players' display: the party's view, the journal lines the characters perceive
    (the last :data:`JOURNAL_LINES` of ``records`` they do) and the party's map, nothing
    else. ``undone``: the commands undone up to the state's version (a later undo takes its
    command's records back); without it, ``records`` must be the whole journal. On a
    character's own link (``hand``), what is wanted of that character now and its sheet come
    first (:mod:`turnkeeper.web.phone`), drawn from the same view."""
    view = player_state(state)
    if undone is None:
        undone = undone_commands(records)
    perceived = [r for r in records if party_perceives(r, undone)]
    lines = [_line(r, state, None) for r in reversed(perceived[-JOURNAL_LINES:])]
    now = phone.wanted_of(view, state.ruleset, hand) if hand is not None else None
    return fragment("player_display", view=view, lines=lines, map=_map(state, player=True), now=now)


def player_page(state: CampaignState, links: Links, display: str, hand: str | None = None) -> str:
    """The players' page: the ``display`` drawn by :func:`player_display`, following the
    table live; on a character's own link (``hand``), the display holds that character's
    choices, which post to the page's own ``hand`` link."""
    view = player_state(state)
    return page(
        "player",
        title=f"{view.campaign} ({hand or 'party'})",
        view=view,
        links=links,
        display=Markup(display),
        hand=hand,
    )


# -- shared ------------------------------------------------------------------------------------


def calendar_page(view: MonthCalendar, links: Links, token: str) -> str:
    """A month of the calendar as a grid (the referee's every party, the players' their own),
    with the months before and after it a link away, and the way back to the dashboard."""
    role = "the players' calendar" if view.player else "the calendar"
    return page(
        "calendar",
        title=f"{view.campaign}: {role} of {view.month}",
        view=view,
        links=links,
        month=lambda month: f"{links.calendar}&month={month}",
        path=links.calendar.split("?", 1)[0],
        token=token,
    )


def error_page(status: int, message: str) -> str:
    """A page for a refused or failed request: the status and the one message."""
    return page("error", title=f"turnkeeper: {status}", status=status, message=message)


def _map(state: CampaignState, player: bool) -> Markup | None:
    """The wilderness map as trusted markup (render_svg escapes its own text), or None.

    A command that leaves the wilderness as it was (a note, a wait in a site) carries the
    same frozen wilderness into its state, so its map is the one drawn before: kept by the
    wilderness itself (:data:`_MAPS`), not drawn again for every version and role."""
    wild = state.wilderness
    kept = _MAPS.get((player, id(wild)))
    if kept is not None and kept[0] is wild:
        return kept[1]
    try:
        drawn = Markup(page_map_svg(state, player=player))
    except TurnkeeperError:
        return None
    with _MAPS_LOCK:  # drawn in the server's worker threads
        if len(_MAPS) >= MAPS_KEPT:
            _MAPS.pop(next(iter(_MAPS)))  # the oldest: dicts keep their order
        _MAPS[player, id(wild)] = (wild, drawn)
    return drawn


MAPS_KEPT = 64
"""How many drawn maps :func:`_map` keeps, for the campaigns being played."""

_MAPS: dict[tuple[bool, int], tuple[object, Markup]] = {}
_MAPS_LOCK = threading.Lock()


def _referee_lines(
    state: CampaignState, records: list[Recorded], undone: frozenset[int]
) -> list[Markup]:
    """The referee's journal lines of ``records``, newest first."""
    return [_line(r, state, r.command in undone) for r in reversed(records)]


def _line(record: Recorded, state: CampaignState, undone: bool | None) -> Markup:
    """One journal line drawn: the referee's (``undone``: whether an undo took its command
    back) or, with ``undone`` None, the players' (:func:`~turnkeeper.views.player_record`).

    A line is drawn from its record and the calendar alone, and a display shows forty: each
    command adds one or two, so the others are those drawn before, kept by their record
    (:data:`_LINES`; the displays' lines are the same records from one drawing to the next,
    :class:`turnkeeper.web.lines.LatestLines`), not drawn again for every version and seat."""
    time = state.ruleset.time
    key = (id(record), undone)
    kept = _LINES.get(key)
    if kept is not None and kept[0] is record and kept[1] is time:
        return kept[2]
    if undone is None:
        line = player_record(record, state)
    else:
        line = {
            "seq": record.seq,
            "date": calendar(record.at, time),
            "text": record.event.describe(),
            "rolls": [roll.text() for roll in record.event.rolls],
            "referee": record.event.visibility is Visibility.REFEREE,
            "undone": undone,
        }
    drawn = Markup(templates.get_template("macros.html").module.journal_line(line))  # type: ignore[attr-defined]
    with _LINES_LOCK:  # drawn in the server's worker threads
        while len(_LINES) >= LINES_KEPT:
            _LINES.pop(next(iter(_LINES)))  # the oldest: dicts keep their order
        _LINES[key] = (record, time, drawn)
    return drawn


LINES_KEPT = 4096
"""How many drawn journal lines :func:`_line` keeps: a few seats' forty, for the campaigns
being played."""

_LINES: dict[tuple[int, bool | None], tuple[Recorded, object, Markup]] = {}
_LINES_LOCK = threading.Lock()


def older_lines(
    state: CampaignState, records: list[Recorded], undone: frozenset[int], referee: bool
) -> str:
    """A page of older journal lines (``records``, the role's own, oldest first), newest
    first, to go below the display's; when it reaches the first record, the button that asks
    for more says so instead."""
    if referee:
        lines = _referee_lines(state, records, undone)
    else:
        lines = [_line(r, state, None) for r in reversed(records)]
    first = not records or records[0].seq == 1 or len(records) < JOURNAL_LINES
    return fragment("older_lines", lines=lines, first=first)


def _found(state: CampaignState) -> list[str]:
    """The features the party found, by name and hex: ``Ruined Tower (0506)``."""
    wild = state.wilderness
    if wild is None:
        return []
    return sorted(
        f"{feature.name} ({hex_.label})"
        for hex_, feature in wild.hexmap.all_features()
        if feature.id in wild.found
    )


def _names(state: CampaignState) -> dict[str, list[str]]:
    """Suggestions for the referee's forms: who and what can be named now."""
    people = [c.name for c in state.party.characters]
    if state.combat is not None:
        people += [c.name for c in state.combat.combatants if c.name not in people]
    people += [s.name for s in state.scenes.seats if s.name not in people]
    people += [c.name for c in state.countdowns]
    features = []
    if state.wilderness is not None:
        features = sorted(state.wilderness.found)
    return {
        "tk-names": people,
        "tk-features": features,
        "tk-lights": list(state.ruleset.light.sources),
    }
