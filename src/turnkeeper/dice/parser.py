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
    BinOp,
    Const,
    Dice,
    DiceOp,
    Name,
    Node,
    Signed,
    check_dice,
)
from turnkeeper.errors import DiceNotationError

#: Longest expression we read; dice notation is short, and this bounds the parser's work.
MAX_LENGTH = 500

# Players coming from printed modules write 1D20; an upper-case D not part of a name is a die.
_CAPITAL_D = re.compile(r"(?<![A-Za-z0-9_])([0-9]*)D(?=[0-9%])")


def _integer(token: Token) -> int:
    text = str(token)
    if len(text) > 9 or int(text) > MAX_INTEGER:
        raise DiceNotationError(f"{text[:12]}: numbers in dice notation stop at {MAX_INTEGER}")
    return int(text)


class _ToNodes(Transformer[Token, Node]):
    """Build the frozen tree while Lark parses (LALR calls these in line)."""

    def const(self, children: list[Token]) -> Node:
        return Const(_integer(children[0]))

    def name(self, children: list[Token]) -> Node:
        return Name(str(children[0]))

    def signed(self, children: list[Token | Node]) -> Node:
        sign, operand = children
        assert isinstance(operand, Const | Name | Signed | BinOp | Dice)
        return Signed(str(sign), operand)

    def binop(self, children: list[Token | Node]) -> Node:
        left, op, right = children
        assert isinstance(left, Const | Name | Signed | BinOp | Dice)
        assert isinstance(right, Const | Name | Signed | BinOp | Dice)
        return BinOp("x" if str(op) == "×" else str(op), left, right)

    def dice_op(self, children: list[Token]) -> DiceOp:
        kind = str(children[0])
        compare = str(children[1]) if len(children) == 3 else ""
        return DiceOp(kind, compare, _integer(children[-1]))

    def dice(self, children: list[Token | DiceOp]) -> Node:
        ops = tuple(child for child in children if isinstance(child, DiceOp))
        tokens = [child for child in children if isinstance(child, Token)]
        count: int | str | None = None
        if len(tokens) == 2:
            count = str(tokens[0]) if tokens[0].type == "NAME" else _integer(tokens[0])
        sides_token = tokens[-1]
        percent = sides_token.type == "PERCENT"
        sides = 100 if percent else _integer(sides_token)
        return check_dice(Dice(count, sides, percent, ops))


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


def parse_tree(text: str) -> Node:
    """Parse dice notation into its tree, or raise DiceNotationError saying where it broke.

    >>> str(parse_tree("4d6kh3+STR"))
    '4d6kh3 + STR'
    """
    if len(text) > MAX_LENGTH:
        raise DiceNotationError(f"dice expression longer than {MAX_LENGTH} characters")
    source = _CAPITAL_D.sub(r"\1d", text)
    try:
        tree = _parser().parse(source)
    except DiceNotationError:
        raise
    except UnexpectedInput as error:
        raise DiceNotationError(_explain(text, error)) from None
    except LarkError as error:
        # A check in the transformer raised inside Lark, which wraps it; unwrap ours.
        inner = getattr(error, "orig_exc", None)
        if isinstance(inner, DiceNotationError):
            raise inner from None
        raise DiceNotationError(f"cannot read dice expression {text!r}") from None
    assert isinstance(tree, Const | Name | Signed | BinOp | Dice)
    return tree


def _explain(text: str, error: UnexpectedInput) -> str:
    if not text.strip():
        return "empty dice expression; write something like 1d20+5"
    token = getattr(error, "token", None)
    if isinstance(error, UnexpectedEOF) or getattr(token, "type", None) == "$END":
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
