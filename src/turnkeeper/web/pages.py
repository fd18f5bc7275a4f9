"""The web pages: the referee's dashboard and the players' view, server-rendered HTML.

No templates and no JavaScript: small functions build the HTML and every value taken from a
campaign goes through :func:`e` (``html.escape``). The players' page is drawn from
:func:`~turnkeeper.views.player_state` and party-visible records only, the same filter
as the JSON API.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from urllib.parse import quote

from turnkeeper.campaign import CampaignState, Recorded, Visibility
from turnkeeper.clock.calendar import calendar
from turnkeeper.errors import TurnkeeperError
from turnkeeper.views import PlayerState, map_svg, player_record, player_state
from turnkeeper.web.tokens import Role

CSS = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; background: #fbfaf7; }
h1 { font-size: 1.4rem; margin: 0 0 .2rem; } h2 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; }
section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .6rem .9rem; }
table { border-collapse: collapse; } td, th { padding: .1rem .6rem .1rem 0; text-align: left; }
.dim { color: #777; } .referee { color: #8a2be2; } .warn { color: #b8860b; } .bad { color: #b22; }
.map svg { max-width: 100%; height: auto; } form { display: inline-block; margin: 0 .6rem .3rem 0; }
.journal li { margin: .1rem 0; } .error { color: #b22; font-weight: bold; }
"""


def e(value: object) -> str:
    """Escape any value for HTML text or a quoted attribute.

    >>> e('<b title="x">&</b>')
    '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return html.escape(str(value), quote=True)


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>{body}</body></html>"
    )


def _rows(pairs: Iterable[tuple[str, str]]) -> str:
    """Table rows from (label, already-escaped HTML) pairs."""
    return (
        "<table>" + "".join(f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in pairs) + "</table>"
    )


def _section(title: str, inner: str) -> str:
    return f"<section><h2>{e(title)}</h2>{inner}</section>"


def error_page(status: int, message: str) -> str:
    """A page for a refused or failed request: the status and the one message."""
    return _page(f"turnkeeper: {status}", f'<h1>{status}</h1><p class="error">{e(message)}</p>')


def dashboard(state: CampaignState, records: list[Recorded], role: Role, token: str) -> str:
    """The campaign page: the referee's dashboard, or the players' view for a player token."""
    if role is Role.PLAYER:
        return _player_page(player_state(state), records, state)
    return _referee_page(state, records, token)


# -- the referee -------------------------------------------------------------------------------


def _referee_page(state: CampaignState, records: list[Recorded], token: str) -> str:
    light = state.light
    if light.dark:
        lit = '<span class="bad">darkness</span>'
    else:
        left = "until resources wane" if light.turns_left is None else f"{light.turns_left} turns"
        lit = e(f"{light.source}, {light.radius_ft} ft, {left}")
    rest = (
        f'<span class="warn">due ({e(state.rest.due_reason)})</span>'
        if state.rest.due_at is not None
        else "not due"
    )
    clock = _rows(
        [
            ("date", e(f"{state.date} (day {state.day})")),
            ("light", lit),
            ("rest", rest),
            ("supplies", e(_supplies(state.supplies.counted, state.supplies.dice))),
            *_whereabouts(state),
        ]
    )
    countdowns = (
        "<ul>"
        + "".join(
            f"<li>{e(c.name)} ({e(c.kind)}) {c.left}/{c.length}"
            + (' <span class="referee">(referee)</span>' if c.visibility == "referee" else "")
            + "</li>"
            for c in state.countdowns
        )
        + "</ul>"
        if state.countdowns
        else '<p class="dim">none running</p>'
    )
    party = _rows(
        (c.name, e(f"{c.hp}/{c.max_hp} hp " + ", ".join(c.conditions)))
        for c in state.party.characters
    )
    combat = '<p class="dim">no fight</p>'
    if state.combat is not None and state.combat.combatants:
        fight = state.combat
        combat = f"<p>round {fight.round}, {e(fight.phase.value)}</p>" + _rows(
            (
                c.name,
                e(
                    f"{c.side.value}: {c.hp}/{c.max_hp} hp, AC {c.ac} "
                    + ", ".join(sorted(str(x) for x in c.conditions))
                ),
            )
            for c in fight.combatants
        )
    journal = "".join(
        "<li>"
        + (
            '<span class="referee">(referee)</span> '
            if r.event.visibility is Visibility.REFEREE
            else ""
        )
        + f'<span class="dim">{r.seq} · {e(_date(state, r))}</span> {e(r.event.describe())}'
        + (
            f' <span class="dim">{e("; ".join(x.text() for x in r.event.rolls))}</span>'
            if r.event.rolls
            else ""
        )
        + "</li>"
        for r in reversed(records)
    )
    body = (
        f"<h1>{e(state.name)}</h1>"
        f'<p class="dim">{e(state.ruleset.name)} · version {state.version} · referee</p>'
        + _forms(state, token)
        + '<div class="grid">'
        + _section("Clock, light and supplies", clock)
        + _section("Countdowns", countdowns)
        + _section("Party", party)
        + _section("Combat", combat)
        + "</div>"
        + _map(state, player=False)
        + _section("Journal", f'<ul class="journal">{journal}</ul>')
    )
    return _page(f"{state.name} (referee)", body)


def _forms(state: CampaignState, token: str) -> str:
    """The referee's buttons: a turn (with a movement mode), a wait, an undo."""
    action = e(f"/campaigns/{quote(state.name, safe='')}/commands?token={quote(token, safe='')}")
    seen = f'<input type="hidden" name="expected_version" value="{state.version}">'
    modes = "".join(
        f'<option value="{e(m)}">{e(m)}</option>' for m in state.ruleset.dungeon.movement
    )
    picker = f'<select name="mode"><option value="">mode</option>{modes}</select> '
    duration = '<input name="duration" value="1 turn" size="8" aria-label="duration"> '
    turn = _form(action, seen, "turn", picker if modes else "", "Turn")
    wait = _form(action, seen, "wait", duration, "Wait")
    undo = _form(action, seen, "undo", "", "Undo")
    return f"<div>{turn}{wait}{undo}</div>"


