"""``turnkeeper play``: a session at the table.

The campaign is loaded once; each line is a verb of the command line without the
``turnkeeper`` prefix (``turn --mode cautious``, ``combat attack Aldo "giant rats 1"``) and runs
through the very same commands as the shell (:func:`turnkeeper.cli.app.invoke`), against the
session's one campaign service (:func:`turnkeeper.cli.runner.session`), so only the first
command pays for loading. Tab completes verbs, options and each argument by what it names
now (after ``heal`` the wounded, after ``use`` the campaigns); the history is kept across
sessions; the bottom toolbar shows the date, the light, a rest due, where the party is and
the fight's round. Ctrl-C clears the line, Ctrl-D (or ``exit``) leaves.
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
from typer._click import Command, Parameter
from typer.core import TyperArgument

from turnkeeper.campaign import CampaignState
from turnkeeper.cli.app import VERBS, invoke, load_verb
from turnkeeper.cli.from_table import DefaultVerb
from turnkeeper.cli.options import DbOption
from turnkeeper.cli.output import say
from turnkeeper.cli.runner import open_campaigns, session
from turnkeeper.errors import TurnkeeperError
from turnkeeper.kernel.state import in_darkness
from turnkeeper.service import Campaigns
from turnkeeper.verbs import VERBS as TABLE
from turnkeeper.verbs import VerbBody
from turnkeeper.verbs.line import DEFAULT_WORD, quoted, split_words, values_next

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

    Tab completes verbs, options and what each argument names now; Ctrl-D leaves.

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
            completer=TableCompleter(lambda: self.state, self.campaigns.names),
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
    if in_darkness(state):
        parts.append("darkness")
    elif light.dark:
        parts.append("no light lit")
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


class TableCompleter(Completer):
    """Tab completion by kind and by context: verbs first, then a verb's sub-verbs, options
    (after ``-``) and, for each argument or option value, what its kind names now in the game
    (:mod:`turnkeeper.verbs.kinds`: after ``heal`` the wounded, after ``combat attack Aldo``
    Aldo's foes standing) or the values of a choice; a campaign's name where one is asked for.
    A value of a kind with nothing to offer now offers nothing. Names holding a space come
    quoted, and a quote the line left open is closed."""

    def __init__(
        self,
        state: Callable[[], CampaignState],
        campaigns: Callable[[], Iterable[str]] = tuple,
    ) -> None:
        self.state = state
        self.campaigns = campaigns

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        text = document.text_before_cursor
        done, current, start, quote = split_words(text)
        for word in self._complete(done, current):
            if word.casefold().startswith(current.casefold()):
                shown = quoted(word, quote)
                yield Completion(shown, start_position=start - len(text), display=word)

    def _complete(self, done: list[str], current: str) -> list[str]:
        if not done:
            return [v for v in VERBS if v not in NOT_IN_PLAY] + list(LEAVE)
        if done[0] not in VERBS or done[0] in NOT_IN_PLAY:
            return []
        command = load_verb(done[0])
        path = [done[0]]
        used = 1  # the words naming the command: `travel to` is the verb `travel`
        for word in done[1:]:  # walk down the sub-verbs named so far
            sub = getattr(command, "commands", {}).get(word)
            if sub is None:
                break
            if not (isinstance(command, DefaultVerb) and word == DEFAULT_WORD):
                path.append(word)
            command, used = sub, used + 1
        subs = list(getattr(command, "commands", {}))
        named = subs if used == len(done) else []
        if isinstance(command, DefaultVerb):  # `travel ne`: the words are the group's own verb
            command, subs = command.commands[DEFAULT_WORD], []
            named = [s for s in named if s != DEFAULT_WORD]
        if current.startswith("-"):
            return [o for p in command.params for o in (*p.opts, *p.secondary_opts)]
        if subs:
            return named
        return named + self._values(command, tuple(path), done[used:])

    def _values(self, command: Command, path: tuple[str, ...], typed: list[str]) -> list[str]:
        """What the next value after ``typed`` (the words after the verb's) may be: a verb of
        the table as every front door completes it (:func:`values_next`), the campaigns
        after ``--campaign``; a command written by hand from its parameters."""
        body = _body_of(path)
        if body is not None:
            if typed and typed[-1] in CAMPAIGN_FLAGS:
                return list(self.campaigns())
            return values_next(body, typed, self.state(), foreign=VALUE_FLAGS)
        options = {o: p for p in command.params for o in (*p.opts, *p.secondary_opts)}
        positional = [p for p in command.params if isinstance(p, TyperArgument)]
        given: dict[str, str] = {}
        taken: list[str] = []  # what a repeated argument was given already
        expecting: Parameter | None = None
        for word in typed:
            if expecting is not None:
                given[expecting.name or ""] = word
                expecting = None
                continue
            flag, equals, value = word.partition("=")
            option = options.get(flag) if word.startswith("-") else None
            if option is not None:
                if equals:
                    given[option.name or ""] = value
                elif _takes_value(option):
                    expecting = option
                continue
            if not positional:  # one more than the verb takes: click refuses it
                return []
            argument = positional[0]
            given[argument.name or ""] = word
            if argument.nargs == -1:
                taken.append(word)
            else:
                positional.pop(0)
        wanted = expecting if expecting is not None else next(iter(positional), None)
        if wanted is None:
            return []
        offered = self._of(wanted, path, given)
        return [o for o in offered if o not in taken] if wanted.nargs == -1 else offered

    def _of(self, param: Parameter, path: tuple[str, ...], given: dict[str, str]) -> list[str]:
        """The values a parameter of a command written by hand may take: the campaigns for a
        campaign, the world's parties for a party, else a choice's values."""
        if "--campaign" in param.opts or (path in NAMES_A_CAMPAIGN and param.name == "name"):
            return list(self.campaigns())
        if path in NAMES_A_PARTY and "--party" in param.opts:
            return list(self.state().companies)
        described = getattr(param, "type_descriptor", None)
        if described is None or not described.is_choice:
            return []
        return [str(getattr(c, "value", c)) for c in described.choices or ()]


#: The options every verb of the shell takes that name a campaign, and those that take a value.
CAMPAIGN_FLAGS = ("--campaign", "-c")
VALUE_FLAGS = (*CAMPAIGN_FLAGS, "--db")
#: The commands written by hand whose argument ``name`` names a campaign of the store.
NAMES_A_CAMPAIGN = frozenset({("use",), ("campaigns", "delete")})
#: The commands written by hand whose ``--party`` names a party of the world.
NAMES_A_PARTY = frozenset({("calendar",)})


def _body_of(path: tuple[str, ...]) -> type[VerbBody] | None:
    """The verb of the table a command's words name (``combat attack``), if any."""
    return next((b for b in TABLE.values() if b.line_words() == path), None)


def _takes_value(option: Parameter) -> bool:
    return not (getattr(option, "is_flag", False) or getattr(option, "count", False))
