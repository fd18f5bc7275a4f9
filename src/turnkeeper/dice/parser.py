"""Reading dice notation: the grammar in ``dice.lark``, turned into the tree of :mod:`nodes`.

Lark's errors stop here: a player sees a :class:`~turnkeeper.errors.DiceNotationError`
naming the column, never a parser's internals.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib.resources import files
from pathlib import Path

import lark
import platformdirs
from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from turnkeeper.dice.nodes import (
    MAX_INTEGER,
    NODE_TYPES,
    Annotated,
    BinOp,
    Const,
    Dice,
    DiceOp,
    Group,
    Name,
    Node,
    NumberSet,
    Signed,
    check_dice,
    check_ops,
)
from turnkeeper.errors import DiceNotationError

#: Longest expression we read; dice notation is short, and this bounds the parser's work.
MAX_LENGTH = 500

# Players coming from printed modules write 1D20; an upper-case D not part of a name is a die.
_CAPITAL_D = re.compile(r"(?<![A-Za-z0-9_])([0-9]*)D(?=[0-9%])")
# The parts of one DICE token (the grammar has already checked its shape).
_DICE = re.compile(r"([0-9]+|[A-Z][A-Z0-9_]*)?d([0-9]+|%)")
_OP = re.compile(r"(rr|ro|ra|mi|ma|e|k|p)([hl<>]?)([0-9]+)")
# Where d20 would go on reading a token, a comment cannot begin (d20's lexer tries its own
# tokens before a comment): a "d" straight after a count starts dice (2d, 1d-6), an
# operation's letters straight after dice or a set start an operation (4d6kh-1, (1, 2)k).
# Cut short, they are a mistake to show, not a comment to roll past.
_ENDS_WITH_COUNT = re.compile(r"(?:(?<![0-9.])[0-9]+|(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*)$")
_ENDS_WITH_DICE = re.compile(r"d(?:[0-9]+|%)(?:(?:rr|ro|ra|mi|ma|e|k|p)[hl<>]?[0-9]+)*$")
_ENDS_WITH_SET = re.compile(r"\)(?:[kp][hl<>]?[0-9]+)*$")
_DICE_OP_START = re.compile(r"rr|ro|ra|mi|ma|e|k|p")


def _integer(text: str) -> int:
    if len(text) > 9 or int(text) > MAX_INTEGER:
        raise DiceNotationError(f"{text[:12]}: numbers in dice notation stop at {MAX_INTEGER}")
    return int(text)


def _ops(text: str) -> tuple[DiceOp, ...]:
    return tuple(DiceOp(kind, select, _integer(value)) for kind, select, value in _OP.findall(text))


def _node(child: object) -> Node:
    assert isinstance(child, NODE_TYPES)
    return child


class _ToNodes(Transformer[Token, Node]):
    """Build the frozen tree while Lark parses (LALR calls these in line)."""

    def const(self, children: list[Token]) -> Node:
        token = children[0]
        if token.type == "DECIMAL":
            return Const(float(token))
        return Const(_integer(str(token)))

    def name(self, children: list[Token]) -> Node:
        return Name(str(children[0]))

    def signed(self, children: list[Token | Node]) -> Node:
        sign, operand = children
        return Signed(str(sign), _node(operand))

    def binop(self, children: list[Token | Node]) -> Node:
        left, op, right = children
        return BinOp("x" if str(op) == "×" else str(op), _node(left), _node(right))

    def annotated(self, children: list[Token | Node]) -> Node:
        operand, *notes = children
        return Annotated(_node(operand), tuple(str(note) for note in notes))

    def dice(self, children: list[Token]) -> Node:
        text = str(children[0])
        found = _DICE.match(text)
        assert found is not None
        written, sides_text = found.groups()
        count: int | str | None = None
        if written is not None:
            count = written if written[0].isalpha() else _integer(written)
        percent = sides_text == "%"
        sides = 100 if percent else _integer(sides_text)
        return check_dice(Dice(count, sides, percent, _ops(text[found.end() :])))

    def group(self, children: list[Token | Node]) -> Node:
        inner, close = children
        ops = _ops(str(close)[1:])
        if not ops:
            return _node(inner)
        check_ops(f"({inner})", ops, None)
        return Group(_node(inner), ops)

    def number_set(self, children: list[Token | Node]) -> Node:
        *items, close = children
        made = NumberSet(tuple(_node(item) for item in items), _ops(str(close)[1:]))
        check_ops(made, made.ops, None)
        return made


@cache
def _parser() -> Lark:
    grammar = files("turnkeeper.dice").joinpath("dice.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        transformer=_ToNodes(),
        maybe_placeholders=False,
        cache=_analysis_cache(grammar),
    )


def _analysis_cache(grammar: str) -> str | bool:
    """Where Lark keeps its analysis of the grammar between processes (it costs a command
    about 50 ms to redo): a file in the user's own cache folder, named by the grammar and
    Lark's version, never the shared temp folder, whose predictable names another user could
    fill first. False (no cache) when the folder cannot be made; a cache Lark cannot read
    is made again."""
    folder = Path(platformdirs.user_cache_dir("turnkeeper"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar}".encode()).hexdigest()[:16]
    return str(folder / f"dice-grammar-{digest}.lark")


def parse_tree(text: str, allow_comments: bool = False) -> tuple[Node, str]:
    """Parse dice notation into its tree, or raise DiceNotationError saying where it broke.

    With ``allow_comments``, text after a whole expression is a comment, as in d20's
    ``allow_comments``: the roll is what comes before it. Returns the tree and the comment
    (``""`` when there is none).

    >>> str(parse_tree("4d6kh3+STR")[0])
    '4d6kh3 + STR'
    >>> tree, comment = parse_tree("1d20+5 to hit", allow_comments=True)
    >>> str(tree), comment
    ('1d20 + 5', 'to hit')
    """
    if len(text) > MAX_LENGTH:
        raise DiceNotationError(f"dice expression longer than {MAX_LENGTH} characters")
    _check_characters(text)
    source = _CAPITAL_D.sub(r"\1d", text)
    try:
        return _parse(source, text), ""
    except _Unexpected as error:
        if not allow_comments:
            raise DiceNotationError(_explain(text, error.error)) from None
        return _with_comment(source, text, error)


def _check_characters(text: str) -> None:
    """Refuse a character no dice need that could hide in a comment or a breakdown: a
    control character (a bell, a newline), a format one (a right-to-left mark, a zero-width
    space), an undecodable byte as a shell passes it. Space is the one blank."""
    for column, char in enumerate(text, start=1):
        if char != " " and not char.isprintable():
            raise DiceNotationError(
                f"dice expression {text!r}: character U+{ord(char):04X} at column {column} "
                "is not printable; remove it (dice are one line, with spaces as blanks)"
            )


class _Unexpected(Exception):
    """Lark stopped at a character or token it did not expect (kept for the comment rule)."""

    def __init__(self, error: UnexpectedInput, where: int) -> None:
        super().__init__(str(error))
        self.error = error
        self.where = where


def _parse(source: str, text: str) -> Node:
    try:
        tree = _parser().parse(source)
    except DiceNotationError:
        raise
    except UnexpectedInput as error:
        # where reading stopped, read defensively: a token Lark made itself (the end of the
        # text, one borrowed from another) may carry no position at all, and an error of its
        # own about that is no answer for the referee
        where = getattr(error, "pos_in_stream", None)
        start = getattr(getattr(error, "token", None), "start_pos", None)
        if isinstance(start, int):
            where = start
        raise _Unexpected(error, where if isinstance(where, int) else len(source)) from None
    except RecursionError:
        raise DiceNotationError(f"dice expression {text[:40]!r}...: nests too deep") from None
    except LarkError as error:
        # A check in the transformer raised inside Lark, which wraps it; unwrap ours.
        inner = getattr(error, "orig_exc", None)
        if isinstance(inner, DiceNotationError):
            raise inner from None
        raise DiceNotationError(f"cannot read dice expression {text!r}") from None
    return _node(tree)


def _with_comment(source: str, text: str, error: _Unexpected) -> tuple[Node, str]:
    """d20's rule: the roll is the text before where reading stopped, when that is a whole
    expression; a ``*`` (or our ``x``) just before is the comment's first word. An
    expression cut short (``2d6+``) or a stray ``)`` stays a mistake, as in d20."""
    rest = source[error.where :].strip()
    ended = isinstance(error.error, UnexpectedEOF) or _token_type(error.error) == "$END"
    if ended or not rest or rest.startswith(")"):
        raise DiceNotationError(_explain(text, error.error))
    head = source[: error.where]
    if _token_started(head, source[error.where :]):
        raise DiceNotationError(_explain(text, error.error))
    cuts = [len(head)]
    trimmed = head.rstrip()
    if head.endswith("*") or trimmed.endswith(("x", "×")):
        cuts.append(len(trimmed) - 1)
    for cut in cuts:
        if not source[:cut].strip():
            continue
        try:
            tree = _parse(source[:cut], text)
        except _Unexpected:
            continue
        return tree, text[cut:].strip()
    raise DiceNotationError(_explain(text, error.error))


def _token_started(head: str, rest: str) -> bool:
    """Whether ``rest``, straight after ``head``, goes on a token d20 would read there."""
    if not head or head[-1].isspace() or not rest:
        return False
    if rest[0] in "dD" and _ENDS_WITH_COUNT.search(head):
        return True
    if _ENDS_WITH_DICE.search(head):
        return _DICE_OP_START.match(rest) is not None
    return rest[0] in "kp" and _ENDS_WITH_SET.search(head) is not None


def _token_type(error: UnexpectedInput) -> object:
    return getattr(getattr(error, "token", None), "type", None)


def _explain(text: str, error: UnexpectedInput) -> str:
    if not text.strip():
        return "empty dice expression; write something like 1d20+5"
    if isinstance(error, UnexpectedEOF) or _token_type(error) == "$END":
        return f"dice expression {text!r} ends too soon (column {len(text) + 1})"
    column = getattr(error, "column", None)
    if not isinstance(column, int) or column < 1:
        column = len(text) + 1
    shown = text[column - 1] if column - 1 < len(text) else "end"
    what = "character" if isinstance(error, UnexpectedCharacters) else "token"
    return (
        f"dice expression {text!r}: unexpected {what} {shown!r} at column {column}; "
        "write dice like 2d6+1, 4d6kh3, d20+STR"
    )
