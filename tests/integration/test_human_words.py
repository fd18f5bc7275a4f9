"""Words for people (issue 24, item 4, done when): no snake_case name, Python repr or Rich
markup residue in any human output or help page.

Every verb's worked example is run, without ``--json``, in a campaign prepared for it: the
verb table's ``example`` parts and the ``Example:`` parts of every other command's help (the
click commands of :data:`turnkeeper.cli.app.VERBS` and their sub-commands, to any depth).
Each runs where it can succeed (:data:`PLACES`: a campaign, a site, the wilderness, a fight,
a dungeoneers scene), in a copy of that place's folder and store; an example that cannot run
in a generic campaign runs as the variant of :data:`VARIANTS`, and one left out is in
:data:`SKIPPED` with its reason. What it prints (stdout and stderr) is scanned, and so is every
command's ``--help``.
"""

from __future__ import annotations

import io
import re
import shlex
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import turnkeeper
from turnkeeper.cli.app import VERBS, invoke, load_verb
from turnkeeper.verbs import VERBS as TABLE
from turnkeeper.verbs import Place

# --- the examples -------------------------------------------------------------------------

EXAMPLE_PART = re.compile(r"Example:(.*)", re.DOTALL)
COMMAND_LINE = re.compile(r"`turnkeeper ([^`]+)`")


def _commands() -> list[tuple[str, object]]:
    """Every verb and sub-command, to any depth, by its words."""
    found: list[tuple[str, object]] = []
    todo: list[tuple[str, object]] = [(name, load_verb(name)) for name in VERBS]
    while todo:
        path, command = todo.pop(0)
        found.append((path, command))
        subs = getattr(command, "commands", {})
        todo += [(f"{path} {name}", sub) for name, sub in subs.items()]
    return found


COMMANDS = _commands()


def _examples() -> list[str]:
    """Every worked example as typed after ``turnkeeper``, each once, the table's first."""
    lines = [part.strip() for body in TABLE.values() for part in body.example.split(";")]
    for _, command in COMMANDS:
        part = EXAMPLE_PART.search(getattr(command, "help", None) or "")
        if part is not None:
            lines += [" ".join(line.split()) for line in COMMAND_LINE.findall(part[1])]
    return list(dict.fromkeys(line for line in lines if line))


EXAMPLES = _examples()

# --- where each runs ----------------------------------------------------------------------

