"""``turnkeeper play``: a session at the table.

The campaign is loaded once; each line is a verb of the command line without the
``turnkeeper`` prefix (``turn --mode cautious``, ``combat attack Aldo "giant rats 1"``) and runs
through the very same commands as the shell (:func:`turnkeeper.cli.app.invoke`), against the
session's one campaign service (:func:`turnkeeper.cli.runner.session`), so only the first
command pays for loading. Tab completes verbs, options and the campaign's own names; the
history is kept across sessions; the bottom toolbar shows the date, the light, a rest due,
where the party is and the fight's round. Ctrl-C clears the line, Ctrl-D (or ``exit``) leaves.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from pathlib import Path

import platformdirs
import typer
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from turnkeeper.campaign import CampaignState
from turnkeeper.cli.app import VERBS, invoke, load_verb, say
from turnkeeper.cli.options import DbOption
from turnkeeper.cli.runner import open_campaigns, session
from turnkeeper.errors import TurnkeeperError
from turnkeeper.service import Campaigns

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

#: Words a session knows beyond the verbs.
LEAVE = ("exit", "quit")
#: Verbs that make no sense inside a session.
NOT_IN_PLAY = frozenset({"play", "serve"})


@verbs.command("play")
def play_command(
    campaign: str | None = typer.Argument(
        None, help="The campaign to play (default: the current one); it becomes current."
    ),
    db: str | None = DbOption,
) -> None:
    """A session at the table: every verb without the prefix, with completion and history.

    Tab completes verbs, options and the campaign's names; Ctrl-D leaves.

    Example: `turnkeeper play keep`, then `turn --mode cautious` at its prompt.
    """
    # prompt_toolkit needs a terminal; without one, the lines come from the input as a
    # script's would (turnkeeper play < session.txt), and with no input at all, one line.
    if sys.stdin is None or sys.stdin.closed:
        raise TurnkeeperError(
            "play has no input to read: run it in a terminal, or give it commands on its "
            "input (turnkeeper play < session.txt)"
        )
    with open_campaigns(db) as campaigns:
        table = Table(campaigns, campaigns.resolve(campaign))
        if sys.stdin.isatty():
            table.run()
        else:
            table.read(sys.stdin)


class Table:
    """One session: the campaign service, the prompt, and the toolbar read from the state."""

    def __init__(
        self,
        campaigns: Campaigns,
        name: str,
        *,
        input: Input | None = None,
        output: Output | None = None,
        history: History | None = None,
    ) -> None:
        self.campaigns = campaigns
        self.name = name
        campaigns.use(name)  # the session's verbs act on it, as after `use`
        self.toolbar = toolbar(campaigns.state(name))
        self._streams = input, output, history

    @cached_property
    def prompt(self) -> PromptSession[str]:
        """The prompt, made when a terminal session starts: it takes hold of the input, which
        a session read from a script does not have (:meth:`read`)."""
        input, output, history = self._streams
        return PromptSession(
            history=history if history is not None else _history(),
            completer=TableCompleter(lambda: self.state),
            complete_while_typing=False,
            bottom_toolbar=lambda: self.toolbar,
            input=input,
            output=output,
        )

    @property
    def state(self) -> CampaignState:
        """The campaign now (the service keeps it in memory between commands)."""
        return self.campaigns.state(self.name)

    def run(self) -> None:
        """Read and run lines until Ctrl-D or ``exit``; Ctrl-C clears the line."""
        say(
            f"Playing {self.name} ({self.state.ruleset.name}). Tab completes; "
            "`--help` after a verb explains it; Ctrl-D leaves."
        )
        while True:
            try:
                line = self.prompt.prompt(f"{self.name}> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not self.execute(line):
                break

    def read(self, lines: Iterable[str]) -> None:
        """Run the lines of a script (the input is not a terminal) until its end or ``exit``:
        no prompt, no toolbar, each verb's output as in the shell."""
        for line in lines:
            if not self.execute(line):
                break

    def execute(self, line: str) -> bool:
        """Run one line; False when it asks to leave."""
        try:
            words = shlex.split(line)
        except ValueError as error:
            say((f"cannot read that line: {error}", "red"))
            return True
        if not words:
            return True
        if words[0] in LEAVE:
            return False
        if words[0] in NOT_IN_PLAY:
            say(f"`{words[0]}` is for the shell, not a session.")
            return True
        with session(self.campaigns):
            invoke(words)
        try:
            self.name = self.campaigns.resolve(None)
            self.toolbar = toolbar(self.state)
        except TurnkeeperError:  # the campaign was deleted inside the session
            self.toolbar = "no campaign: `use NAME` or `new NAME --ruleset ex`"
        return True


