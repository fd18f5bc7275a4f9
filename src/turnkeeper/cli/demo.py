"""``turnkeeper demo``: a short seeded expedition on the embedded default store.

It is the quick start's first command: on a fresh machine it makes a campaign in the
default SQLite file, takes the example party into the example dungeon with a torch, and
plays a few dungeon turns, so the referee sees the time record being kept.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import typer
from sqlalchemy.engine import make_url

from turnkeeper.campaign import Command, Light, Recorded, Rest, load_party
from turnkeeper.campaign.glance import glance_of
from turnkeeper.cli.options import DbOption, check_seed
from turnkeeper.cli.output import JsonOption, console, emit, say
from turnkeeper.cli.runner import open_campaigns, records_data, show_lines
from turnkeeper.cli.status import status_panel
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, Turn
from turnkeeper.rules import find_ruleset
from turnkeeper.store import resolve_url
from turnkeeper.world.sites import load_site

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

DEMO = "demo"


def _expedition() -> list[Command]:
    """Into the abbey with a torch; a second torch when the first gutters; a rest when due;
    the lamp when the second torch is spent, so the party never runs in the dark."""
    site = load_site(str(files("turnkeeper.examples") / "site.toml"))
    return [
        EnterSite(site),
        Light("torch"),
        Turn(mode="cautious"),
        Turn(mode="cautious"),
        Turn(mode="swift"),
        Light("torch"),
        Turn(mode="cautious"),
        Turn(mode="cautious", noisy=True),
        Rest(),
        Light("lamp"),
        Turn(mode="running"),
        Rest(),
    ]


def program() -> str:
    """The command to type for the next verb, as this one was run (issue 25: the demo said
    `turnkeeper turn`, not on PATH after the quick start's `.venv/bin/turnkeeper demo`).

    ``turnkeeper`` when that name on PATH is this script; else the script's path as typed
    (``.venv/bin/turnkeeper``); ``python -m turnkeeper`` when run as a module.
    """
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is None or script.name != "turnkeeper":
        if script is not None and script.name == "__main__.py":
            python = Path(sys.executable)
            typed = shutil.which(python.name)
            on_path = typed is not None and Path(typed).resolve() == python.resolve()
            return f"{shlex.quote(python.name if on_path else str(python))} -m turnkeeper"
        return "turnkeeper"  # run in process (a test, an embedding program)
    found = shutil.which("turnkeeper")
    if found is not None and Path(found).resolve() == script.resolve():
        return "turnkeeper"
    return shlex.quote(str(script))


@verbs.command("demo")
def demo_command(
    ruleset: str = typer.Option("ex", "--ruleset", "-r", help="The preset to play under."),
    seed: int = typer.Option(4, "--seed", help="Seed of the expedition's dice."),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Play a short seeded expedition into the example dungeon (replaces an earlier demo).

    Example: `turnkeeper demo --seed 7`.
    """
    check_seed(seed)
    rules = find_ruleset(ruleset)
    party = load_party(str(files("turnkeeper.examples") / "party.toml"), rules)
    with open_campaigns(db, create=True) as campaigns:
        if DEMO in campaigns.names():
            campaigns.delete(DEMO)
        campaigns.new(DEMO, rules, party, seed)
        campaigns.use(DEMO)
        records: list[Recorded] = []
        for command in _expedition():
            visit = campaigns.state(DEMO).site
            if visit is not None and visit.encounter is not None:
                # the scripted party slips past whatever it met and explores on, so every
                # seed plays the whole expedition (a referee would fight or parley)
                records += campaigns.execute(DEMO, EndEncounter())
            records += campaigns.execute(DEMO, command)
        state = campaigns.state(DEMO)
    where = make_url(resolve_url(db)).render_as_string(hide_password=True)
    data: dict[str, Any] = {
        "campaign": DEMO,
        "store": where,
        "records": records_data(records, state),
    }
    glance = glance_of(state)
    data["status"] = glance["referee"]

    def render() -> None:
        say(
            (DEMO, "bold"),
            f": the example party enters the Sunken Abbey under {rules.name} (seed {seed}); "
            "it slips past what it meets on the way, and rests when it must\n",
        )
        show_lines(records)
        console().print(status_panel(glance))
        tk = program()
        met = state.site is not None and state.site.encounter is not None
        go_on = (
            f"Meet what came with `{tk} combat start`, or slip past it with "
            f"`{tk} site resume`; then `{tk} turn`"
            if met
            else f"Go on with `{tk} turn`"
        )
        say(
            (f"The journal is kept in {where}.", "dim"),
            f"\n{go_on}, `{tk} status`, `{tk} log`, `{tk} undo` or "
            f"`{tk} export --format markdown`.",
        )

    emit(data, as_json, render)
