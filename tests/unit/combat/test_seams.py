"""Where a fight meets the rest of the campaign: one truth for hit points, fights that end
by the rules, the fallen out of reach, and time that passes only outside a fight.

Each test played a referee's slip that the engine let through before (issue: rules at the
seams); the numbers are the texts' own.
"""

from __future__ import annotations

from importlib.resources import files

import pytest

from turnkeeper.campaign import Journal, Wait, load_party
from turnkeeper.campaign.commands import CountdownAdd, Damage, Heal, Rest
from turnkeeper.campaign.glance import status_rows
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.combat import (
    Action,
    ActionKind,
    Attack,
    BeginRound,
    Combatant,
    Declare,
    EndCombat,
    Resolve,
    Side,
    StartFight,
    Surrender,
)
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.rules import preset
from turnkeeper.views.journal import party_perceives, player_log, undone_commands
from turnkeeper.world.sites import load_site

EXAMPLES = files("turnkeeper.examples")


def _foe(name: str, hp: int = 5, ac: int = 10) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, hp=hp, max_hp=hp, ac=ac, hd=1)


def _keep(ruleset: str = "pg", seed: int = 3) -> Journal:
    rules = preset(ruleset)
    party = load_party(str(EXAMPLES / "fighters.toml"), rules)
    return Journal.start("Keep", rules, party, seed=seed)


def _fight(journal: Journal, *foes: Combatant) -> None:
    journal.execute(StartFight(foes=foes, surprised=frozenset()))


def _refused(journal: Journal, command: object, match: str) -> None:
    """The command is one clear refusal and the journal is as it was."""
    before = journal.state
    with pytest.raises(IllegalCommandError, match=match):
        journal.execute(command)  # type: ignore[arg-type]
    assert journal.state == before


def _party_hp(journal: Journal, name: str) -> int:
    return journal.state.character(name).hp


# --- one truth for hit points -----------------------------------------------------------


def test_pg_hp_1_a_characters_hit_points_are_kept_once_in_and_out_of_a_fight() -> None:
    """PG-HP-1 ("damage is subtracted from hit points"): Ann (14 hp) takes a 3-point trap
    wound in a fight: the party's sheet, the status panel and the tracker all read 11/14 at
    once, not only when the fight ends; a healing potion of 2 reads 13 everywhere."""
    journal = _keep()
    _fight(journal, _foe("Ogre", hp=50))
    journal.execute(Damage("Ann", 3, "a trap"))
    fight = journal.state.combat
    assert fight is not None
    assert _party_hp(journal, "Ann") == fight.get("Ann").hp == 11
    assert ["Ann", [["11/14 hp", ""]]] in status_rows(journal.state)
    journal.execute(Heal("Ann", 2))
    assert _party_hp(journal, "Ann") == journal.state.combat.get("Ann").hp == 13  # type: ignore[union-attr]


def test_pg_hp_1_a_blow_in_a_fight_is_on_the_sheet_at_once_and_an_ended_fight_leaves() -> None:
    """PG-HP-1, PG-ATK-2: the ogre (HD 1, +1 to hit) rolls 18 against Dee's AC 11 and a d6
    of 6: Dee (5 hp, level 2) is at -1, unconscious, on the party's sheet as the blow lands.
    The fight ended, it is history in the journal: no tracker is left beside the party."""
    journal = _keep()
    _fight(journal, _foe("Ogre", hp=50))
    journal.execute(BeginRound(), TypedDice([1, 6]))  # pg sides: the ogre acts first
    journal.execute(Attack("Ogre", "Dee"), TypedDice([18, 6]))
    dee = journal.state.character("Dee")
    assert (dee.hp, dee.conditions) == (-1, ("unconscious",))
    journal.execute(EndCombat())
    assert journal.state.combat is None and not journal.state.fight_running
    assert journal.state.character("Dee").hp == -1


# --- fights end by the rules -------------------------------------------------------------


