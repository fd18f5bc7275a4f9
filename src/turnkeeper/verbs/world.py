"""The world's verbs: the world between sessions."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from turnkeeper.campaign import CampaignState, Command
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.parties import CatchUp
from turnkeeper.verbs.body import Pairs, VerbBody
from turnkeeper.verbs.kinds import CHARACTER, Opt

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def actual_date(text: str | None) -> date:
    """The actual date a catch-up runs to: ``text`` (YYYY-MM-DD), else this machine's date.

    The core reads no clock: the verb, at the edge, gives the command its date.

    >>> actual_date("2026-11-29")
    datetime.date(2026, 11, 29)
    """
    if text is None:
        return date.today()
    written = text.strip()
    try:
        if not _ISO_DATE.fullmatch(written):
            raise ValueError(written)
        return date.fromisoformat(written)
    except ValueError:
        raise IllegalCommandError(
            f"--today {text[:40]!r} is not a date: write the actual date as YYYY-MM-DD, "
            "e.g. 2026-11-29"
        ) from None


class WorldCatchUpBody(VerbBody, title="Catch the world up between sessions"):
    """Every idle party lives the actual days since the last catch-up [TP-TIME-2].

    Under a ruleset that follows the real calendar (`between_sessions.real_calendar = true`;
    DEFAULT: it does not), one actual day is one game day (or
    `between_sessions.game_days_per_day`): each party that is not in a fight, a scene, a site
    or a move is brought forward in downtime, its days, countdowns, month turns and downtime
    die as by play; a character given --haven spends the whole months at a haven on that
    activity, in turn with the others of their party. The first catch-up marks the date and
    moves nothing; without --today the date is this machine's."""

    example: ClassVar[str] = "world catch-up --today 2026-11-29 --haven Aldo=work"
    as_lines = True

    verb: Literal["world_catch_up"]
    today: str | None = Field(
        None,
        max_length=40,
        description="The actual date, YYYY-MM-DD (default: this machine's date).",
    )
    havens: Annotated[Pairs, CHARACTER, Opt("--haven", metavar="CHARACTER=ACTIVITY")] = Field(
        (),
        description="A character's activity for the months at a haven (the ruleset's: "
        "recover, train, research, work, carouse); again for more.",
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        # a ruleset that keeps the world still between sessions offers no catch-up
        return state.ruleset.between_sessions.real_calendar

    def command(self, state: CampaignState) -> Command:
        return CatchUp(actual_date(self.today), self.havens)

    def build(self, state: CampaignState) -> Command:
        if self.as_party is not None:
            raise IllegalCommandError(
                "a catch-up is the world's: it brings every idle party forward; leave out --as"
            )
        return self.command(state)
