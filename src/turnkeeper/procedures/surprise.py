"""Surprise: who loses a round when two groups meet, as each ruleset settles it.

Three mechanisms, chosen by ``ruleset.surprise.method``:

- ``movement`` (EX-SUR-1 to EX-SUR-5): the party's movement mode decides. Cautious parties
  are not surprised (unless ambushed), running parties always are, swift parties risk it;
  an uncertain case is a contested DEX/Stealth against WIS/Scout check, and where both
  groups may be surprised, every member of a party whose pace risks it rolls WIS/Scout
  against difficulty 9 (a cautious party is still not surprised, a running one still is).
  A party resting or waiting in place has no pace: the ruleset's ``at_rest`` reads it
  (the project's reading, :func:`pace_surprise`).
- ``in_six`` (PG-SUR-1): each group unaware of the other is surprised on 2 in 6.
- ``opposed`` (CB-SUR-1, CB-SUR-2): the attackers' DEX/Sneak against the defenders'
  WIS/Notice; a surprised undisciplined group may check morale.

And over all of them EX-LIGHT-3: a party bearing light never surprises foes lurking in
darkness. :func:`settle_surprise` is the one place surprise is decided from how the groups
met (a :class:`Meeting`, told by the referee or by the site): the combat procedure calls it
when a fight is started by hand, the dungeon turn when an encounter is rolled or an
occupied area entered. Skill-check dice are not given by the
texts: the project's defaults are 2d6 for EX (difficulty 9 reads as a 2d6 skill check) and
d20 for CB, overridable with ``check_dice``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal

from turnkeeper.dice import DiceSource, Roll, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.rules.schema import MovementMode, Side, SurpriseRules

__all__ = [
    "Approach",
    "Meeting",
    "SurpriseResult",
    "SurpriseSituation",
    "check_dice_for",
    "contested_check",
    "in_six",
    "meeting_situation",
    "mutual_check",
    "pace_surprise",
    "settle_surprise",
]

#: EX-SUR-4 skill checks: the text gives no die; difficulty 9 reads as a 2d6 check.
MOVEMENT_CHECK_DICE = "2d6"
#: CB-SUR-1: the text gives no die; the project's default is the d20 of its attack roll.
OPPOSED_CHECK_DICE = "d20"


class Approach(StrEnum):
    """How the two groups come together."""

    WANDERING = "wandering"  # foes come upon the party (a wandering encounter)
    ENTERING = "entering"  # the party moves into an occupied place (EX-SUR-2)
    AMBUSH = "ambush"  # foes lie in wait (EX-SUR-1's exception)
    PARTY_AMBUSH = "party_ambush"  # the party lies in wait for the foes


class Meeting(StrEnum):
    """How the party and the others came together, as the referee tells it (EX-SUR-1 to 4).

    The front doors' words for an :class:`Approach` (and EX-SUR-4's "both might be
    surprised"), so a fight started by hand meets the same rules as the dungeon turn.
    """

    ENCOUNTER = "encounter"  # one group comes suddenly on another
    OCCUPIED = "occupied"  # the party's movement carries it into an occupied place (EX-SUR-2)
    AMBUSH = "ambush"  # the foes leap from ambush, or are greatly concealed (EX-SUR-1)
    BOTH_UNAWARE = "both-unaware"  # both groups might be surprised (EX-SUR-4)

    @property
    def approach(self) -> Approach:
        return _APPROACH[self]

    @classmethod
    def parse(cls, text: str, option: str = "meeting") -> Meeting:
        """The meeting ``text`` names; one error listing the choices when it names none.

        >>> Meeting.parse(" Both-Unaware "), Meeting.parse("both_unaware")
        (<Meeting.BOTH_UNAWARE: 'both-unaware'>, <Meeting.BOTH_UNAWARE: 'both-unaware'>)
        """
        try:
            return cls(text.strip().lower().replace("_", "-"))
        except ValueError:
            choices = ", ".join(m.value for m in cls)
            raise IllegalCommandError(f"{option} {text!r}: say one of {choices}") from None


_APPROACH = {
    Meeting.ENCOUNTER: Approach.WANDERING,
    Meeting.OCCUPIED: Approach.ENTERING,
    Meeting.AMBUSH: Approach.AMBUSH,
    Meeting.BOTH_UNAWARE: Approach.WANDERING,
}


@dataclass(frozen=True)
class SurpriseSituation:
    """Everything surprise depends on, in the game's words.

    Bonuses are the stat modifier plus skill of the group's best member for the check
    (the stealthiest for Stealth/Sneak, the keenest for Scout/Notice). ``party_notice_each``
    lists every member's Scout bonus by name, for EX-SUR-4's "both may be surprised";
    ``foe_notice_each`` the foes' by name where they are known (in a fight), else each of the
    ``foe_count`` foes rolls at ``foe_notice``.
    """

    approach: Approach = Approach.WANDERING
    mode_name: str | None = None
    mode: MovementMode | None = None
    party_stealth: int = 0
    party_notice: int = 0
    party_notice_each: tuple[tuple[str, int], ...] = ()
    foe_stealth: int = 0
    foe_notice: int = 0
    foe_count: int = 1
    foe_notice_each: tuple[tuple[str, int], ...] = ()
    party_aware: bool = False
    foes_aware: bool = False
    party_has_light: bool = False
    foes_in_darkness: bool = True
    both_may_be_surprised: bool = False
    foes_undisciplined: bool = False
    foes_hungry: bool = False
    #: The party rests or waits where it is (no pace of its own): ``SurpriseRules.at_rest``.
    still: bool = False


@dataclass(frozen=True)
class SurpriseResult:
    """Who is surprised, why (with the rule), and every die rolled to settle it."""

    party_surprised: bool
    foes_surprised: bool
    rule: str
    reason: str
    rolls: tuple[Roll, ...] = ()
    surprised_members: tuple[str, ...] = field(default=())
    surprised_foes: tuple[str, ...] = ()
    foes_surprised_count: int = 0
    morale_check: bool = False
    reaction_modifier: int = 0
    #: What each of ``rolls`` was for, in order ("the foes' Stealth", "Aldo's Scout"), so
    #: a record names its dice; () where no die was rolled.
    roll_names: tuple[str, ...] = ()

    @property
    def free_round(self) -> Side | None:
        """The side that gets a full round to itself (EX-SUR-5, PG-SUR-1, CB-SUR-1)."""
        if self.party_surprised and not self.foes_surprised:
            return Side.OPPOSITION
        if self.foes_surprised and not self.party_surprised:
            return Side.PARTY
        return None


def meeting_situation(
    meeting: Meeting, mode_name: str | None = None, mode: MovementMode | None = None
) -> SurpriseSituation:
    """The situation a meeting sets, before the groups' skills are known.

    >>> meeting_situation(Meeting.BOTH_UNAWARE).both_may_be_surprised
    True
    >>> meeting_situation(Meeting.OCCUPIED).approach
    <Approach.ENTERING: 'entering'>
    """
    return SurpriseSituation(
        approach=meeting.approach,
        mode_name=mode_name,
        mode=mode,
        both_may_be_surprised=meeting is Meeting.BOTH_UNAWARE,
    )


def pace_surprise(
    rules: SurpriseRules, mode: MovementMode | None, still: bool = False
) -> Literal["never", "risk", "always"]:
    """What the party's pace makes of a meeting (EX-SUR-1 to EX-SUR-3): ``never`` surprised
    (cautious), at ``risk`` (swift), ``always`` (running).

    The text names moving parties only; a party resting or waiting in place is read by the
    ruleset's ``at_rest`` (the project's reading), and a pace nobody knows is at risk.

    >>> from turnkeeper.rules.loader import preset
    >>> ex = preset("ex")
    >>> pace_surprise(ex.surprise, ex.dungeon.movement["cautious"])
    'never'
    >>> pace_surprise(ex.surprise, None, still=True), pace_surprise(ex.surprise, None)
    ('risk', 'risk')
    """
    if mode is not None:
        return mode.surprise
    return rules.at_rest if still else "risk"


def check_dice_for(rules: SurpriseRules) -> str:
    """The skill-check dice of the ruleset's surprise method (a schema key if it has one)."""
    configured = getattr(rules, "check_dice", None)
    if isinstance(configured, str):
        return configured
    return OPPOSED_CHECK_DICE if rules.method == "opposed" else MOVEMENT_CHECK_DICE