#: Each place an example may need: its ruleset (None: no campaign) and the command lines that
#: bring the campaign ``keep`` there (``ENCOUNTER``: dungeon turns until one is met). Every
#: place's folder holds the example files (``examples/``), ``wild.toml`` (made by ``map new``)
#: and its copy ``examples/vale.toml``, and ``mine.toml`` (a preset's file); but "empty".
PLACES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "empty": (None, ()),
    "files": (None, ()),
    "campaign": (
        "ex",
        ("new old-keep --ruleset ex --party examples/party.toml", "use keep", 'note "we set out"'),
    ),
    "exported": ("ex", ("export --out keep.jsonl",)),
    "undone": ("ex", ('note "we set out"', "undo")),
    "site": ("ex", ("site enter examples/site.toml", "light torch")),
    "encounter": ("ex", ("site enter examples/site.toml", "ENCOUNTER")),
    "wilderness": (
        "tp",
        (
            "map load wild.toml --at 0506",
            "explore 0304 --dice 5",
            "camp --dice 5",
            'map reveal 0405 --feature "Ruined Tower"',
        ),
    ),
    "domain": (
        "tp",
        ("map load wild.toml --at 0506", "domain grant Aldo --hex 0304 --name Ford --coffers 60"),
    ),
    "fight": ("ex", ("combat start --foes examples/foes.toml", "combat round --dice 6,1")),
    "asked": (
        "ex",
        (
            "combat start --foes examples/foes.toml",
            "combat round --dice 6,1",
            "combat ask Bea save",
        ),
    ),
    "parties": ("ex", ('party split "Grey Band" Bea --take rations=2',)),
    "sharing": (
        "ex",
        (
            "site enter examples/site.toml",
            'party split "Grey Band" Bea',
            'wait 1h --as "Grey Band"',
            "turn --area 2",
        ),
    ),
    "behind": (
        "ex",
        ('party split "Grey Band" Bea', 'wait 1d --as "Grey Band"'),
    ),
    "dg": ("dg", ()),
    "countdowns": (
        "dg",
        (
            'countdown add "ghouls wake" --type short --length d6',
            'countdown add "pick the lock" --type short --length 4 --failure 3',
            'countdown add "Ulfarmi suffocates" --type rapid --length 4 --subject Ulfarmi '
            "--listens wound",
        ),
    ),
    "scene": ("dg", ("scene open combat --players Ulfarmi,Brenna --creatures ogre",)),
    "spotlight": (
        "dg",
        (
            "scene open combat --players Ulfarmi,Brenna --creatures ogre",
            "scene spotlight --vote Ulfarmi=Brenna --vote Brenna=Brenna",
        ),
    ),
    "acted": (
        "dg",
        (
            "scene open combat --players Ulfarmi,Brenna --creatures ogre",
            "scene spotlight --vote Ulfarmi=Brenna --vote Brenna=Brenna",
            'scene act Brenna "swings at the ogre" --roll d20+2 --target 12 --dice 9',
        ),
    ),
    "dread": (
        "dg",
        (
            "scene open combat --players Ulfarmi,Brenna --creatures ogre",
            "scene spotlight --vote Ulfarmi=Brenna --vote Brenna=Brenna",
            'scene act Brenna "swings at the ogre" --roll d20+2 --target 12 --dice 9',
            "scene compromise Brenna",
        ),
    ),
}

#: The place of a verb (by its leading words) whose example needs more than the table's
#: ``where`` says, or of a verb outside the table.
PLACE_OF = {
    "examples": "empty",
    "map new": "empty",
    "new": "files",
    "import": "exported",
    "redo": "undone",
    "site show": "encounter",
    "site resume": "encounter",
    "combat start --surprise": "encounter",
    "light --douse": "site",
    "map show": "wilderness",
    "route": "wilderness",
    "weather": "wilderness",
    "combat status": "fight",
    "combat rolled": "asked",
    "party switch": "parties",
    "party join": "parties",
    "party share": "sharing",
    "party timeline": "behind",
    "party forward": "behind",
    "party doing": "parties",
    'damage "Goblin 1"': "fight",
    "countdown add": "dg",
    "countdown": "countdowns",
    "scene open": "dg",
    "scene status": "scene",
    "scene act": "spotlight",
    "scene free": "spotlight",
    "scene give": "spotlight",
    "scene gm": "acted",
    "scene compromise": "acted",
    "scene close": "acted",
    "scene dread": "dread",
    "domain grant": "wilderness",
    "domain collect": "domain",
    "domain drop": "domain",
    "domain list": "domain",
}

#: An example that cannot run as written in a prepared campaign, and the line that runs
#: instead (its reason in the comment).
VARIANTS = {
    # the example party carries no coins: a month at a haven costs some
    "haven Aldo work": "haven Ulfarmi work",
    # 20,000 journeys take a minute; 20 print the same words
    "simulate journey --map wild.toml --from 0505 --to 1019 --season winter --runs 20000 "
    "--plot days.png": "simulate journey --map wild.toml --from 0304 --to 0506 --season winter "
    "--runs 20 --plot days.png",
    # 20,000 runs take seconds; 200 print the same words
    "simulate months --factions examples/factions.toml --months 120 --runs 20000 "
    "--plot goals.png": "simulate months --factions examples/factions.toml --months 120 "
    "--runs 200 --plot goals.png",
    # a compromise gives the GM 1 dread, and nothing else in a scene gives the GM more
    'scene dread spend 2 "the ogre hits harder" --creature ogre': "scene dread spend 1 "
    '"the ogre hits harder" --creature ogre',
}

