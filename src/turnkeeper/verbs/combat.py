"""The verbs of a fight: start, rounds, declarations, attacks, checks and saves, its end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    Field,
    field_validator,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.kernel.combat_state import AskedKind, Combatant, Side
from turnkeeper.procedures.combat import (
    AnnounceDone,
    AnswerRoll,
    AskRoll,
    Attack,
    BeginRound,
    Check,
    Declare,
    EndCombat,
    Pin,
    Resolve,
    Save,
    StartFight,
    Surrender,
)
from turnkeeper.procedures.combat.actions import parse_action
from turnkeeper.procedures.combat.roster import parse_monster, parse_roster, parse_surprised
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.verbs.body import (
    Faces,
    FileText,
    MonsterLines,
    Names,
    Place,
    VerbBody,
    as_file,
)
from turnkeeper.verbs.kinds import (
    ACTION,
    ASKED,
    CHARACTER,
    FIGHTER,
    STAT,
    Arg,
    Opt,
    foe,
)

#: The sides as the referee names them (the CLI's words: party, foes).
SideName = Literal["party", "foes"]
_SIDES: Mapping[str, Side] = {"party": Side.PARTY, "foes": Side.OPPOSITION}


class CombatStartBody(VerbBody, title="Start a fight"):
    """Start a fight: the party against foes in stat lines, or the site's pending encounter."""

    example: ClassVar[str] = (
        "combat start --foes examples/foes.toml; "
        'combat start --monster "Rat:hd=1,ac=12,count=3" --surprise foes; '
        'combat start --monster "Ghoul:hd=2,ac=12" --meeting ambush --mode cautious'
    )

    verb: Literal["combat_start"]
    rosters: Annotated[
        tuple[Annotated[FileText, as_file("foes file")], ...],
        Opt("--foes", metavar="FILE", file="foes file"),
    ] = Field(
        (),
        description="A foes file (TOML), e.g. examples/foes.toml; its [[allies]] join the "
        "party's side [CB-SIDE-1]. Over HTTP, the file's text.",
    )
    foes: Annotated[MonsterLines, Opt("--monster", metavar="LINE")] = Field(
        (),
        description=(
            "Foes, one stat line each (one per line in a form): "
            "Goblin:hd=1,hp=4,ac=12,dex=1,count=3. None: the site's pending encounter."
        ),
    )
    surprise: Literal["party", "foes", "both", "none"] | None = Field(
        None, description="Who is surprised (default: the encounter's, else rolled)."
    )
    aware: Annotated[tuple[SideName, ...], Opt("--aware")] = Field(
        (), description="Sides that cannot be surprised: party, foes."
    )
    attackers: SideName | None = Field(
        None, description="The side trying for surprise: party or foes [CB-SUR-1]."
    )
    allies: Annotated[MonsterLines, Opt("--ally", metavar="LINE")] = Field(
        (), description="Allies on the party's side, one stat line each [CB-SIDE-1]."
    )
    meeting: Literal["encounter", "occupied", "ambush", "both-unaware"] | None = Field(
        None,
        description="How the groups met, for the ruleset to settle surprise: encounter, "
        "occupied (the party moved into an occupied place) [EX-SUR-2], ambush (the foes "
        "leap from ambush) [EX-SUR-1], both-unaware (any who lose WIS/Scout against 9 are "
        "surprised) [EX-SUR-4].",
    )
    mode: str | None = Field(
        None,
        description="The party's movement mode when they met: cautious, swift, running "
        "[EX-SUR-1 to EX-SUR-3] (default: its last turn's in the site).",
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return not state.fight_running

    def command(self, state: CampaignState) -> Command:
        foes: list[Combatant] = []
        joining: list[Combatant] = []
        for roster in self.rosters:
            for combatant in parse_roster(roster.text, roster.name):
                (foes if combatant.side is Side.OPPOSITION else joining).append(combatant)
        for line in self.foes:
            foes += parse_monster(line)
        allies = joining + [a for line in self.allies for a in parse_monster(line, Side.PARTY)]
        surprised = parse_surprised(self.surprise) if self.surprise is not None else None
        return StartFight(
            foes=tuple(foes),
            allies=tuple(allies),
            surprised=surprised,
            aware=frozenset(_SIDES[side] for side in self.aware),
            attackers=_SIDES[self.attackers] if self.attackers else None,
            meeting=Meeting(self.meeting) if self.meeting else None,
            mode=self.mode.strip().lower() if self.mode else None,
        )


class CombatRoundBody(VerbBody, title="Next round"):
    """Start the next round: the clock moves on and initiative is rolled (or kept)."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat round; combat round --adjust 1"

    verb: Literal["combat_round"]
    adjust: int = Field(
        0, description="The referee's adjustment to the initiative face [TP-CBT-1]."
    )
    influence: int = Field(
        0, description="The party's sway on the newcomers' reaction (face 1) [TP-INI-1]."
    )

    def command(self, state: CampaignState) -> Command:
        return BeginRound(self.adjust, self.influence)


class CombatDeclareBody(VerbBody, title="Declare"):
    """Announce an actor's actions for this round; the rules refuse what is not allowed."""

    where = Place.FIGHT
    example: ClassVar[str] = (
        'combat declare Aldo attack "Goblin 1"; combat declare Bea move --feet 30 --then '
        'attack:"Goblin 2"'
    )

    verb: Literal["combat_declare"]
    actor: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who declares.")
    action: Annotated[str, ACTION, Arg()] = Field(
        min_length=1,
        description="What they do first: attack, ranged, cast, move, move-far, maneuver, "
        'other, on-turn or instant; what the player describes may follow in brackets: "other '
        '(take oil from my pouch)".',
    )
    target: Annotated[str | None, foe("actor"), Arg()] = Field(
        None, description="The target of that action, if any."
    )
    note: str = Field("", description="What the player describes, e.g. take oil from my pouch.")
    then: Annotated[Names, Opt("--then")] = Field(
        (), description="Further actions, ACTION or ACTION:TARGET, e.g. move,attack:Goblin 1."
    )
    feet: int | None = Field(None, ge=0, description="How far a move goes [CB-ACT-3].")
    magic_dice: int = Field(1, ge=1, description="Magic dice a caster rolls [TP-MAG-1].")
    own_side: bool = Field(False, description="A blow at someone of the actor's own side is meant.")
    rolled: Faces | None = Field(
        None,
        description="The attack die's faces as the actor's player rolled them, for the first "
        "action's attack roll, e.g. 14 [TP-ATK-1, PG-ATK-2]; recorded as typed in.",
    )

    @field_validator("action", "then")
    @classmethod
    def _an_action(cls, value: Any) -> Any:
        # refused as the body is read, before any command: the words are the engine's own
        for text in [value] if isinstance(value, str) else value:
            try:
                parse_action(text)
            except TurnkeeperError as error:
                raise ValueError(str(error)) from None
        return value

    def command(self, state: CampaignState) -> Command:
        first = parse_action(self.action, self.target, self.feet, self.magic_dice, self.own_side)
        if self.rolled:
            first = first.model_copy(update={"rolled": tuple(self.rolled)})
        actions = (
            first.model_copy(update={"note": self.note.strip()}) if self.note.strip() else first,
            *(
                parse_action(extra, None, None, self.magic_dice, self.own_side)
                for extra in self.then
            ),
        )
        return Declare(self.actor, actions)


class CombatResolveBody(VerbBody, title="Resolve the round"):
    """Resolve every declared action, beat by beat."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat resolve"

    verb: Literal["combat_resolve"]

    def command(self, state: CampaignState) -> Command:
        return Resolve()


class CombatSurrenderBody(VerbBody, title="Surrender"):
    """Combatants yield: out of the fight; a side with nobody left fighting loses [PG-CBT-1]."""

    where = Place.FIGHT
    example: ClassVar[str] = 'combat surrender "Goblin 2" "Goblin 3"'

    verb: Literal["combat_surrender"]
    names: Annotated[Names, FIGHTER, Arg("NAME")] = Field(min_length=1, description="Who yields.")

    def command(self, state: CampaignState) -> Command:
        return Surrender(tuple(self.names))


class CombatAttackBody(VerbBody, title="Attack"):
    """Roll one attack at once, and its damage on a hit."""

    where = Place.FIGHT
    example: ClassVar[str] = 'combat attack Aldo "Goblin 1"; combat attack Bea "Goblin 2" --ranged'

    verb: Literal["combat_attack"]
    attacker: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who attacks.")
    target: Annotated[str, foe("attacker"), Arg()] = Field(min_length=1, description="Whom.")
    ranged: bool = Field(False, description="A ranged attack.")
    own_side: bool = Field(False, description="The blow is meant for someone of one's own side.")

    def command(self, state: CampaignState) -> Command:
        return Attack(self.attacker, self.target, self.ranged, self.own_side)


class CombatCheckBody(VerbBody, title="Opposed check"):
    """Roll a risky action the referee asks to be rolled: d20 + the stat, higher than the
    target's defence succeeds [TP-OPP-1, TP-ROLL-1]; +1 for the party on a Second Wind."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat check Aldo STR --defence 12"

    verb: Literal["combat_check"]
    actor: Annotated[str, FIGHTER, Arg()] = Field(
        min_length=1, description="Who attempts the risky action."
    )
    stat: Annotated[str, STAT, Arg()] = Field(
        min_length=1, description="The relevant stat, e.g. STR."
    )
    defence: int = Field(description="The target's defence in that attribute, to roll higher.")

    def command(self, state: CampaignState) -> Command:
        return Check(self.actor, self.stat, self.defence)


class CombatSaveBody(VerbBody, title="Saving throw"):
    """A saving throw against a spell, a trap, a poison: d20 equal to or over the target
    [PG-SAVE-1]; no action of the saver's."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat save Aldo"

    verb: Literal["combat_save"]
    name: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who must save.")

    def command(self, state: CampaignState) -> Command:
        return Save(self.name)


class CombatAskBody(VerbBody, title="Ask a player to roll"):
    """Ask a character's player to roll a save or a check on their own dice: the party's
    phones show it, and the player's calls them [TP-ROLL-1, PG-SAVE-1, TP-OPP-1]; the roll
    comes back as `combat rolled`, marked as the player's. The defence is the referee's."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat ask Bea save; combat ask Bea check STR --defence 12"

    verb: Literal["combat_ask"]
    name: Annotated[str, CHARACTER, Arg()] = Field(
        min_length=1, description="The character whose player rolls."
    )
    roll: Annotated[AskedKind, Arg("ROLL")] = Field(description="save or check.")
    stat: Annotated[str, STAT, Arg()] = Field(
        "", description="A check's stat, e.g. STR (none for a save)."
    )
    defence: int | None = Field(
        None, description="A check's defence to roll higher than. Only the referee sees it."
    )

    def command(self, state: CampaignState) -> Command:
        return AskRoll(self.name, self.roll, self.stat, self.defence)


class CombatRolledBody(VerbBody, title="Rolled as asked"):
    """The roll asked of a character's player, as the player rolled it (their phone's "I
    rolled", or their dice told to the referee): the save or check runs on those faces,
    recorded as the player's [TP-ROLL-1, PG-SAVE-1, TP-OPP-1]."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat rolled Bea 14"

    verb: Literal["combat_rolled"]
    name: Annotated[str, ASKED, Arg()] = Field(
        min_length=1, description="The character whose player rolled."
    )
    rolled: Annotated[Faces, Arg("FACES")] = Field(
        min_length=1, description="The die's faces as the player rolled them, e.g. 14."
    )

    def command(self, state: CampaignState) -> Command:
        return AnswerRoll(self.name, tuple(self.rolled))


class CombatAnnounceDoneBody(VerbBody, title="Side done"):
    """Say a side has finished announcing (or acting) this round [TP-CBT-1, CB-RND-1]."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat announce-done party"

    verb: Literal["combat_announce_done"]
    side: Annotated[SideName, Arg()] = Field(description="party or foes.")

    def command(self, state: CampaignState) -> Command:
        return AnnounceDone(_SIDES[self.side])


class CombatPinBody(VerbBody, title="Pin in the order"):
    """Pin a combatant to a place in the order of this and later rounds."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat pin Bea 1"

    verb: Literal["combat_pin"]
    name: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="The combatant.")
    place: Annotated[int, Arg("N")] = Field(ge=1, description="Its place in the order, 1 first.")

    def command(self, state: CampaignState) -> Command:
        return Pin(self.name, self.place)


class CombatEndBody(VerbBody, title="End the fight"):
    """End the fight: treasure, hit points back to the party, a rest due [PG-TRE-1, EX-REST-2]."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat end; combat end --winner party"

    verb: Literal["combat_end"]
    winner: SideName | None = Field(
        None, description="party or foes (default: the side still standing)."
    )

    def command(self, state: CampaignState) -> Command:
        return EndCombat(_SIDES[self.winner] if self.winner else None)
