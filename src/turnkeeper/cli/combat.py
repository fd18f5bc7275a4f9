"""CLI verbs: ``combat start|status|round|declare|resolve|attack|check|save|pin|end``.

A fight runs inside the current campaign: the party joins it, each round moves the clock
on, every roll is in the journal, and ``--dice`` takes the faces of physical dice instead
of seeded ones. ``simulate fight`` (many fights at once, no campaign) is in ``cli.simulate``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from turnkeeper.cli.app import JsonOption, console, emit
from turnkeeper.cli.options import CampaignOption, DbOption, DiceOption
from turnkeeper.cli.runner import open_campaigns, run
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files import read_text
from turnkeeper.kernel.combat_state import Combatant, CombatState, Side
from turnkeeper.procedures.combat.actions import held, parse_action
from turnkeeper.procedures.combat.campaign import StartFight
from turnkeeper.procedures.combat.roster import (
    RosterError,
    parse_monster,
    parse_roster,
    parse_side,
    parse_surprised,
)
from turnkeeper.procedures.combat.round import (
    AnnounceDone,
    Attack,
    BeginRound,
    Check,
    Declare,
    EndCombat,
    Pin,
    Resolve,
    Save,
    Surrender,
)
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.rules.schema import Ruleset

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

combat_app = typer.Typer(
    help="Run a fight: rounds, initiative, declarations, attacks.\n\n"
    "Example: `turnkeeper combat start --foes examples/foes.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(combat_app, name="combat")

_FOES = typer.Option(
    None,
    "--foes",
    help="A foes file (TOML), e.g. examples/foes.toml; its [[allies]] join the party's side "
    "[CB-SIDE-1].",
)
_ALLIES = typer.Option(
    None, "--ally", help='An ally of the party in one line: "Hireling:hp=4,ac=12,str=1".'
)
_MONSTERS = typer.Option(
    None, "--monster", help='A foe in one line: "Goblin:hd=1,hp=4,ac=12,dex=1,count=3".'
)
_AWARE = typer.Option(None, "--aware", help="A side that cannot be surprised.")
_THEN = typer.Option(
    None, "--then", help="A further action, ACTION or ACTION:TARGET (repeat for more)."
)


def _sides(
    files: list[Path], monsters: list[str], allies: list[str]
) -> tuple[tuple[Combatant, ...], tuple[Combatant, ...]]:
    """The allies and the foes a fight brings besides the party (CB-SIDE-1)."""
    joining: list[Combatant] = []
    foes: list[Combatant] = []
    for file in files:
        read = parse_roster(read_text(file, "foes file", RosterError), str(file))
        for combatant in read:
            (foes if combatant.side is Side.OPPOSITION else joining).append(combatant)
    for spec in monsters:
        foes += parse_monster(spec)
    for spec in allies:
        joining += parse_monster(spec, Side.PARTY)
    return tuple(joining), tuple(foes)


def _current(db: str | None, campaign: str | None) -> tuple[str, CombatState, Ruleset]:
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
    if state.combat is None:
        raise IllegalCommandError("no combat in this campaign: start one with `combat start`")
    return name, state.combat, state.ruleset


def combat_data(combat: CombatState) -> dict[str, Any]:
    """The fight as JSON-able data."""
    data: dict[str, Any] = combat.model_dump(mode="json")
    data["standing"] = {
        side.value: [c.name for c in combat.members(side) if c.standing] for side in Side
    }
    return data


def _render(combat: CombatState, rules: Ruleset) -> None:
    table = Table(box=None, pad_edge=False)
    for column in ("name", "side", "hp", "ac", "conditions", "in melee with", "declared"):
        table.add_column(column)
    for c in combat.combatants:
        declared = combat.declaration(c.name)
        done = " (done)" if c.name in combat.acted else ""
        if declared is not None and held(combat, declared, rules):
            done = " (held: the other side announces first)"
        cells = (
            c.name,
            c.side.value,
            f"{c.hp}/{c.max_hp}",
            str(c.ac),
            ", ".join(sorted(x.value for x in c.conditions)),
            ", ".join(sorted(c.melee_with)),
            ", ".join(str(a) for a in declared.actions) + done if declared else "",
        )
        table.add_row(*(Text(cell) for cell in cells))  # names are the user's, never markup
    who = combat.initiative.value if combat.initiative else "simultaneous"
    face = f" · face {combat.face}" if combat.face else ""
    order = " → ".join("+".join(beat) for beat in combat.order)
    console().print(
        f"[bold]round {combat.round}[/] · {combat.phase.value} · initiative {who}{face}"
        + (f" · {combat.seconds} s" if combat.seconds else ""),
        highlight=False,
    )
    if order:
        console().print(Text(f"order: {order}", style="dim"), highlight=False)
    console().print(table)


@combat_app.command("start")
def start(
    foes: list[str] | None = _FOES,
    monster: list[str] | None = _MONSTERS,
    surprise: str | None = typer.Option(
        None,
        "--surprise",
        help="Who is surprised: party, foes, both or none (default: the encounter's, else roll).",
    ),
    ally: list[str] | None = _ALLIES,
    aware: list[str] | None = _AWARE,
    attackers: str | None = typer.Option(
        None, "--attackers", help="The side trying for surprise: party or foes [CB-SUR-1]."
    ),
    meeting: str | None = typer.Option(
        None,
        "--meeting",
        help="How the groups met, for the ruleset to settle surprise: encounter (one comes "
        "suddenly on the other), occupied (the party moved into an occupied place "
        "[EX-SUR-2]), ambush (the foes leap from ambush or lie well hidden [EX-SUR-1]) or "
        "both-unaware (everyone rolls WIS/Scout, any who lose are surprised [EX-SUR-4]).",
    ),
    mode: str | None = typer.Option(
        None,
        "--mode",
        help="The party's movement mode when they met: cautious, swift or running "
        "[EX-SUR-1 to EX-SUR-3] (default: its last turn's in the site, if any).",
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Start a fight: the party against foes from a file, the command line or the encounter.

    Example: `turnkeeper combat start --foes examples/foes.toml`;
    `turnkeeper combat start --monster "Rat:hd=1,ac=12,count=3" --surprise foes`;
    `turnkeeper combat start --monster "Ghoul:hd=2" --meeting ambush --mode cautious`.
    """
    allies, opposition = _sides([Path(f) for f in foes or []], monster or [], ally or [])
    surprised = parse_surprised(surprise) if surprise is not None else None
    command = StartFight(
        foes=opposition,
        allies=allies,
        surprised=surprised,
        aware=frozenset(parse_side(a, "--aware") for a in aware or []),
        attackers=parse_side(attackers, "--attackers") if attackers else None,
        meeting=Meeting.parse(meeting, "--meeting") if meeting is not None else None,
        mode=mode.strip().lower() if mode is not None else None,
    )
    run(db, campaign, command, as_json, dice)


