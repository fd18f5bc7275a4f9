"""CLI verbs: ``scene open|spotlight|act|free|gm|give|dread|compromise|status|close``.

Dungeoneers scenes (DG-LOOP-1, DG-SPOT-1 to DG-SPOT-3, DG-ACT-1, DG-RND-1, DG-FREE-1,
DG-MOM-1, DG-DREAD-1) in a stored campaign: each verb is one command in the campaign's
journal, so a scene carries on from one shell command to the next, ``undo`` takes a scene
command back, and a round's end passes campaign time and ticks its countdowns (DG-CD-1).
The campaign's ruleset must have a spotlight (``turnkeeper new NAME --ruleset dg``).
Like the campaign verbs, each takes ``--db`` and ``--campaign``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.campaign import CampaignState
from turnkeeper.cli.app import JsonOption, console, emit
from turnkeeper.cli.options import CampaignOption, DbOption, DiceOption
from turnkeeper.cli.runner import open_campaigns, run
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
    SceneKind,
    SpendDread,
    TakeSpotlight,
)

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

scene_app = typer.Typer(
    help="Dungeoneers scenes: spotlight, actions, rounds, momentum and dread.\n\n"
    "Example: `turnkeeper scene open combat --players Aldo,Bea --creatures ogre`.",
    no_args_is_help=True,
)
dread_app = typer.Typer(
    help="The GM's dread pool, spent to enhance the GM's creatures [DG-DREAD-1].\n\n"
    'Example: `turnkeeper scene dread spend 1 "a thicker hide" --creature ogre`.',
    no_args_is_help=True,
)
verbs.add_typer(scene_app, name="scene")
scene_app.add_typer(dread_app, name="dread")


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


def _status_data(name: str, state: CampaignState) -> dict[str, Any]:
    return {
        "campaign": name,
        "ruleset": state.ruleset.name,
        "date": state.date,
        **state.scenes.model_dump(mode="json"),
    }


def _table_data(name: str, state: CampaignState) -> dict[str, Any]:
    return {"state": _status_data(name, state)}


def _render_status(state: CampaignState) -> None:
    table = state.scenes
    scene = table.scene
    if scene is None:
        console().print("No scene is open.")
    else:
        holder = scene.spotlit or ("the GM" if scene.turn.value == "gm" else "no one yet")
        console().print(
            f"[bold]Scene {scene.number}[/] ({scene.kind.value}), round {scene.round}: "
            f"spotlight with the {scene.turn.value} ({escape(holder)}); "
            f"{scene.elapsed_seconds} s played"
        )
    seats = Table("player", "tokens", "free action used")
    for seat in table.seats:
        used = scene is not None and scene.free_actions_of(seat.name) > 0
        seats.add_row(escape(seat.name), str(seat.tokens), "yes" if used else "")
    if table.seats:
        console().print(seats)
    console().print(f"Dread: {table.dread}")
    for bought in table.bought:
        whom = f" ({escape(bought.creature)})" if bought.creature else ""
        console().print(f"  spent {bought.amount}{whom}: {escape(bought.what)}")


def _run(
    db: str | None,
    campaign: str | None,
    command: SceneCommand,
    as_json: bool,
    dice: str | None = None,
) -> None:
    """Run one scene command: a line per record, and the whole table in the ``--json``."""
    run(db, campaign, command, as_json, dice, lines=True, details=_table_data)


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
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """The GM sets a scene; new players sit down with their spotlight tokens
    [DG-LOOP-1, DG-SPOT-2].

    Example: `turnkeeper scene open combat --players Aldo,Bea --creatures ogre`.
    """
    command = OpenScene(kind, _names(players), _names(creatures), not no_tokens, gm_first)
    _run(db, campaign, command, as_json)


@scene_app.command("spotlight")
def spotlight(
    vote: Annotated[
        list[str] | None,
        typer.Option("--vote", help="A player's vote: VOTER=CANDIDATE (repeatable)."),
    ] = None,
    gm: Annotated[
        str | None, typer.Option("--gm", help="The GM's choice on a tie or dispute.")
    ] = None,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """The players choose who takes the spotlight; it costs a token [DG-SPOT-1, DG-SPOT-2].

    More than half of the scene's players must vote for the same player; short of that the
    GM breaks the tie or dispute with --gm NAME.

    Example: `turnkeeper scene spotlight --vote Aldo=Bea --vote Bea=Bea`.
    """
    command = TakeSpotlight(votes=_pairs(vote, "--vote"), gm_choice=gm)
    _run(db, campaign, command, as_json)


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
    dice: str | None = DiceOption,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """The spotlit player acts; momentum may keep the spotlight [DG-ACT-1, DG-MOM-1].

    Example: `turnkeeper scene act Bea "shoots the ogre" --roll d20 --target 12`.
    """
    command = Act(player, what, tuple(tag or ()), _outcome(outcome), roll, target)
    _run(db, campaign, command, as_json, dice)


@scene_app.command("free")
def free(
    actor: Annotated[str, typer.Argument(help="A player, or a GM creature after the GM's action.")],
    what: Annotated[str, typer.Argument(help="The free action.")],
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Take a free action: one per round [DG-FREE-1].

    Example: `turnkeeper scene free Aldo "draws his sword"`.
    """
    _run(db, campaign, FreeAction(actor, what), as_json)


