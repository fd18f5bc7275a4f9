"""The verbs of sites (dungeons): enter, take turns, leave, clear an area, resume, note."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.procedures.dungeon import (
    EndEncounter,
    EnterSite,
    LeaveSite,
    NoteMap,
    Turn,
    movement_mode,
)
from turnkeeper.procedures.parties import (
    ClearArea,
)
from turnkeeper.verbs.body import (
    FileText,
    Place,
    VerbBody,
    as_file,
)
from turnkeeper.verbs.kinds import (
    AREA,
    MODE,
    NOT_ON_THE_LINE,
    Arg,
    Opt,
)
from turnkeeper.words import words
from turnkeeper.world.sites import parse_site, site_from_data


class SiteEnterBody(VerbBody, title="Enter a site"):
    """Enter a site (a dungeon, ruin or cave): the clock switches to dungeon turns."""

    example: ClassVar[str] = "site enter examples/site.toml; site enter examples/site.toml --area 3"

    verb: Literal["site_enter"]
    site: Annotated[dict[str, Any] | None, NOT_ON_THE_LINE] = Field(
        None, description="The site as data: the site file's tables (docs/site-format.md)."
    )
    site_text: Annotated[FileText | None, as_file("site_text"), Arg("FILE", file="site file")] = (
        Field(
            None, description="The site file's text (TOML, docs/site-format.md), instead of site."
        )
    )
    level: int | None = Field(None, description="The level to enter (default: the first).")
    area: Annotated[str | None, AREA] = Field(None, description="The keyed area to enter at.")

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        if (self.site is None) == (self.site_text is None):
            raise TurnkeeperError("site_enter: give the site as site (data) or site_text (TOML)")
        site = (
            parse_site(self.site_text.text, self.site_text.name)
            if self.site_text is not None
            else site_from_data(self.site or {}, "site")
        )
        return EnterSite(site, self.level, self.area)


class TurnBody(VerbBody, title="Dungeon turn"):
    """One dungeon turn: ten minutes pass and the ruleset's turn procedure runs."""

    where = Place.SITE
    example: ClassVar[str] = "turn; turn --mode swift --noisy; turn --area 3"

    verb: Literal["turn"]
    mode: Annotated[str | None, MODE, Opt("--mode", "-m")] = Field(
        None, description="cautious, swift or running (the ruleset's movement modes)."
    )
    noisy: bool = Field(False, description="Tumult and trouble [EX-ENC-4].")
    skip_check: bool = Field(
        False, description="Off the lanes of traffic: no wandering check [EX-ENC-3]."
    )
    door: bool = Field(
        False, description="A door or barrier this turn: a running party halts [EX-MOV-3]."
    )
    level: int | None = Field(None, description="Go to this level of the site.")
    area: Annotated[str | None, AREA] = Field(None, description="Go to this keyed area.")
    hide: Annotated[bool, Opt("--hide/--no-hide")] = Field(
        True, description="Hide from what is heard coming [EX-ENC-5]."
    )
    both_unaware: bool = Field(
        False,
        description="The party and what it meets come on each other unawares: everyone rolls "
        "WIS/Scout against the difficulty; any who lose are surprised [EX-SUR-4].",
    )
    ambush: bool = Field(
        False,
        description="What the party meets this turn leaps on it from ambush: even a cautious "
        "party may be surprised [EX-SUR-1].",
    )

    def chosen(self, state: CampaignState) -> str:
        if self.mode is not None:
            return ""
        mode, _ = movement_mode(state, None)
        if mode is None:
            return ""
        last = state.site is not None and state.site.last_mode == mode
        why = "as the party moved last turn" if last else "the ruleset's first mode"
        return f"mode: {words(mode)} ({why}; --mode changes it)"

    def command(self, state: CampaignState) -> Command:
        return Turn(
            mode=MODE.read(self.mode, state) if self.mode else None,
            noisy=self.noisy,
            skip_check=self.skip_check,
            door=self.door,
            level=self.level,
            area=self.area,
            hide=self.hide,
            both_unaware=self.both_unaware,
            ambush=self.ambush,
        )


class SiteLeaveBody(VerbBody, title="Leave the site"):
    """Leave the site the party is in."""

    where = Place.SITE
    example: ClassVar[str] = "site leave"

    verb: Literal["site_leave"]

    def command(self, state: CampaignState) -> Command:
        return LeaveSite()


class SiteClearBody(VerbBody, title="Clear an area"):
    """The party cleared an area: no party meets its dwellers again.

    No party behind in time may act there until brought forward."""

    where = Place.SITE
    example: ClassVar[str] = 'site clear 1; site clear 3 --what "slew the ghouls in"'

    verb: Literal["site_clear"]
    area: Annotated[str | None, AREA, Arg()] = Field(
        None, description="The keyed area (default: where the party stands)."
    )
    level: int | None = Field(None, description="Its level (default: the party's).")
    what: str = Field(
        "cleared", min_length=1, max_length=200, description="What the party did there."
    )

    def command(self, state: CampaignState) -> Command:
        return ClearArea(self.area, self.level, self.what)


class SiteResumeBody(VerbBody, title="Resume exploring"):
    """The encounter is over without a fight being run: go on exploring."""

    where = Place.SITE
    example: ClassVar[str] = "site resume; site resume --fought"

    verb: Literal["site_resume"]
    fought: bool = Field(False, description="It came to a fight: a rest is due [EX-REST-2].")

    def command(self, state: CampaignState) -> Command:
        return EndEncounter(self.fought)


class MapNoteBody(VerbBody, title="Note on the party's map"):
    """Write a note on the party's map; the referee does not correct it [EX-MAP-2]."""

    where = Place.SITE
    line: ClassVar[str] = "site map note"
    example: ClassVar[str] = 'site map note "stairs down, behind the altar" --area "big hall"'

    verb: Literal["map_note"]
    text: Annotated[str, Arg()] = Field(
        min_length=1, description="What the mapper writes, as the party sees it."
    )
    area: Annotated[str | None, AREA] = Field(
        None, description="The party's label for the place (default: where it stands)."
    )
    level: int | None = Field(None, description="The level (default: this one).")

    def command(self, state: CampaignState) -> Command:
        return NoteMap(self.text, self.area, self.level)