def contested_check(
    stealth: int, notice: int, dice: DiceSource, check_dice: str = MOVEMENT_CHECK_DICE
) -> tuple[bool, Roll, Roll]:
    """EX-SUR-4, CB-SUR-1: the concealed side's Stealth against the other's Scout/Notice.

    The concealed side surprises only if it beats the other (strictly higher): a tie is
    not "beats" (EX) nor "prevails" (CB).

    >>> from turnkeeper.dice import TypedDice
    >>> contested_check(1, 0, TypedDice([4, 4, 5, 3]))[0]
    True
    >>> contested_check(0, 0, TypedDice([4, 4, 5, 3]))[0]
    False
    """
    sneak = roll(f"{check_dice}+STEALTH", dice, {"STEALTH": stealth})
    spot = roll(f"{check_dice}+NOTICE", dice, {"NOTICE": notice})
    return sneak.total > spot.total, sneak, spot


def mutual_check(
    notice_each: Sequence[tuple[str, int]],
    difficulty: int,
    dice: DiceSource,
    check_dice: str = MOVEMENT_CHECK_DICE,
) -> tuple[tuple[str, ...], tuple[Roll, ...]]:
    """EX-SUR-4, both may be surprised: each member rolls Scout; below ``difficulty`` loses.

    Returns the names of the surprised and every roll (the project's default: a total of
    ``difficulty`` or more is not surprised).

    >>> from turnkeeper.dice import TypedDice
    >>> mutual_check([("Ana", 1), ("Bo", 0)], 9, TypedDice([4, 4, 3, 2]))[0]
    ('Bo',)
    """
    losers: list[str] = []
    rolls: list[Roll] = []
    for name, bonus in notice_each:
        got = roll(f"{check_dice}+NOTICE", dice, {"NOTICE": bonus})
        rolls.append(got)
        if got.total < difficulty:
            losers.append(name)
    return tuple(losers), tuple(rolls)