@scene_app.command("gm")
def gm_action(
    what: Annotated[str, typer.Argument(help="The GM's action.")] = "passes",
    creature: Annotated[
        str | None, typer.Option("--creature", help="The creature that acts.")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="A tag such as momentum.")] = None,
    outcome: Annotated[
        str | None, typer.Option("--outcome", help="critical, success, partial or failure.")
    ] = None,
    roll: Annotated[str | None, typer.Option("--roll", help="Roll this, e.g. d20+2.")] = None,
    target: Annotated[
        int | None, typer.Option("--target", help="The number the roll must reach.")
    ] = None,
    during_rest: Annotated[
        bool,
        typer.Option(
            "--during-rest",
            help="Taken during a rest: the GM gains dread (implied while the party rests).",
        ),
    ] = False,
    creature_free: Annotated[
        list[str] | None,
        typer.Option(
            "--creature-free", help="CREATURE=WHAT, a free action after the GM's (repeatable)."
        ),
    ] = None,
    dice: str | None = DiceOption,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """The GM acts; with the players' action it makes a round, and time passes [DG-RND-1].

    Example: `turnkeeper scene gm "the ogre swings at Bea" --creature ogre`.
    """
    command = GmAct(
        what,
        creature,
        tuple(tag or ()),
        _outcome(outcome),
        roll,
        target,
        during_rest=during_rest,
        creature_free=_pairs(creature_free, "--creature-free"),
    )
    _run(db, campaign, command, as_json, dice)


@scene_app.command("give")
def give(
    giver: Annotated[str, typer.Argument(help="The player who gives.")],
    receiver: Annotated[str, typer.Argument(help="The player who receives.")],
    count: Annotated[int, typer.Argument(help="How many tokens.")] = 1,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Give spotlight tokens to another player [DG-SPOT-2].

    Example: `turnkeeper scene give Aldo Bea 1`.
    """
    _run(db, campaign, GiveTokens(giver, receiver, count), as_json)


@dread_app.command("spend")
def spend_dread(
    amount: Annotated[int, typer.Argument(help="How much dread.")],
    what: Annotated[str, typer.Argument(help="What it buys.")],
    creature: Annotated[
        str | None, typer.Option("--creature", help="The creature enhanced.")
    ] = None,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Spend dread to enhance a creature the GM controls [DG-DREAD-1].

    Example: `turnkeeper scene dread spend 1 "a thicker hide" --creature ogre`.
    """
    _run(db, campaign, SpendDread(amount, what, creature), as_json)


@scene_app.command("compromise")
def compromise(
    player: Annotated[str, typer.Argument(help="The player whose last roll just missed.")],
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Take a roll that missed by 1 or 2 as a success; the GM gains dread [DG-DREAD-1].

    Example: `turnkeeper scene compromise Aldo`.
    """
    _run(db, campaign, Compromise(player), as_json)


@scene_app.command("status")
def status(
    db: str | None = DbOption, campaign: str | None = CampaignOption, as_json: bool = JsonOption
) -> None:
    """The scene, the spotlight, every player's tokens and the dread pool.

    Example: `turnkeeper scene status`.
    """
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
    emit(_status_data(name, state), as_json, lambda: _render_status(state))


@scene_app.command("close")
def close(
    db: str | None = DbOption, campaign: str | None = CampaignOption, as_json: bool = JsonOption
) -> None:
    """End the scene [DG-LOOP-1].

    Example: `turnkeeper scene close`.
    """
    _run(db, campaign, CloseScene(), as_json)
