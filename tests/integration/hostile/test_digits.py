"""Numbers are typed in the digits 0 to 9 (issue 38): ``--take rations=²`` was an internal
error (``"²".isdigit()`` is True, ``int("²")`` fails) and ``rations=٣``, an Arabic-Indic
three, was read as 3 (``int`` and ``\\d`` read any script's digits). Each is one refusal that
says what is wrong, and changes nothing.
"""

from __future__ import annotations

import pytest
from tests.integration.hostile.refusals import refused_in

SUPERSCRIPT_TWO = "\u00b2"
ARABIC_THREE = "\u0663"
ARABIC_FOURTEEN = "\u0661\u0664"


@pytest.mark.parametrize("count", [SUPERSCRIPT_TWO, ARABIC_THREE, "3" + SUPERSCRIPT_TWO, "-1"])
def test_take_counts_only_in_ascii_digits(shell, db: str, count: str) -> None:
    line = refused_in(shell, db, "party", "split", "Grey Band", "Bea", "--take", f"rations={count}")
    assert f"--take rations={count}: a count is a whole number written in the digits 0 to 9" in line


def test_take_of_thousands_of_digits_is_refused_unread(shell, db: str) -> None:
    count = "9" * 5000
    line = refused_in(shell, db, "party", "split", "Grey Band", "Bea", "--take", f"rations={count}")
    assert "more than any party carries" in line and len(line) < 300


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("wait", f"{ARABIC_THREE}h"), "cannot read duration"),
        (("heal", "Aldo", SUPERSCRIPT_TWO), "unexpected character '²'"),
        (("damage", "Aldo", ARABIC_THREE), "unexpected character '٣'"),
        (("damage", "Aldo", f"1d{ARABIC_THREE}"), "dice expression"),
        (
            ("combat", "start", "--monster", f"Rat:hd=1,STR={ARABIC_THREE}"),
            "whole number (digits 0 to 9)",
        ),
        (("map", "reveal", f"{ARABIC_THREE},1"), "hex"),
    ],
)
def test_a_number_in_another_script_is_refused(
    shell, db: str, args: tuple[str, ...], says: str
) -> None:
    assert says in refused_in(shell, db, *args)


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "d20+STR", "--set", f"STR={ARABIC_THREE}"),
        ("roll", "d20", "--dice", ARABIC_FOURTEEN),
        ("roll", "d20", "--dice", SUPERSCRIPT_TWO),
    ],
)
def test_roll_options_take_ascii_digits(shell, args: tuple[str, ...]) -> None:
    refused_in(shell, None, *args)