def test_pg_cbt_1_a_fight_with_a_side_down_is_resolved_whatever_comes_next() -> None:
    """PG-CBT-1 ("go back to step two if combat has not been resolved"): the orc, alone,
    takes 5 from a falling stone and dies (monsters die at 0, PG-HP-1): the fight ends in
    that command, won by the party, with a turn of rest due under ex (EX-REST-2); no round
    and no initiative for a side of the dead follows."""
    journal = _keep("ex")
    _fight(journal, _foe("Orc", hp=5))
    kinds = [r.event.kind for r in journal.execute(Damage("Orc", 5, "a falling stone"))]
    assert kinds[-3:] == ["combat.damage", "combat.ended", "rest.due"]
    assert not journal.state.fight_running
    _refused(journal, BeginRound(), "no combat")


def test_dg_cd_1_a_fight_ended_mid_round_ends_its_round_and_a_rapid_countdown_ticks() -> None:
    """DG-CD-1 ("rapid countdowns tick at the end of each combat round"): a dg fight played
    the README way, `combat round`, an attack declared, `combat end`: the last round ends
    with the fight, so RC(3) ticks to 2 there."""
    journal = _keep("dg")
    journal.execute(CountdownAdd("smoke", "rapid", "3"))
    _fight(journal, _foe("Ogre", hp=50), _foe("Orc", hp=50))
    journal.execute(BeginRound())
    journal.execute(Declare("Ann", (Action(kind=ActionKind.ATTACK, target="Ogre"),)))
    kinds = [r.event.kind for r in journal.execute(EndCombat())]
    assert kinds[:3] == ["combat.resolved", "countdown.ticked", "combat.ended"]
    assert journal.state.countdown("smoke").left == 2


# --- the fallen are out of reach ---------------------------------------------------------


def test_pg_hp_1_the_fallen_are_no_target_and_a_friend_is_struck_only_on_purpose() -> None:
    """PG-HP-1: a dead goblin is out of the fight: no attack, no more damage (it stays at
    -2, never -8); Ann's blow at Bo asks to be meant, and is rolled when it is."""
    journal = _keep()
    _fight(journal, _foe("Goblin 1", hp=4), _foe("Goblin 2", hp=4))
    journal.execute(Damage("Goblin 1", 6))
    assert journal.state.combat.get("Goblin 1").hp == -2  # type: ignore[union-attr]
    journal.execute(BeginRound(), TypedDice([5, 2]))
    _refused(journal, Attack("Bo", "Goblin 1"), "Goblin 1 is dead, out of the fight and no target")
    _refused(journal, Damage("Goblin 1", 5), "Goblin 1 is already dead")
    _refused(journal, Attack("Ann", "Bo"), "Bo is on Ann's side: .* say so")
    struck = journal.execute(Attack("Ann", "Bo", own_side=True), TypedDice([20, 3]))
    assert [r.event.kind for r in struck][:2] == ["combat.attack", "combat.damage"]
    assert _party_hp(journal, "Bo") == 8 - 5  # a d8 of 3 + STR 2


def test_pg_hp_1_a_declared_blow_at_one_fallen_earlier_in_the_round_finds_nobody() -> None:
    """PG-CBT-1: the party's beat fells Goblin 1; Goblin 2's friend Cy, later in the order,
    declared a blow at it too: it finds it already down, and no die is rolled for it."""
    journal = _keep()
    _fight(journal, _foe("Goblin 1", hp=1), _foe("Goblin 2", hp=30))
    journal.execute(BeginRound(), TypedDice([5, 2]))
    journal.execute(Declare("Ann", (Action(kind=ActionKind.ATTACK, target="Goblin 1"),)))
    journal.execute(Declare("Cy", (Action(kind=ActionKind.ATTACK, target="Goblin 1"),)))
    lines = [r.event.describe() for r in journal.execute(Resolve(), TypedDice([20, 1]))]
    assert "Cy: attack Goblin 1 finds Goblin 1 already down" in lines


# --- time passes only outside a fight, and only for a party that can go on ---------------


def test_pg_time_1_no_dungeon_turn_and_no_rest_while_a_fight_runs() -> None:
    """PG-TIME-1, TP-TIME-1: a fight's time passes round by round; a dungeon turn (ten
    minutes of exploring) or a rest in the middle of it is refused, as a wait is."""
    journal = _keep("ex")
    journal.execute(EnterSite(load_site(str(EXAMPLES / "site.toml"))))
    _fight(journal, _foe("Ogre", hp=50))
    for command in (Turn(), Rest(), Wait(600)):
        _refused(journal, command, "a fight is running: its time passes round by round")


