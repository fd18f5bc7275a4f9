"""The one table of the referee's verbs: each declared once, every front door built from it.

Each group's module (:mod:`turnkeeper.verbs.upkeep`, :mod:`~turnkeeper.verbs.combat`, ...)
declares its verbs as bodies (:class:`~turnkeeper.verbs.body.VerbBody`); :data:`VERBS` gathers
them, group by group in the order below and each group's in the order it declares them.
From this table:

- the command line (``turnkeeper.cli.from_table``) makes one Typer command per verb, its words
  (``countdown add``) from :attr:`~turnkeeper.verbs.body.VerbBody.line`;
- the HTTP API validates :data:`CommandBody` (the union of :data:`VERBS`, told apart by
  ``verb``), which OpenAPI shows; every body also takes ``dice`` (faces of physical dice,
  typed in, used in order) and ``expected_version`` (the version the client last saw; a stale
  one is a 409 conflict, so two referees' tabs never act on a state they did not see);
- the dashboard's forms (``turnkeeper.web.controls``) are the fields as inputs;
- ``play``'s completer offers what each field's kind names now.

>>> from pydantic import TypeAdapter
>>> body = TypeAdapter(CommandBody).validate_python({"verb": "turn", "mode": "cautious"})
>>> body.verb, body.dice
('turn', None)
>>> VERBS["combat_start"].where, VERBS["travel"].where
(<Place.ANYWHERE: 'anywhere'>, <Place.WILDERNESS: 'wilderness'>)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import Field

from turnkeeper.campaign import CampaignState
from turnkeeper.verbs import (
    combat,
    countdowns,
    domains,
    factions,
    parties,
    scenes,
    sites,
    upkeep,
    wilderness,
    world,
)
from turnkeeper.verbs.body import VerbBody, problem_in_words


def _gathered(*groups: ModuleType) -> dict[str, type[VerbBody]]:
    """Each group's bodies by verb, group after group, each in the order its module declares
    them; a verb declared twice is a mistake in the table."""
    table: dict[str, type[VerbBody]] = {}
    for group in groups:
        for value in vars(group).values():
            if not (isinstance(value, type) and issubclass(value, VerbBody)):
                continue
            if value.__module__ != group.__name__:
                continue
            other = table.setdefault(value.verb_name(), value)
            if other is not value:
                raise TypeError(
                    f"two bodies share the verb {value.verb_name()!r}: {other.__name__}"
                )
    return table


VERBS: Mapping[str, type[VerbBody]] = MappingProxyType(
    _gathered(
        upkeep, countdowns, parties, sites, wilderness, combat, scenes, factions, domains, world
    )
)
"""Every verb of the HTTP API, by name, group by group: the one table."""

if TYPE_CHECKING:
    CommandBody = VerbBody
else:
    CommandBody = Annotated[Union[tuple(VERBS.values())], Field(discriminator="verb")]  # noqa: UP007
"""One referee command as JSON, told apart by its ``verb``: the union of :data:`VERBS`."""


def verbs_now(state: CampaignState) -> dict[str, type[VerbBody]]:
    """The verbs that fit where the party is now, in table order: what a dashboard offers.

    >>> from turnkeeper.campaign import Journal, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> now = verbs_now(Journal.start("Keep", preset("ex"), party, seed=1).state)
    >>> "wait" in now, "turn" in now, "combat_attack" in now, "site_enter" in now
    (True, False, False, True)
    """
    return {verb: body for verb, body in VERBS.items() if body.fits(state)}


def problem(errors: Sequence[Any]) -> str:
    """One line from pydantic's list of problems: where, and what was wrong, in plain words.

    >>> from pydantic import TypeAdapter, ValidationError
    >>> try:
    ...     TypeAdapter(CommandBody).validate_python({"verb": "rest", "turns": 0})
    ... except ValidationError as error:
    ...     problem(error.errors())
    'rest.turns: at least 1'
    """
    problems = list(errors)
    if not problems:
        return "the request is malformed"
    first = problems[0]
    where = [str(p) for p in first.get("loc", ()) if p != "body" and not _a_tag(str(p))]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{'.'.join(where) or 'request'}: {problem_in_words(first)}{more}"


def _a_tag(part: str) -> bool:
    """Whether a part of a problem's place is pydantic's name for a union's member (an int
    branch, a validator), which says nothing to a person."""
    return (
        part in ("int", "str", "bool")
        or "[" in part
        or part.startswith(("constrained-", "function-", "tagged-union", "lax-", "json-"))
    )
