"""What the CLI prints: the console people read, lines of text that are never markup, JSON
for machines, and one line on stderr for an error.

A user's text (a name, a note, a path) never drives the terminal: its control characters are
taken out where text meets it (:data:`_CONTROLS`). Rich loads only when something is drawn
for people, so a ``--json`` verb never loads it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.segment import Segment
    from rich.text import Text


@cache
def console() -> Console:
    """The console people read, made on first use: a ``--json`` verb never loads Rich's."""
    return _plain_console()()


#: Control characters a user's text may hold (C0 but tab and new line, DEL, C1), none of which
#: reaches a terminal: an ESC or a CSI in a name or a note would drive it (retitle it, recolour
#: it, move the cursor) instead of being read. Rich leaves ESC in text; its own styling and
#: cursor moves are separate segments, untouched.
_CONTROLS = dict.fromkeys([*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])

#: The same controls as JSON writes them escaped: JSON escapes C0 itself but lets DEL and C1
#: stand raw in a string, where a terminal would obey them.
_CONTROLS_ESCAPED = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}


def for_terminal(text: str, *, json_text: bool = False) -> str:
    r"""``text`` written straight to a terminal (an export, a log), not through the console:
    the user's controls dropped (:data:`_CONTROLS`), or in JSON escaped, which reads back as
    the same data. Written to a file or a pipe, text stays byte for byte as stored.

    >>> for_terminal("Ab\x1b]0;pwned\x07bey"), for_terminal('"a\x9bb"', json_text=True)
    ('Ab]0;pwnedbey', '"a\\u009bb"')
    """
    return text.translate(_CONTROLS_ESCAPED if json_text else _CONTROLS)


@cache
def _plain_console() -> type[Console]:
    """The console class every verb prints through (stdout and stderr): Rich's, with the
    controls of :data:`_CONTROLS` taken out of the text it writes."""
    from rich.console import Console  # loaded only when something is drawn for people

    class PlainConsole(Console):
        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            # The one place text meets the terminal, after the layout: a control is zero
            # cells wide to Rich, so taking it out moves nothing.
            return super()._render_buffer(
                segment
                if segment.control
                else segment._replace(text=segment.text.translate(_CONTROLS))
                for segment in buffer
            )

    return PlainConsole


#: A piece of a line for people: text as written, or ``(text, style)`` drawn in Rich's style.
Piece = str | tuple[str, str]


def text(*pieces: Piece) -> Text:
    """Pieces as one Rich text for a line, a table's cell or a title: each piece as written,
    never read as markup (a name such as ``[/oops]`` prints as ``[/oops]``)."""
    from rich.text import Text  # loaded with the console, only when something is drawn

    return Text.assemble(*pieces)


def say(*pieces: Piece) -> None:
    """Print one line for people, every piece as text (:func:`text`): the one way a verb
    prints what a user wrote (names, notes, paths) among its own words.

    >>> say("Started ", ("[/oops]", "bold"), " under ex.")
    Started [/oops] under ex.
    """
    console().print(text(*pieces), highlight=False)


def print_error(message: str) -> None:
    """One line on stderr: ``error:`` and what is wrong (printed as text, never as markup)."""
    from rich.markup import escape

    # A message quotes what the user gave; a megabyte of it would take Rich minutes to lay out.
    shown = message if len(message) <= 2000 else f"{message[:2000]}... (cut)"
    # One line however it was made: a path or a name holding a new line (or any control) is
    # shown escaped, as repr shows it, never broken over two lines or sent to the terminal.
    shown = shown.translate(_ESCAPED)
    _plain_console()(stderr=True).print(
        f"[bold red]error:[/] {escape(shown)}", highlight=False, soft_wrap=True
    )


#: Every control character as repr shows it (``\\n``, ``\\x1b``), for :func:`print_error`.
_ESCAPED = {c: repr(chr(c))[1:-1] for c in [*range(0x20), *range(0x7F, 0xA0)]}


JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


def emit(data: Any, as_json: bool, render: Callable[[], None]) -> None:
    """Print ``data`` as JSON for machines, or call ``render`` to draw it for people."""
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=ascii_json(), default=str) + "\n")
    else:
        render()


def ascii_json() -> bool:
    """Whether JSON written to stdout escapes non-ASCII: it stays whole on a terminal that is
    not UTF-8 (escaped, never a "?" in a name)."""
    return (sys.stdout.encoding or "").lower().replace("-", "") != "utf8"


def emit_pieces(head: dict[str, Any], key: str, pieces: Iterable[str]) -> None:
    """Print ``head`` with ``key`` holding the text of ``pieces``, as :func:`emit` prints it,
    writing each piece as it comes: a streamed export is never whole in memory."""
    ascii_only = ascii_json()
    opening = json.dumps({**head, key: ""}, indent=2, ensure_ascii=ascii_only)
    sys.stdout.write(opening[: -len('"\n}')])  # up to the empty text's opening quote
    for piece in pieces:
        # escapes are per character, so a piece escaped alone reads as part of the whole
        sys.stdout.write(json.dumps(piece, ensure_ascii=ascii_only)[1:-1])
    sys.stdout.write('"\n}\n')