def in_six(chance: int, dice: DiceSource) -> tuple[bool, Roll]:
    """PG-SUR-1: an unaware group is surprised on ``chance`` in 6 (a d6 at or under it).

    >>> from turnkeeper.dice import TypedDice
    >>> in_six(2, TypedDice([2]))[0], in_six(2, TypedDice([3]))[0]
    (True, False)
    """
    got = roll("d6", dice)
    return got.total <= chance, got


def settle_surprise(
    rules: SurpriseRules,
    situation: SurpriseSituation,
    dice: DiceSource,
    check_dice: str | None = None,
) -> SurpriseResult:
    """Settle surprise between the party and a group of foes by the ruleset's method."""
    dice_text = check_dice or check_dice_for(rules)
    if rules.method == "movement":
        result = _by_movement(rules, situation, dice, dice_text)
    elif rules.method == "in_six":
        result = _by_six(rules, situation, dice)
    else:
        result = _by_opposed(rules, situation, dice, dice_text)
    return _aftermath(rules, situation, result)


def _light_spoils(rules: SurpriseRules, situation: SurpriseSituation) -> bool:
    """EX-LIGHT-3: the party's light gives it away to foes lurking in darkness."""
    return rules.light_spoils_surprise and situation.party_has_light and situation.foes_in_darkness


