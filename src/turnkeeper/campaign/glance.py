"""The referee's glance: what ``turnkeeper status`` shows, as one plain JSON document.

The document holds the referee's view of the state (``referee``: the whole state as JSON,
the embedded ruleset named, not copied) and the lines of the status panel (``title`` and
``rows``: each row a label and spans of text with a tone, ``""``, ``"warn"`` or
``"alarm"``). It is plain data, so the service can keep it beside the journal after every
command (see :mod:`turnkeeper.store.glance`) and ``status`` can print it without loading
the engine; a status that must fold the journal builds the same document from the state.

>>> from turnkeeper.campaign import Journal, Wait, parse_party
>>> from turnkeeper.rules.loader import preset
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
>>> journal = Journal.start("Keep", preset("ex"), party, seed=1)
>>> _ = journal.execute(Wait(600))
>>> glance = glance_of(journal.state)
>>> glance["title"], glance["referee"]["now"], glance["rows"][0]
('Keep · ex · version 2', 600, ['date', [['1-01-01 08:10 (day 1)', '']]])
"""

from __future__ import annotations

from typing import Any

from turnkeeper.kernel.combat_state import Phase
from turnkeeper.kernel.state import CampaignState, in_darkness
from turnkeeper.words import words

Row = list[Any]
"""``[label, [[text, tone], ...]]``: one line of the status panel."""


def glance_of(state: CampaignState) -> dict[str, Any]:
    """The glance document of ``state``: its referee view and its status panel's lines."""
    return {
        "referee": referee_state(state),
        "title": f"{state.name} · {state.ruleset.name} · version {state.version}",
        "rows": status_rows(state),
    }


#: Left out of the referee's view: the embedded ruleset (named instead), and each party's
#: starting kit (``party.supplies``), which beside its live ``supplies`` would read as a
#: second truth of what the party carries.
_LEFT_OUT: dict[str, Any] = {
    "ruleset": True,
    "party": {"supplies": True},
    "away": {"__all__": {"party": {"supplies": True}}},
}


def referee_state(state: CampaignState) -> dict[str, Any]:
    """The referee's view: the whole state as JSON, the embedded ruleset named, not copied;
    what each party carries once, its live ``supplies``."""
    data: dict[str, Any] = state.model_dump(mode="json", exclude=_LEFT_OUT)
    data["ruleset"] = state.ruleset.name
    data["date"] = state.date
    data["day"] = state.day
    return data


def status_rows(state: CampaignState) -> list[Row]:
    """Date and time, where the party is, light, rest, supplies, countdowns, the party."""
    rows: list[Row] = [_row("date", f"{state.date} (day {state.day})")]
    if state.away:  # a world of several parties: whose present this is
        others = ", ".join(p.name for p in state.away)
        rows.append(_row("party", f"{state.company} (also in the world: {others})"))
    rows += [_row(what, where) for what, where in _whereabouts(state)]
    light = state.light
    if in_darkness(state):
        rows.append(["light", [["darkness", "alarm"]]])
    elif light.dark:
        rows.append(_row("light", "none lit"))
    else:
        turns = light.turns_left
        left = (
            "until resources wane"
            if turns is None
            else f"{turns} turn{'' if turns == 1 else 's'} left"
        )
        rows.append(_row("light", f"{words(light.source)}, {light.radius_ft} ft, {left}"))
    if state.rest.due_at is not None:
        rows.append(["rest", [["due", "warn"], [f" ({state.rest.due_reason})", ""]]])
    supplies = [f"{words(item)} {count}" for item, count in state.supplies.counted.items()]
    supplies += [f"{words(item)} d{sides}" for item, sides in state.supplies.dice.items()]
    rows.append(_row("supplies", ", ".join(supplies) or "none"))
    countdowns = [f"{c.name} {c.left_at(state.now)}/{c.length}" for c in state.countdowns]
    rows.append(_row("countdowns", ", ".join(countdowns) or "none"))
    for character in state.party.characters:
        spans = [[f"{character.hp}/{character.max_hp} hp", ""]]
        if character.conditions:
            spans.append([" " + ", ".join(character.conditions), "warn"])
        rows.append([character.name, spans])
    return rows


def fight_line(state: CampaignState) -> str:
    """Where the fight stands: its round, its phase, who acts first and the order of beats."""
    fight = state.combat
    assert fight is not None
    if fight.round == 0:
        return "begun, no round yet: `combat round` rolls initiative"
    line = (
        f"round {fight.round}, {'declaring' if fight.phase is Phase.DECLARE else 'between rounds'}"
    )
    if fight.initiative is not None:
        line += f"; {fight.initiative.value} acts first"
    standing = {c.name for c in fight.combatants if c.standing}
    beats = [[n for n in beat if n in standing] for beat in fight.order]
    order = " then ".join(", ".join(beat) for beat in beats if beat)
    if order:
        line += f"; order: {order}"
    waiting = [d.actor for d in fight.pending() if fight.can_act(fight.get(d.actor))]
    if waiting:
        line += f"; declared, to resolve: {', '.join(waiting)}"
    return line


def _whereabouts(state: CampaignState) -> list[tuple[str, str]]:
    """Where the party is and what holds it: a site, a hex, a fight, a scene."""
    rows: list[tuple[str, str]] = []
    if state.site is not None:
        visit = state.site
        area = f", {visit.area}" if visit.area else ""
        rows.append(("site", f"{visit.site.name}, level {visit.level}{area} (turn {visit.turns})"))
        if visit.encounter is not None:
            what = (
                "being fought"
                if state.fight_running
                else "pending: `combat start` to fight it, or `site resume` to go on"
            )
            rows.append(("encounter", f"{visit.encounter.creature}, {what}"))
    if state.wilderness is not None:
        wild = state.wilderness
        weather = ", ".join(words(w) for w in sorted(set(wild.weather.values()))) or "clear"
        rows.append(("hex", f"{wild.position.label}, {wild.tp_spent} TP spent today, {weather}"))
    if state.fight_running:
        rows.append(("fight", fight_line(state)))
    if state.scenes.scene is not None:
        rows.append(("scene", words(state.scenes.scene.kind)))
    return rows


def _row(label: str, value: str) -> Row:
    return [label, [[value, ""]]]
