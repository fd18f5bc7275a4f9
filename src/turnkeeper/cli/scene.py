"""CLI verbs: ``scene open|spotlight|act|free|gm|give|dread|compromise|status|close``.

Dungeoneers scenes (DG-LOOP-1, DG-SPOT-1 to DG-SPOT-3, DG-ACT-1, DG-RND-1, DG-FREE-1,
DG-MOM-1, DG-DREAD-1). Until scenes run through a stored campaign (``turnkeeper.service``),
the verbs drive one in-process table: it lives as long as the process (a test, a REPL, a
bot), not across separate shell commands.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.cli.app import JsonOption, app, console, emit
from turnkeeper.dice import SeededDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    Outcome,
    SceneCommand,
    SceneEvent,
    SceneKind,
    SceneTable,
    SpendDread,
    TakeSpotlight,
    dungeoneers_rules,
)
from turnkeeper.rules import find_ruleset

scene_app = typer.Typer(
    help="Dungeoneers scenes: spotlight, actions, rounds, momentum and dread.",
    no_args_is_help=True,
)
dread_app = typer.Typer(help="The GM's dread pool (DG-DREAD-1).", no_args_is_help=True)
app.add_typer(scene_app, name="scene")
scene_app.add_typer(dread_app, name="dread")

_table: SceneTable | None = None


def table() -> SceneTable:
    """The in-process table, made on first use with the dg preset and fresh seeded dice."""
    global _table
    if _table is None:
        _table = SceneTable(dungeoneers_rules(), SeededDice(secrets.randbits(32)))
    return _table


def reset_table(new: SceneTable | None = None) -> None:
    """Forget the in-process table (tests start from an empty one)."""
    global _table
    _table = new


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(name.strip() for name in (text or "").split(",") if name.strip())


def _pairs(items: Sequence[str] | None, option: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in items or []:
        left, sep, right = item.partition("=")
        if not sep or not left.strip() or not right.strip():
            raise IllegalCommandError(f"{option} {item!r}: write NAME=VALUE, e.g. {option} a=b")
        pairs.append((left.strip(), right.strip()))
    return tuple(pairs)


def _outcome(text: str | None) -> Outcome | None:
    if text is None:
        return None
    try:
        return Outcome(text.strip().lower())
    except ValueError:
        known = ", ".join(o.value for o in Outcome)
        raise IllegalCommandError(f"unknown outcome {text!r}; use one of {known}") from None


def _event_data(event: SceneEvent) -> dict[str, Any]:
    data = event.model_dump(mode="json", exclude={"rolls", "visibility"})
    return {
        "kind": event.kind,
        "text": event.describe(),
        "data": data,
        "rolls": [r.to_record() for r in event.rolls],
    }


def _status_data(current: SceneTable) -> dict[str, Any]:
    state = current.state
    return {"ruleset": current.rules.name, **state.model_dump(mode="json")}


def _render_status(current: SceneTable) -> None:
    state = current.state
    scene = state.scene
    if scene is None:
        console.print("No scene is open.")
    else:
        holder = scene.spotlit or ("the GM" if scene.turn.value == "gm" else "no one yet")
        console.print(
            f"[bold]Scene {scene.number}[/] ({scene.kind.value}), round {scene.round}: "
            f"spotlight with the {scene.turn.value} ({escape(holder)}); "
            f"{scene.elapsed_seconds} s played"
        )
    seats = Table("player", "tokens", "free action used")
    for seat in state.seats:
        used = scene is not None and scene.free_actions_of(seat.name) > 0
        seats.add_row(escape(seat.name), str(seat.tokens), "yes" if used else "")
    if state.seats:
        console.print(seats)
    console.print(f"Dread: {state.dread}")
    for bought in state.bought:
        whom = f" ({escape(bought.creature)})" if bought.creature else ""
        console.print(f"  spent {bought.amount}{whom}: {escape(bought.what)}")


def _run(command: SceneCommand, as_json: bool) -> None:
    current = table()
    events = current.execute(command)

    def render() -> None:
        for event in events:
            rolled = "".join(escape(f" [{r.breakdown}]") for r in event.rolls)
            console.print(f"{escape(event.describe())}{rolled}")

    emit(
        {"events": [_event_data(e) for e in events], "state": _status_data(current)},
        as_json,
        render,
    )


@scene_app.command("open")
def open_scene(
    kind: Annotated[SceneKind, typer.Argument(help="combat, exploration, social or free.")],
    players: Annotated[str, typer.Option("--players", help="The players in the scene: a,b,c.")],
    creatures: Annotated[
        str, typer.Option("--creatures", help="The GM's creatures: ogre,goblin.")
    ] = "",
    no_tokens: Annotated[
        bool, typer.Option("--no-tokens", help="No spotlight tokens this scene.")
    ] = False,
    gm_first: Annotated[
        bool, typer.Option("--gm-first", help="The GM acts first each round.")
    ] = False,
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", "-r", help="Start a new table on this ruleset (default: dg)."),
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """The GM sets a scene (DG-LOOP-1)."""
    if ruleset is not None:
        reset_table(SceneTable(find_ruleset(ruleset), SeededDice(secrets.randbits(32))))
    command = OpenScene(kind, _names(players), _names(creatures), not no_tokens, gm_first)
    _run(command, as_json)


@scene_app.command("spotlight")
def spotlight(
    vote: Annotated[
        list[str] | None, typer.Option("--vote", help="VOTER=CANDIDATE (repeatable).")
    ] = None,
    gm: Annotated[
        str | None, typer.Option("--gm", help="The GM's choice on a tie or dispute.")
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """The players choose who takes the spotlight; it costs a token (DG-SPOT-1, DG-SPOT-2)."""
    _run(TakeSpotlight(votes=_pairs(vote, "--vote"), gm_choice=gm), as_json)


@scene_app.command("act")
def act(
    player: Annotated[str, typer.Argument(help="The spotlit player.")],
    what: Annotated[str, typer.Argument(help="What they do.")],
    tag: Annotated[list[str] | None, typer.Option("--tag", help="A tag such as momentum.")] = None,
    outcome: Annotated[
        str | None, typer.Option("--outcome", help="critical, success, partial or failure.")
    ] = None,
    roll: Annotated[str | None, typer.Option("--roll", help="Roll this, e.g. d20+2.")] = None,
    target: Annotated[
        int | None, typer.Option("--target", help="The number the roll must reach.")
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """The spotlit player acts (DG-ACT-1); momentum may keep the spotlight (DG-MOM-1)."""
    command = Act(player, what, tuple(tag or ()), _outcome(outcome), roll, target)
    _run(command, as_json)


@scene_app.command("free")
def free(
    actor: Annotated[str, typer.Argument(help="A player, or a GM creature after the GM's action.")],
    what: Annotated[str, typer.Argument(help="The free action.")],
    as_json: bool = JsonOption,
) -> None:
    """One free action per round (DG-FREE-1)."""
    _run(FreeAction(actor, what), as_json)


@scene_app.command("gm")
def gm_action(
    what: Annotated[str, typer.Argument(help="The GM's action.")] = "passes",
    creature: Annotated[
        str | None, typer.Option("--creature", help="The creature that acts.")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="A tag such as momentum.")] = None,
    outcome: Annotated[str | None, typer.Option("--outcome", help="critical, success, ...")] = None,
    during_rest: Annotated[
        bool, typer.Option("--during-rest", help="Taken during a rest: +dread.")
    ] = False,
    creature_free: Annotated[
        list[str] | None,
        typer.Option(
            "--creature-free", help="CREATURE=WHAT, a free action after the GM's (repeatable)."
        ),
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """The GM acts; with the players' action it makes a round (DG-RND-1)."""
    command = GmAct(
        what,
        creature,
        tuple(tag or ()),
        _outcome(outcome),
        during_rest=during_rest,
        creature_free=_pairs(creature_free, "--creature-free"),
    )
    _run(command, as_json)