#: An example left out, and why.
SKIPPED = {
    "play keep": "an interactive session: its lines are the verbs tested here",
    # a deed revealed needs a month turn, and a party named in it: the docs' own run of
    # docs/factions.md plays both, its comments checked against the output
    'faction reveal "Red Hand" --as Scouts': "needs the factions and parties of docs/factions.md",
    # a campaign's ruleset is fixed when it starts, and every preset keeps the world still
    # between sessions: docs/factions.md runs it under a ruleset of its own
    "world catch-up --today 2026-11-29 --haven Aldo=work": "needs a ruleset that follows the "
    "real calendar (docs/factions.md runs it)",
}


def place_of(line: str) -> str:
    """The place ``line`` runs in: :data:`PLACE_OF` by its longest leading words, else the
    table's ``where`` of its verb, else a plain campaign."""
    for words in sorted(PLACE_OF, key=len, reverse=True):
        if line == words or line.startswith(words + " "):
            return PLACE_OF[words]
    typed = shlex.split(line)
    for body in TABLE.values():
        words = list(body.line_words())
        if typed[: len(words)] == words and body.where is not Place.ANYWHERE:
            return str(body.where.value)
    return "campaign"


# --- the prepared places ------------------------------------------------------------------

PRESETS = Path(turnkeeper.__file__).parent / "rules" / "presets"

PARTY_EXTRA = """
[[characters]]
name = "Ulfarmi"
hp = 7
coins = 40

[[characters]]
name = "Brenna"
hp = 9
"""

#: What the wild map gains for the examples: the Ruined Tower in a northern region, and
#: plains where the examples travel (map new made them water).
MAP_EXTRA = """
[[hexes]]
at = "0405"
region = "north"

[[hexes.features]]
id = "tower"
name = "Ruined Tower"
visibility = "overt"
landmark = true
text = "A ruined tower leans over the road."
"""


def run(*args: str) -> tuple[int, str]:
    """One command line as the console script runs it: its exit code and all it printed."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = invoke(list(args))
    return code, out.getvalue() + err.getvalue()


def ok(line: str) -> str:
    code, said = run(*shlex.split(line))
    assert code == 0, f"{line}: {said}"
    return said


def _plains(text: str, hexes: list[str]) -> str:
    """The map's terrain with ``hexes`` (labels, column then row) made plains."""
    head, rows, tail = re.match(r"(.*?terrain = \[\n)(.*?)(\n\]\n.*)", text, re.DOTALL).groups()
    grid = [list(row.strip().strip('",')) for row in rows.splitlines()]
    for label in hexes:
        grid[int(label[2:])][int(label[:2])] = "p"
    return head + "\n".join(f'  "{"".join(row)}",' for row in grid) + tail


