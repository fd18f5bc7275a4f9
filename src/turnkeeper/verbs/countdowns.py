"""The countdowns' verbs: start, tick, give a subtask's outcome, end, trigger."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
    CountdownAdd,
    CountdownEnd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
)
from turnkeeper.procedures.countdowns import MAX_TICKS
from turnkeeper.verbs.body import (
    REFEREE_ONLY,
    VerbBody,
    seen_by,
)
from turnkeeper.verbs.kinds import (
    COUNTDOWN,
    COUNTDOWN_TYPE,
    DICE,
    OUTCOME_STEP,
    SUBJECT,
    TRIGGER,
    Arg,
    Opt,
)


class CountdownAddBody(VerbBody, title="Start a countdown"):
    """Start a countdown [DG-CD-3]."""

    example: ClassVar[str] = (
        'countdown add "ghouls wake" --type short --length d6; countdown add "Ulfarmi '
        'suffocates" --type rapid --length 4 --subject Ulfarmi --listens wound --after-end wound'
    )

    verb: Literal["countdown_add"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="What the countdown is for.")
    kind: Annotated[str, COUNTDOWN_TYPE, Opt("--type", "-t")] = Field(
        min_length=1, description="A countdown type of the ruleset: short, long..."
    )
    length: Annotated[str, DICE, Opt("--length", "-n")] = Field(
        min_length=1, description="A number or a die, e.g. 4 or d6."
    )
    failure: Annotated[str | None, DICE] = Field(
        None, description="Length of its failure countdown, a number or a die [DG-FCD-1]."
    )
    referee: bool = Field(False, description=f"Hidden from the players. {REFEREE_ONLY}")
    subject: Annotated[str | None, SUBJECT] = Field(
        None,
        description="The creature it is about: a character, a fighter or a scene's creature "
        "[DG-CD-4].",
    )
    listens: Annotated[tuple[str, ...], TRIGGER] = Field(
        (), description="Extra triggers that tick it too: wound, action [DG-CD-4]."
    )
    after_end: Literal["end", "wound"] = Field(
        "end", description="end, or wound: once ended, each tick wounds the subject [DG-CD-4]."
    )

    world: bool = Field(
        False,
        description="A world countdown: it ticks as the world's present passes, whichever "
        "party lives through the time, once.",
    )

    def command(self, state: CampaignState) -> Command:
        visibility = seen_by(self.referee)
        return CountdownAdd(
            self.name,
            self.kind,
            self.length,
            self.failure,
            visibility,
            subject=self.subject,
            listens=self.listens,
            after_end=self.after_end,
            world=self.world,
        )


class CountdownTickBody(VerbBody, title="Tick a countdown"):
    """Tick a countdown by hand."""

    example: ClassVar[str] = 'countdown tick "ghouls wake" --ticks 2'

    verb: Literal["countdown_tick"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown to tick."
    )
    # each tick is a step of the countdown's rules: a billion would run for hours
    ticks: int = Field(
        1, ge=1, le=MAX_TICKS, description=f"How many ticks (at most {MAX_TICKS:,})."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownTick(self.name, self.ticks)


class CountdownOutcomeBody(VerbBody, title="A subtask's outcome"):
    """A subtask's outcome ticks a countdown and its failure countdown [DG-FCD-1]."""

    example: ClassVar[str] = 'countdown outcome "pick the lock" partial'

    verb: Literal["countdown_outcome"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown (or its failure countdown)."
    )
    outcome: Annotated[str, OUTCOME_STEP, Arg()] = Field(
        min_length=1, description="failure, partial, success or greater (or -2, -1, 0, +1)."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownOutcome(self.name, self.outcome)


class CountdownEndBody(VerbBody, title="End a countdown"):
    """End a countdown by hand."""

    example: ClassVar[str] = 'countdown end "ghouls wake"'

    verb: Literal["countdown_end"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown to end."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownEnd(self.name)


class CountdownTriggerBody(VerbBody, title="Trigger countdowns"):
    """An extra trigger (a wound, an action) ticks the countdowns listening to it [DG-CD-4]."""

    example: ClassVar[str] = "countdown trigger wound --subject Ulfarmi"

    verb: Literal["countdown_trigger"]
    trigger: Annotated[str, TRIGGER, Arg()] = Field(
        min_length=1, description="The trigger: wound, action..."
    )
    subject: Annotated[str | None, SUBJECT] = Field(
        None, description="Only the countdowns of this creature."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownTrigger(self.trigger, self.subject)
