"""Where die faces come from: a seeded generator, or the dice a player rolled at the table.

The core never touches global random state: every procedure is handed a :class:`DiceSource`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from turnkeeper.errors import DiceInputError, TooFewDiceError


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die: a face in ``1..sides``."""

    def die(self, sides: int) -> int:
        """Roll one die with ``sides`` faces."""
        ...

    @property
    def typed_in(self) -> bool:
        """True when the faces are physical dice a player typed in."""
        ...


class SeededDice:
    """Reproducible dice: the same seed gives the same faces, in the same order.

    Faces come from ``floor(random() * sides) + 1`` of a :class:`random.Random`: its bias is
    below ``sides / 2**53`` (nothing a table could ever see) and it is several times faster
    than ``randint``, which matters for simulation.

    >>> first, second = SeededDice(7), SeededDice(7)
    >>> [first.die(6) for _ in range(5)] == [second.die(6) for _ in range(5)]
    True
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed).random

    def die(self, sides: int) -> int:
        """Roll one die with ``sides`` faces."""
        return int(self._random() * sides) + 1

    @property
    def typed_in(self) -> bool:
        """Seeded dice are never typed in."""
        return False

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


#: A face as typed: a whole number of up to six digits (no die has more sides).
_FACE = re.compile(r"[0-9]{1,6}")


def parse_faces(text: str, what: str = "dice") -> list[int]:
    """The faces of physical dice a referee typed in, in the order rolled: ``3,5`` or ``3 5``;
    ``what`` names the field in a mistake's message (``--dice`` on the command line).

    >>> parse_faces("4, 2 6")
    [4, 2, 6]
    >>> try:
    ...     parse_faces("4, x")
    ... except DiceInputError as error:
    ...     print(error)
    dice '4, x': 'x' is not a die's face; type the faces rolled, e.g. 3,5
    """
    parts = [part for part in re.split(r"[,\s]+", text.strip()) if part]
    if not parts:
        raise DiceInputError(f"{what} {text!r}: type the faces rolled, e.g. 3,5")
    for part in parts:
        if not _FACE.fullmatch(part) or int(part) < 1:
            raise DiceInputError(
                f"{what} {text!r}: {part!r} is not a die's face; type the faces rolled, e.g. 3,5"
            )
    return [int(part) for part in parts]


class TypedDice:
    """Physical dice rolled at the table and typed in, consumed in the order given.

    Each face is checked against the die it stands for: a d6 cannot show 7.

    >>> dice = TypedDice([3, 5])
    >>> dice.die(6), dice.remaining
    (3, 1)
    >>> dice.die(4)
    Traceback (most recent call last):
    ...
    turnkeeper.errors.DiceInputError: typed-in die 2 shows 5, but a d4 shows 1 to 4
    """

    __slots__ = ("_faces", "_next")

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = tuple(faces)
        self._next = 0
        for face in self._faces:
            if isinstance(face, bool) or not isinstance(face, int):
                raise DiceInputError(f"typed-in dice must be whole numbers, not {face!r}")

    def die(self, sides: int) -> int:
        """Take the next typed-in face, checked against a die of ``sides`` faces."""
        if self._next >= len(self._faces):
            raise TooFewDiceError(
                f"not enough typed-in dice: {len(self._faces)} given, another d{sides} needed"
            )
        face = self._faces[self._next]
        self._next += 1
        if not 1 <= face <= sides:
            raise DiceInputError(
                f"typed-in die {self._next} shows {face}, but a d{sides} shows 1 to {sides}"
            )
        return face

    @property
    def remaining(self) -> int:
        """How many typed-in faces are still unused."""
        return len(self._faces) - self._next

    @property
    def typed_in(self) -> bool:
        """Typed-in dice are always marked as such wherever they are recorded."""
        return True

    def __repr__(self) -> str:
        return f"TypedDice({list(self._faces[self._next :])})"


def too_few(asked: Sequence[int], given: int) -> str:
    """What a referee who typed too few dice is told: every die the command rolls, at once.

    >>> print(too_few([6, 6, 4, 6, 8], 2).split(" (")[0])
    not enough typed-in dice: this command rolls 5 dice, d6, d6, d4, d6, d8; 2 given, type 3 more
    """
    rolls = ", ".join(f"d{sides}" for sides in asked)
    return (
        f"not enough typed-in dice: this command rolls {len(asked)} dice, {rolls}; "
        f"{given} given, type {len(asked) - given} more "
        "(counted with the dice not given showing 1: other faces may roll more or fewer)"
    )


#: The most dice :func:`dice_named` names one by one (a long wait may roll thousands).
NAMED_DICE = 24


def dice_named(asked: Sequence[int]) -> str:
    """The dice a command rolls, counted and named in the order rolled: what a form says
    beside its dice field before they are typed in.

    >>> dice_named([6, 6, 4, 20, 20])
    '5 dice: d6, d6, d4, d20, d20'
    >>> dice_named([20]), dice_named([])
    ('1 die: d20', 'no dice')
    >>> dice_named([6] * 30).endswith("d6, and 6 more")
    True
    """
    if not asked:
        return "no dice"
    shown = ", ".join(f"d{sides}" for sides in asked[:NAMED_DICE])
    more = f", and {len(asked) - NAMED_DICE:,} more" if len(asked) > NAMED_DICE else ""
    return f"{len(asked):,} {'die' if len(asked) == 1 else 'dice'}: {shown}{more}"


class AskedDice:
    """The dice a command asks for, written down as it rolls them: the typed-in faces first
    (checked as :class:`TypedDice` checks them), then each die's lowest face. Run a command
    against it to say, before it is typed, how many dice of which kinds it rolls.

    >>> asked = AskedDice([5])
    >>> asked.die(6), asked.die(4), asked.die(8), asked.asked
    (5, 1, 1, (6, 4, 8))
    """

    __slots__ = ("_asked", "_typed")

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._typed = TypedDice(faces)
        self._asked: list[int] = []

    def die(self, sides: int) -> int:
        """The next typed-in face while there is one, then the die's lowest face."""
        self._asked.append(sides)
        return self._typed.die(sides) if self._typed.remaining else 1

    @property
    def asked(self) -> tuple[int, ...]:
        """The sides of every die asked for, in the order rolled."""
        return tuple(self._asked)

    @property
    def typed_in(self) -> bool:
        """Asked as a typed-in roll is: a procedure that rolls differently for the table's own
        dice rolls here as it would for them."""
        return True

    def __repr__(self) -> str:
        return f"AskedDice(asked={self._asked})"
