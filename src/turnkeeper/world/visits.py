"""A party's visit to a site: where it stands, the encounter it has met and not yet resolved
(what combat starts from), the places it has been and its own map (EX-MAP-2).

The site itself, as its file gives it, is :mod:`turnkeeper.world.sites`; a visit embeds it,
so a journal replays without the file.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from turnkeeper.frozen import Strict
from turnkeeper.words import of_creature
from turnkeeper.world.sites import Site, SiteLevel, StatLine, left_out

__all__ = ["MapNote", "PendingEncounter", "SiteVisit"]


class PendingEncounter(Strict):
    """An encounter rolled in a site and not yet resolved: what combat starts from.

    The surprise result is carried over to combat (EX-SUR-5, PG-SUR-1, CB-SUR-1): the side
    in ``free_round`` acts a full round before initiative is rolled.
    """

    creature: str
    number: int
    distance_ft: int
    reaction: str | None = None
    reaction_modifier: int = Field(0, description="EX-SUR-5: a hungry foe that won surprise.")
    party_surprised: bool = False
    foes_surprised: bool = False
    free_round: Literal["party", "opposition"] | None = None
    surprised_members: tuple[str, ...] = ()
    morale_check: bool = False
    concealed: bool = False
    turn: int = 0
    # Left out of the journal at their defaults, so older journals replay as written.
    foes: StatLine | None = Field(
        None,
        exclude_if=left_out,
        description="The stat line of each foe, where the site gives one (else the defaults).",
    )
    described: bool = Field(
        False,
        exclude_if=lambda described: not described,
        description="Met as the site's words say, with no count: the referee names the foes.",
    )
    turn_ends: int | None = Field(
        None,
        exclude_if=left_out,
        description="When the turn it was met in would end: the rest of it passes after it.",
    )
    notes: str = Field(
        "",
        exclude_if=lambda notes: not notes,
        description="The notes of the row it was met from: for the referee only, while pending.",
    )

    def told(self) -> str:
        """The encounter in words: how many of what, how far, their mood and who is
        surprised.

        >>> PendingEncounter(creature="giant leech", number=1, distance_ft=60).told()
        '1 giant leech at 60 ft; no one is surprised'
        >>> PendingEncounter(creature="4 skeletons", number=1, distance_ft=0, described=True).told()
        '4 skeletons at 0 ft; no one is surprised'
        """
        mood = f", {self.reaction}" if self.reaction else ""
        if self.reaction_modifier:
            mood += f" (reaction {self.reaction_modifier:+d} (EX-SUR-5))"
        who = {"party": "the foes are surprised", "opposition": "the party is surprised"}
        surprise = who.get(self.free_round or "", "no one is surprised")
        if self.party_surprised and self.foes_surprised:
            surprise = "both sides are surprised"
        elif self.surprised_members and not self.party_surprised:  # EX-SUR-4: any who lose
            names = [*self.surprised_members, *(["the foes"] if self.foes_surprised else [])]
            surprise = f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} surprised"
        met = self.creature if self.described else of_creature(self.number, self.creature)
        return f"{met} at {self.distance_ft} ft{mood}; {surprise}"


class MapNote(Strict):
    """A note on the party's own map (EX-MAP-2): what the mapper recorded, right or wrong.

    The referee does not correct it: it is kept apart from the true map and never checked
    against it (checking would tell the party what is there).
    """

    text: str = Field(min_length=1)
    level: int
    area: str | None = Field(None, description="The party's label for the place, if any.")


class SiteVisit(Strict):
    """The party inside a site: which one (embedded, so replay needs no file), where, how long.

    ``visited`` and ``map_notes`` are the party's knowledge (EX-MAP-2): the places it has
    stood in, and what its mapper wrote down.
    """

    site: Site
    level: int
    area: str | None = None
    entered_at: int = 0
    turns: int = Field(0, description="Dungeon turns taken inside (EX-ENC-1 counts them).")
    last_mode: str | None = None
    encounter: PendingEncounter | None = None
    visited: tuple[tuple[int, str | None], ...] = Field(
        (), description="EX-MAP-2: (level, area) pairs the party has been in, in order."
    )
    map_notes: tuple[MapNote, ...] = Field((), description="EX-MAP-2: the party's own map.")

    @property
    def current_level(self) -> SiteLevel:
        return self.site.level(self.level)

    def been_at(self, level: int, area: str | None) -> SiteVisit:
        """This visit with the party having been at ``level`` (and ``area``)."""
        if (level, area) in self.visited:
            return self
        return self.model_copy(update={"visited": (*self.visited, (level, area))})

    def player_view(self) -> dict[str, Any]:
        """The party's picture (EX-MAP-2): visited places, its own map notes, where it is."""
        return {
            "site": self.site.player_view(self.visited),
            "party_map": [note.model_dump(mode="json") for note in self.map_notes],
            "where": {"level": self.level, "area": self.area, "turns": self.turns},
        }
