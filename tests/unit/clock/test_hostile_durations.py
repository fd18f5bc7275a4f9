"""Durations holding characters that are not printable are refused (issue 22), not stripped."""

from __future__ import annotations

import pytest

from turnkeeper.clock import parse_duration
from turnkeeper.errors import TurnkeeperError


@pytest.mark.parametrize("text", ["3h\r", "3h\n", "\n3h", "3\th", "3h\x00", "3\u202eh", "3h\u200b"])
def test_a_duration_with_a_control_or_format_character_is_refused(text: str) -> None:
    with pytest.raises(TurnkeeperError, match=r"holds U\+[0-9A-F]{4}, which is not printable"):
        parse_duration(text)


def test_spaces_are_still_blanks() -> None:
    assert parse_duration(" 1d 2h ") == 93600