@scene_app.command("give")
def give(
    giver: Annotated[str, typer.Argument(help="The player who gives.")],
    receiver: Annotated[str, typer.Argument(help="The player who receives.")],
    count: Annotated[int, typer.Argument(help="How many tokens.")] = 1,
    as_json: bool = JsonOption,
) -> None:
    """Give spotlight tokens to another player (DG-SPOT-2)."""
    _run(GiveTokens(giver, receiver, count), as_json)


@dread_app.command("spend")
def spend_dread(
    amount: Annotated[int, typer.Argument(help="How much dread.")],
    what: Annotated[str, typer.Argument(help="What it buys.")],
    creature: Annotated[
        str | None, typer.Option("--creature", help="The creature enhanced.")
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """Spend dread to enhance a creature the GM controls (DG-DREAD-1)."""
    _run(SpendDread(amount, what, creature), as_json)


@scene_app.command("compromise")
def compromise(
    player: Annotated[str, typer.Argument(help="The player whose last roll just missed.")],
    as_json: bool = JsonOption,
) -> None:
    """Take a roll that missed by 1 or 2 as a success; the GM gains dread (DG-DREAD-1)."""
    _run(Compromise(player), as_json)


@scene_app.command("status")
def status(as_json: bool = JsonOption) -> None:
    """The scene, the spotlight, every player's tokens and the dread pool."""
    current = table()
    emit(_status_data(current), as_json, lambda: _render_status(current))


@scene_app.command("close")
def close(as_json: bool = JsonOption) -> None:
    """The scene ends (DG-LOOP-1)."""
    _run(CloseScene(), as_json)