def test_pg_hp_1_a_party_with_nobody_able_explores_no_more() -> None:
    """PG-HP-1: Ann, Bo and Cy dead, Dee unconscious: no turn, rest or wait passes for a
    party with nobody able to act; healing Dee lets time pass again."""
    journal = _keep("ex")
    journal.execute(EnterSite(load_site(str(EXAMPLES / "site.toml"))))
    for name, wound in (("Ann", 16), ("Bo", 10), ("Cy", 12), ("Dee", 5)):
        journal.execute(Damage(name, wound))
    for command in (Turn(), Rest(), Wait(600)):
        _refused(journal, command, r"nobody in the party can act \(Ann dead, .*Dee unconscious\)")
    journal.execute(Heal("Dee", 2))
    journal.execute(Wait(600))


# --- what the players hear -----------------------------------------------------------------


def test_tp_cbt_1_the_party_never_hears_the_plan_of_foes_with_initiative() -> None:
    """TP-CBT-1 ("Having Initiative"): the initiative die shows 3, the opponents have
    initiative; the referee types the orc's plan first: it is held, and the players' log
    never shows it; Ann's announcement they read. With face 5 the party has initiative and
    hears the orc announce."""
    journal = _keep("tp")
    _fight(journal, _foe("Orc", hp=30))
    journal.execute(BeginRound(), TypedDice([3]))
    orc = journal.execute(Declare("Orc", (Action(kind=ActionKind.ATTACK, target="Bo"),)))
    ann = journal.execute(Declare("Ann", (Action(kind=ActionKind.ATTACK, target="Orc"),)))
    undone = undone_commands(journal.records)
    assert not party_perceives(orc[0], undone) and party_perceives(ann[0], undone)
    assert "Orc declares" not in " ".join(
        r.event.describe_to_party() or "" for r in player_log(journal.records)
    )


def test_pg_hp_1_a_party_with_nobody_able_starts_no_fight_without_allies() -> None:
    """PG-HP-1: with Ann, Bo and Cy dead and Dee unconscious, `combat start` is refused
    (it would be a fight of one side, lost as it began); a hireling who fights for them
    may start it."""
    journal = _keep()
    for name, wound in (("Ann", 16), ("Bo", 10), ("Cy", 12), ("Dee", 5)):
        journal.execute(Damage(name, wound))
    _refused(journal, StartFight(foes=(_foe("Orc"),)), "nobody in the party can fight")
    hireling = Combatant(name="Hireling", side=Side.PARTY, hp=4, max_hp=4, ac=11, hd=1)
    journal.execute(StartFight(foes=(_foe("Orc"),), allies=(hireling,), surprised=frozenset()))
    assert journal.state.fight_running


def test_pg_cbt_1_foes_who_all_yield_end_the_fight_won_by_the_party() -> None:
    """PG-CBT-1: the chief falls and the goblins, outwitted, yield: with nobody left
    fighting on their side the combat is resolved, the party the winner; one who yielded
    is no target and cannot yield twice."""
    journal = _keep()
    _fight(journal, _foe("Goblin 1"), _foe("Goblin 2"), _foe("Chief", hp=1))
    journal.execute(Surrender(("Goblin 1",)))
    _refused(journal, Surrender(("Goblin 1",)), "already out of the fight")
    journal.execute(BeginRound(), TypedDice([5, 2]))
    _refused(journal, Attack("Ann", "Goblin 1"), "Goblin 1 is surrendered, out of the fight")
    journal.execute(Damage("Chief", 1))
    kinds = [r.event.kind for r in journal.execute(Surrender(("Goblin 2",)))]
    assert kinds[:3] == ["combat.surrendered", "combat.resolved", "combat.ended"]
    ended = next(r.event for r in journal.records if r.event.kind == "combat.ended")
    assert ended.describe().startswith("combat over: party wins")