def _by_movement(
    rules: SurpriseRules, s: SurpriseSituation, dice: DiceSource, check_dice: str
) -> SurpriseResult:
    spoiled = _light_spoils(rules, s)
    if s.both_may_be_surprised:
        return _both_unaware(rules, s, dice, check_dice, spoiled)
    party, rolls, rule, reason = _party_by_mode(rules, s, dice, check_dice)
    names: tuple[str, ...] = _contest(rules, "foes") if rolls else ()
    foes = False
    if s.approach is Approach.PARTY_AMBUSH and not spoiled and not s.foes_aware:
        foes, sneak, spot = contested_check(s.party_stealth, s.foe_notice, dice, check_dice)
        rolls += (sneak, spot)
        names += _contest(rules, "party")
        reason += "; the party lies in wait: its Stealth against the foes' Scout"
    elif spoiled and s.approach is Approach.PARTY_AMBUSH:
        reason += "; the party's light gives it away (EX-LIGHT-3)"
    return SurpriseResult(
        party,
        foes,
        rule,
        reason,
        rolls,
        foes_surprised_count=s.foe_count * foes,
        roll_names=names,
    )


def _both_unaware(
    rules: SurpriseRules, s: SurpriseSituation, dice: DiceSource, check_dice: str, spoiled: bool
) -> SurpriseResult:
    """EX-SUR-4, both may be surprised: each member rolls WIS/Scout against the difficulty,
    and any who lose are surprised; but only where the party's pace risks surprise. "Cautious
    movement cannot be surprised unless" ambushed or greatly concealed, and running "always
    surprised" (EX-SUR-1, EX-SUR-3): both unaware lifts neither, so such a party rolls
    nothing and only the foes roll."""
    kind = pace_surprise(rules, s.mode, s.still)
    if kind == "never" and s.approach is Approach.AMBUSH:
        kind = "risk"  # EX-SUR-1's exception: foes in ambush may surprise a cautious party
    members = s.party_notice_each or (("party", s.party_notice),)
    pace = ""
    if kind == "risk":
        losers, rolls = mutual_check(members, rules.both_difficulty, dice, check_dice)
        party = len(losers) == len(members)
        rollers = members
    else:
        party = kind == "always"
        losers = tuple(name for name, _ in members) if party and s.party_notice_each else ()
        rolls, rollers = (), ()
        pace = (
            f"{s.mode_name or 'the party'}: a running party is always surprised (EX-SUR-3); "
            if party
            else f"{s.mode_name or 'the party'}: a cautious party cannot be surprised (EX-SUR-1); "
        )
    foe_members = s.foe_notice_each or tuple(
        (f"foe {i + 1}", s.foe_notice) for i in range(max(s.foe_count, 1))
    )
    foe_losers, foe_rolls = (
        ((), ()) if spoiled else mutual_check(foe_members, rules.both_difficulty, dice, check_dice)
    )
    return SurpriseResult(
        party_surprised=party,
        foes_surprised=len(foe_losers) == len(foe_members),
        rule="EX-SUR-4",
        reason=(
            f"both may be surprised: {pace}each rolls WIS/Scout against "
            f"{rules.both_difficulty}; {len(foe_losers)} of {len(foe_members)} foes lose"
        ),
        rolls=rolls + foe_rolls,
        roll_names=tuple(
            f"{_whose(who)} {rules.notice_skill}"
            for who, _ in (*rollers, *(foe_members if foe_rolls else ()))
        ),
        surprised_members=losers,
        surprised_foes=foe_losers,
        foes_surprised_count=len(foe_losers),
    )


def _whose(who: str) -> str:
    """``"Aldo's"``, ``"the party's"``, ``"the foes'"``: who rolled a check."""
    if who in ("party", "foes"):
        who = f"the {who}"
    return f"{who}'" if who.endswith("s") else f"{who}'s"


def _contest(rules: SurpriseRules, hidden: str) -> tuple[str, str]:
    """The names of a contest's two rolls (EX-SUR-4, CB-SUR-1): the hidden side's
    Stealth, then the other's Scout or Notice."""
    finder = "foes" if hidden == "party" else "party"
    return f"{_whose(hidden)} {rules.stealth_skill}", f"{_whose(finder)} {rules.notice_skill}"