class Places:
    """Each place's folder, made the first time an example asks for it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: dict[str, Path] = {}

    def __getitem__(self, place: str) -> Path:
        if place not in self.made:
            with pytest.MonkeyPatch.context() as patch:
                self.made[place] = self._make(place, patch)
        return self.made[place]

    def _make(self, place: str, patch: pytest.MonkeyPatch) -> Path:
        folder = self.root / place
        shutil.rmtree(folder, ignore_errors=True)  # a place that failed half-made
        folder.mkdir()
        patch.chdir(folder)
        patch.setenv("TURNKEEPER_DB", str(folder / "t.db"))
        if place == "empty":
            return folder
        ok("examples examples")
        party = folder / "examples" / "party.toml"
        party.write_text(party.read_text(encoding="utf-8") + PARTY_EXTRA, encoding="utf-8")
        ok("map new --width 12 --height 10 --seed 7 --out wild.toml")
        wild = folder / "wild.toml"
        around = ["0304", "0404", "0405", "0305", "0505", "0506", "0406", "0306"]
        wild.write_text(_plains(wild.read_text(encoding="utf-8"), around) + MAP_EXTRA, "utf-8")
        shutil.copy(wild, folder / "examples" / "vale.toml")
        ruleset, steps = PLACES[place]
        for name in (f"{ruleset or 'ex'}.toml", "_reaction.toml"):
            shutil.copy(PRESETS / name, folder / ("mine.toml" if name[0] != "_" else name))
        if ruleset is None:
            return folder
        ok(f"new keep --ruleset {ruleset} --party examples/party.toml --seed 3")
        for step in steps:
            if step != "ENCOUNTER":
                ok(step)
                continue
            for _ in range(12):
                if '"dungeon.encounter"' in ok("turn --json"):
                    break
            else:
                raise AssertionError("no encounter in 12 turns")
        return folder


@pytest.fixture(scope="session")
def places(tmp_path_factory: pytest.TempPathFactory) -> Places:
    return Places(tmp_path_factory.mktemp("places"))


# --- what must not show -------------------------------------------------------------------

#: A rule's key in snake_case (heavy_snow, night_camp).
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: Python's reprs of its objects.
REPRS = ("``", "{'", "[<", "<enum", "Decimal(", "Fraction(", "datetime.", "object at 0x")
#: Rich markup left in the text: a tag, a doubled or an escaped bracket. A TOML table's name
#: in double brackets (``[[allies]]``) is what a file holds, not residue.
MARKUP = re.compile(r"\[/?(?:bold|dim|italic|red|green|yellow|cyan)[^\]]*\]|\[/\]|\\\[")
DOUBLED = re.compile(r"\[\[(?![a-z.]+\]\])")

#: Snake_case words people type, so shown as typed: the columns ``simulate --column`` takes.
TYPED = frozenset({"torches_used", "times_lost"})

#: What is shown as it is typed or written in a file, never as words: a path or a file name
#: (``examples/site.toml``, a test's ``file.py::name``), code in backquotes, a key in double
#: quotes (a JSON file's), a ruleset file's key before its ``=`` (``travel.day_hours = 8``).
AS_TYPED = re.compile(r'\S*(?:/|::|\.[a-z]{2,5}\b)\S*|`[^`]*`|"[^"]*"|[\w.]+(?= = )')


#: Output that is a file as written, its keys and values as typed, and why.
AS_FILE = {
    "rules show": "the ruleset as its TOML file holds it: keys, tables and values as typed",
}


def residue(text: str, line: str = "") -> list[str]:
    """Every snake_case word, repr and markup residue in ``text``, printed by ``line``."""
    as_file = any(line == verb or line.startswith(verb + " ") for verb in AS_FILE)
    plain = "" if as_file else AS_TYPED.sub(" ", " ".join(text.split()))
    found = [w for w in SNAKE.findall(plain) if w not in TYPED]
    found += [r for r in REPRS if r in text]
    found += MARKUP.findall(text) + DOUBLED.findall(text)
    return found


# --- the tests ----------------------------------------------------------------------------


def test_every_verb_has_its_examples_here() -> None:
    typed = {shlex.split(line)[0] for line in EXAMPLES}
    assert typed >= set(VERBS) - {"tokens", "serve"}, set(VERBS) - typed
    assert set(VARIANTS) <= set(EXAMPLES) and set(SKIPPED) <= set(EXAMPLES)
    assert len(SKIPPED) == 3, "a new skip is counted here, with its reason in SKIPPED"


RUN = [line for line in EXAMPLES if line not in SKIPPED]


@pytest.mark.parametrize("line", RUN)
def test_a_worked_example_prints_words(
    line: str, places: Places, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "here"
    shutil.copytree(places[place_of(line)], folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TURNKEEPER_DB", str(folder / "t.db"))
    monkeypatch.setenv("HOME", str(folder))
    args = shlex.split(VARIANTS.get(line, line))
    code, said = run(*args)
    assert code == 0, said
    assert not residue(said, line), (residue(said, line), said)


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS])
def test_a_help_page_shows_words(path: str) -> None:
    code, said = run(*path.split(), "--help")
    assert code == 0, said
    assert not residue(said), (residue(said), said)