@combat_app.command("status")
def status(
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """The fight: round, initiative, order, every combatant's hit points and conditions.

    Example: `turnkeeper combat status`.
    """
    name, combat, rules = _current(db, campaign)
    emit(
        {"campaign": name, "combat": combat_data(combat)},
        as_json,
        lambda: _render(combat, rules),
    )


@combat_app.command("round")
def next_round(
    adjust: int = typer.Option(
        0, "--adjust", help="The referee's adjustment to the initiative die's face [TP-CBT-1]."
    ),
    influence: int = typer.Option(
        0,
        "--influence",
        help="The party's sway on the newcomers' reaction, when the initiative die shows 1 "
        "[TP-INI-1].",
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Start the next round: the clock moves on and initiative is rolled (or kept).

    Example: `turnkeeper combat round`.
    """
    run(db, campaign, BeginRound(adjust, influence), as_json, dice)


_OWN_SIDE = typer.Option(
    False, "--own-side", help="The blow is meant for someone of the attacker's own side."
)


@combat_app.command("declare")
def declare(
    actor: str = typer.Argument(..., help="Who declares."),
    action: str = typer.Argument(
        ...,
        help="attack, ranged, cast, move, move-far, maneuver, other, on-turn or instant; "
        'what the player describes may follow in brackets: "other (take oil from my pouch)".',
    ),
    target: str | None = typer.Argument(None, help="The target, if any."),
    then: list[str] | None = _THEN,
    feet: int | None = typer.Option(
        None, "--feet", help="How far a move goes, in feet [CB-ACT-3]."
    ),
    magic_dice: int = typer.Option(
        1, "--magic-dice", help="How many magic dice a spell rolls [TP-MAG-1]."
    ),
    own_side: bool = _OWN_SIDE,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Announce an actor's actions for this round; the rules refuse what is not allowed.

    Example: `turnkeeper combat declare Aldo attack "Goblin 1"`;
    `turnkeeper combat declare Bea "other (take oil from my pouch)" --then "ranged:Lizardman"`.
    """
    actions = (
        parse_action(action, target, feet, magic_dice, own_side),
        *(parse_action(extra, None, None, magic_dice, own_side) for extra in then or []),
    )
    run(db, campaign, Declare(actor, actions), as_json)


@combat_app.command("resolve")
def resolve(
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Resolve every declared action, beat by beat.

    Example: `turnkeeper combat resolve`.
    """
    run(db, campaign, Resolve(), as_json, dice)


@combat_app.command("attack")
def attack(
    attacker: str = typer.Argument(..., help="Who attacks."),
    target: str = typer.Argument(..., help="Whom."),
    ranged: bool = typer.Option(False, "--ranged", help="A ranged attack."),
    own_side: bool = _OWN_SIDE,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Roll one attack at once (and its damage on a hit): it is the attacker's action this
    round, within the rules' limits, after those who act first. The fallen are no target.

    Example: `turnkeeper combat attack Aldo "Goblin 3"`.
    """
    run(db, campaign, Attack(attacker, target, ranged, own_side), as_json, dice)


@combat_app.command("check")
def check(
    actor: str = typer.Argument(..., help="Who attempts the risky action."),
    stat: str = typer.Argument(..., help="The relevant stat, e.g. STR."),
    defence: int = typer.Option(
        ..., "--defence", help="The target's defence in that attribute, to roll higher than."
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Roll an opposed check for a risky action the referee asks to be rolled: d20 + the
    stat succeeds if higher than the target's defence [TP-OPP-1, TP-ROLL-1]; +1 for the party
    on a Second Wind round [TP-INI-1].

    Example: `turnkeeper combat check Aldo STR --defence 12`.
    """
    run(db, campaign, Check(actor, stat, defence), as_json, dice)


@combat_app.command("save")
def save(
    name: str = typer.Argument(..., help="Who must save."),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """A saving throw against a spell, a trap, a poison: the d20 equal to or over the target
    succeeds; a monster's target is 19 minus its HD, a character's the sheet's `save`, else
    19 minus level [PG-SAVE-1]. It is no action of the saver's.

    Example: `turnkeeper combat save "Goblin 2"`.
    """
    run(db, campaign, Save(name), as_json, dice)


@combat_app.command("announce-done")
def announce_done(
    side: str = typer.Argument(..., help="party or foes."),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Say a side has finished announcing (or acting) this round; who declared nothing does
    nothing, and the other side need not wait for them [TP-CBT-1, PG-CBT-1, CB-RND-1].

    Example: `turnkeeper combat announce-done foes`.
    """
    run(db, campaign, AnnounceDone(parse_side(side, "side")), as_json)


@combat_app.command("pin")
def pin(
    name: str = typer.Argument(..., help="The combatant."),
    place: int = typer.Argument(..., help="Its place in the order, 1 first."),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Pin a combatant to a place in the order of this and later rounds.

    Example: `turnkeeper combat pin Aldo 1`.
    """
    run(db, campaign, Pin(name, place), as_json)


_WHO_YIELDS = typer.Argument(..., metavar="NAME...", help="Who yields.")


@combat_app.command("surrender")
def surrender(
    names: list[str] = _WHO_YIELDS,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Combatants yield: out of the fight, neither acting nor a target; when their side has
    nobody left fighting, the fight is over, and a party that overcame them wins [PG-CBT-1].

    Example: `turnkeeper combat surrender "Goblin 1" "Goblin 2"`.
    """
    run(db, campaign, Surrender(tuple(names)), as_json)


@combat_app.command("end")
def end(
    winner: str | None = typer.Option(
        None, "--winner", help="party or foes (default: the side still standing)."
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """End the fight by hand (a parley, a flight): treasure, a rest due [PG-TRE-1,
    EX-REST-2]. A fight whose side has nobody left fighting ends by itself [PG-CBT-1].

    Example: `turnkeeper combat end --winner party`.
    """
    command = EndCombat(parse_side(winner, "--winner") if winner else None)
    run(db, campaign, command, as_json, dice)