def _history() -> History:
    folder = Path(platformdirs.user_data_dir("turnkeeper"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(folder / "play-history"))


def toolbar(state: CampaignState) -> str:
    """The line under the prompt: date, light, rest, where the party is, the fight."""
    parts = [state.date]
    light = state.light
    if light.dark:
        parts.append("darkness")
    elif light.turns_left is None:
        parts.append(f"{light.source}")
    else:
        plural = "" if light.turns_left == 1 else "s"
        parts.append(f"{light.source}: {light.turns_left} turn{plural} left")
    if state.rest.due_at is not None:
        parts.append("rest due")
    if state.site is not None:
        visit = state.site
        area = f", {visit.area}" if visit.area else ""
        parts.append(f"{visit.site.name} level {visit.level}{area}")
    elif state.wilderness is not None:
        parts.append(f"hex {state.wilderness.position.label}")
    fight = state.combat
    if fight is not None and state.fight_running:
        ahead = f", {fight.initiative.value} first" if fight.initiative else ""
        parts.append(f"fight: round {fight.round}, {fight.phase.value}{ahead}")
    if state.scenes.scene is not None:
        parts.append(f"scene: {state.scenes.scene.kind.value}")
    return " · ".join(parts)


def campaign_names(state: CampaignState) -> list[str]:
    """The campaign's own names a line may need: characters, foes, light sources, supplies,
    countdowns, movement modes, hexes the party knows, features found, areas of the site."""
    names: list[str] = [c.name for c in state.party.characters]
    names += [m.name for m in state.monsters]
    if state.combat is not None:
        names += [c.name for c in state.combat.combatants]
    names += list(state.ruleset.light.sources)
    names += [*state.supplies.counted, *state.supplies.dice]
    names += [c.name for c in state.countdowns]
    names += list(state.ruleset.dungeon.movement)
    if state.site is not None:
        level = state.site.current_level
        names += [area.key for area in level.areas]
    wild = state.wilderness
    if wild is not None:
        names += sorted(h.label for h in wild.visited)
        features = (f for found in wild.hexmap.features.values() for f in found)
        names += [f.name for f in features if f.id in wild.found]
    return list(dict.fromkeys(names))


class TableCompleter(Completer):
    """Tab completion: verbs first, then a verb's sub-verbs and options, and the campaign's
    own names (quoted when they hold a space)."""

    def __init__(self, state: Callable[[], CampaignState]) -> None:
        self.state = state

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        text = document.text_before_cursor
        try:
            words = shlex.split(text)
        except ValueError:  # inside an open quote: complete what follows it
            words = shlex.split(text + '"')
        current = "" if not words or text.endswith(" ") else words[-1]
        done = words if current == "" else words[:-1]
        yield from self._complete(done, current)

    def _complete(self, done: list[str], current: str) -> Iterator[Completion]:
        if not done:
            offered = [v for v in VERBS if v not in NOT_IN_PLAY] + list(LEAVE)
            yield from _starting(offered, current)
            return
        if done[0] not in VERBS or done[0] in NOT_IN_PLAY:
            return
        command = load_verb(done[0])
        for word in done[1:]:  # walk down the sub-verbs named so far
            sub = getattr(command, "commands", {}).get(word)
            if sub is not None:
                command = sub
        offered = list(getattr(command, "commands", {}))
        if current.startswith("-"):
            offered = [o for p in command.params for o in (*p.opts, *p.secondary_opts)]
        else:
            offered += campaign_names(self.state())
        yield from _starting(offered, current)


def _starting(words: Iterable[str], current: str) -> Iterator[Completion]:
    for word in words:
        if word.casefold().startswith(current.casefold()):
            shown = shlex.quote(word) if " " in word else word
            yield Completion(shown, start_position=-len(current), display=word)