def _party_by_mode(
    rules: SurpriseRules, s: SurpriseSituation, dice: DiceSource, check_dice: str
) -> tuple[bool, tuple[Roll, ...], str, str]:
    """EX-SUR-1 to EX-SUR-3 (and EX-SUR-4 when uncertain): is the party surprised?"""
    name = s.mode_name or ("the party at rest" if s.still else "the party's pace")
    if s.party_aware or s.approach is Approach.PARTY_AMBUSH:
        return False, (), "EX-SUR-4", "the party knows the foes are there"
    kind = pace_surprise(rules, s.mode, s.still)
    if s.still and s.mode is None and kind != "risk":
        name += f" (read as `{kind}`, the ruleset's surprise.at_rest)"
    if kind == "always":
        return True, (), "EX-SUR-3", f"{name}: a running party is always surprised"
    if kind == "never" and s.approach is not Approach.AMBUSH:
        return False, (), "EX-SUR-1", f"{name}: a cautious party cannot be surprised"
    # An ambush on a cautious party, or a swift party meeting others: surprise is uncertain.
    rule = "EX-SUR-1" if kind == "never" else "EX-SUR-2"
    surprised, sneak, spot = contested_check(s.foe_stealth, s.party_notice, dice, check_dice)
    how = "foes lie in ambush" if s.approach is Approach.AMBUSH else f"{name} risks surprise"
    return surprised, (sneak, spot), rule, f"{how}: foes' DEX/Stealth against WIS/Scout (EX-SUR-4)"


def _by_six(rules: SurpriseRules, s: SurpriseSituation, dice: DiceSource) -> SurpriseResult:
    rolls: list[Roll] = []
    names: list[str] = []
    party = foes = False
    notes: list[str] = []
    if s.party_aware:
        notes.append("the party is aware")
    else:
        party, got = in_six(rules.chance_in_six, dice)
        rolls.append(got)
        names.append("the party's surprise")
    if s.foes_aware or _light_spoils(rules, s):
        notes.append("the foes are aware" if s.foes_aware else "the party's light is seen")
    else:
        foes, got = in_six(rules.chance_in_six, dice)
        rolls.append(got)
        names.append("the foes' surprise")
    reason = f"each unaware group is surprised on {rules.chance_in_six} in 6"
    if notes:
        reason += f" ({'; '.join(notes)})"
    return SurpriseResult(
        party,
        foes,
        "PG-SUR-1",
        reason,
        tuple(rolls),
        foes_surprised_count=0,
        roll_names=tuple(names),
    )


def _by_opposed(
    rules: SurpriseRules, s: SurpriseSituation, dice: DiceSource, check_dice: str
) -> SurpriseResult:
    party_attacks = s.approach is Approach.PARTY_AMBUSH
    defenders_aware = s.foes_aware if party_attacks else s.party_aware
    stealth_name = f"{rules.stealth_stat}/{rules.stealth_skill}"
    notice_name = f"{rules.notice_stat}/{rules.notice_skill}"
    if defenders_aware or (party_attacks and _light_spoils(rules, s)):
        return SurpriseResult(False, False, "CB-SUR-1", "the defenders are aware: no surprise")
    if party_attacks:
        won, sneak, spot = contested_check(s.party_stealth, s.foe_notice, dice, check_dice)
    else:
        won, sneak, spot = contested_check(s.foe_stealth, s.party_notice, dice, check_dice)
    attackers = "the party" if party_attacks else "the foes"
    reason = f"{attackers} try for surprise: {stealth_name} against {notice_name}"
    return SurpriseResult(
        party_surprised=won and not party_attacks,
        foes_surprised=won and party_attacks,
        rule="CB-SUR-1",
        reason=reason,
        rolls=(sneak, spot),
        roll_names=_contest(rules, "party" if party_attacks else "foes"),
    )


def _aftermath(
    rules: SurpriseRules, s: SurpriseSituation, result: SurpriseResult
) -> SurpriseResult:
    """EX-SUR-5 (a hungry foe that surprised the party) and CB-SUR-2 (morale when surprised)."""
    modifier = rules.hungry_reaction_modifier if s.foes_hungry and result.party_surprised else 0
    morale = rules.morale_when_surprised and result.foes_surprised and s.foes_undisciplined
    count = result.foes_surprised_count or (s.foe_count if result.foes_surprised else 0)
    return replace(
        result, reaction_modifier=modifier, morale_check=morale, foes_surprised_count=count
    )