def _form(action: str, seen: str, verb: str, inner: str, label: str) -> str:
    """One button's form; ``action`` and ``inner`` are already-escaped HTML."""
    hidden = f'<input type="hidden" name="verb" value="{e(verb)}">'
    button = f"<button>{e(label)}</button>"
    return f'<form method="post" action="{action}">{seen}{hidden}{inner}{button}</form>'


def _whereabouts(state: CampaignState) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if state.site is not None:
        visit = state.site
        area = f", {visit.area}" if visit.area else ""
        rows.append(
            ("site", e(f"{visit.site.name}, level {visit.level}{area} (turn {visit.turns})"))
        )
        if visit.encounter is not None:
            rows.append(
                ("encounter", e(f"pending: {visit.encounter.number} {visit.encounter.creature}"))
            )
    if state.wilderness is not None:
        rows.append(("hex", e(state.wilderness.position.label)))
    return rows


# -- the players -------------------------------------------------------------------------------


def _player_page(view: PlayerState, records: list[Recorded], state: CampaignState) -> str:
    light = view.light
    lit = (
        '<span class="bad">darkness</span>'
        if light.dark
        else e(f"{light.source}, {light.radius_ft} ft")
    )
    rest = f'<span class="warn">due ({e(view.rest.reason)})</span>' if view.rest.due else "not due"
    rows = [
        ("date", e(f"{view.date} (day {view.day})")),
        ("light", lit),
        ("rest", rest),
        ("supplies", e(_supplies(view.supplies.counted, view.supplies.dice))),
    ]
    if view.site is not None:
        where = view.site["where"]
        area = f", {where['area']}" if where["area"] else ""
        rows.append(("site", e(f"{view.site['site']['name']}, level {where['level']}{area}")))
    if view.wilderness is not None:
        rows.append(("hex", e(f"{view.wilderness.position}, {view.wilderness.weather}")))
    countdowns = (
        "<ul>"
        + "".join(f"<li>{e(c.name)} {c.left}/{c.length}</li>" for c in view.countdowns)
        + "</ul>"
        if view.countdowns
        else '<p class="dim">none running</p>'
    )
    party = _rows(
        (c.name, e(f"{c.hp}/{c.max_hp} hp " + ", ".join(c.conditions))) for c in view.party
    )
    combat = '<p class="dim">no fight</p>'
    if view.combat is not None:
        combat = f"<p>round {view.combat.round}, {e(view.combat.phase)}</p>" + _rows(
            (
                c.name,
                e(
                    f"{c.side}"
                    + (f": {c.hp}/{c.max_hp} hp" if c.hp is not None else "")
                    + (" " + ", ".join(c.conditions) if c.conditions else "")
                ),
            )
            for c in view.combat.combatants
        )
    lines = [player_record(r, state) for r in records if r.event.visibility is Visibility.PARTY]
    journal = "".join(
        f'<li><span class="dim">{e(x["date"])}</span> {e(x["text"])}'
        + (f' <span class="dim">{e("; ".join(x["rolls"]))}</span>' if x["rolls"] else "")
        + "</li>"
        for x in reversed(lines)
    )
    body = (
        f"<h1>{e(view.campaign)}</h1>"
        f'<p class="dim">{e(view.ruleset)} · the party\'s view</p>'
        '<div class="grid">'
        + _section("Clock, light and supplies", _rows(rows))
        + _section("Countdowns", countdowns)
        + _section("Party", party)
        + _section("Combat", combat)
        + "</div>"
        + _map(state, player=True)
        + _section("Journal", f'<ul class="journal">{journal}</ul>')
    )
    return _page(f"{view.campaign} (party)", body)


# -- shared ------------------------------------------------------------------------------------


def _map(state: CampaignState, player: bool) -> str:
    """The wilderness map inline (render_svg escapes its own text), or nothing without one."""
    try:
        svg = map_svg(state, player=player)
    except TurnkeeperError:
        return ""
    return _section("Map", f'<div class="map">{svg}</div>')


def _supplies(counted: dict[str, int], dice: dict[str, int]) -> str:
    parts = [f"{item} {count}" for item, count in counted.items()]
    parts += [f"{item} d{sides}" for item, sides in dice.items()]
    return ", ".join(parts) or "none"


def _date(state: CampaignState, record: Recorded) -> str:
    return calendar(record.at, state.ruleset.time)
