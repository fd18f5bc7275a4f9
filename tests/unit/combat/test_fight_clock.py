"""The clock in a fight: a round's time passes through the campaign's scheduler.

A torch burns down, a countdown of turns or days ticks at the boundaries a fight's rounds
cross, as in any other command; a dungeon turn's check stays with the exploring the fight
interrupts, and a rapid countdown ticks once a round, as each round is resolved.
"""

from __future__ import annotations

from importlib.resources import files

from turnkeeper.campaign import AddSupply, Journal, Light, SetLight, Wait, load_party
from turnkeeper.campaign.commands import CountdownAdd
from turnkeeper.clock.calendar import start_offset
from turnkeeper.procedures.combat import BeginRound, Combatant, Side, StartFight
from turnkeeper.procedures.combat.events import RoundBegan
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.rules import preset
from turnkeeper.world.sites import load_site

EXAMPLES = files("turnkeeper.examples")

OGRE = Combatant(name="Ogre", side=Side.OPPOSITION, hp=200, max_hp=200, ac=30, hd=4)
"""A foe nobody fells in these fights: the rounds only pass time."""


def _keep(ruleset: str) -> Journal:
    rules = preset(ruleset)
    if ruleset == "pg":  # the text has no light rules: a referee's pg with EX's torches
        rules = rules.model_copy(update={"light": preset("ex").light})
    party = load_party(str(EXAMPLES / "fighters.toml"), rules)
    return Journal.start("Keep", rules, party, seed=3)


def _fight(journal: Journal, rounds: int) -> list[str]:
    """Start a fight with the ogre and play ``rounds`` rounds; the kinds recorded in them."""
    journal.execute(StartFight(foes=(OGRE,), surprised=frozenset()))
    kinds: list[str] = []
    for _ in range(rounds):
        kinds += [r.event.kind for r in journal.execute(BeginRound())]
    return kinds


def test_pg_time_1_ten_one_minute_rounds_burn_a_torch_down_a_turn() -> None:
    """PG-TIME-1 ("A combat round takes 1 minute"), EX-LIGHT-1: under pg with EX's torches,
    a torch with 1 turn left,
    lit at a turn's start, still burns after 9 rounds and goes out at the 10th round, the
    turn's end; the clock then reads 10 minutes."""
    journal = _keep("pg")
    journal.execute(AddSupply("torches", 1))
    journal.execute(Light("torch"))
    journal.execute(SetLight(1))
    start = journal.state.now
    nine = _fight(journal, 9)
    assert "light.out" not in nine and journal.state.light.source == "torch"
    tenth = [r.event.kind for r in journal.execute(BeginRound())]
    assert "light.out" in tenth
    assert journal.state.light.source is None
    assert journal.state.now - start == 600


def test_tp_time_1_sixty_ten_second_rounds_are_one_turn_and_roll_no_dungeon_die() -> None:
    """TP-TIME-1 (combat round 10 s, dungeon turn 10 min): 60 rounds in a site are one turn
    of the clock; TP-ENC-2, TP-DUN-1: the dungeon die governs exploration turns, the
    initiative die the fight, so no dungeon die is rolled and no site turn counted."""
    journal = _keep("tp")
    journal.execute(EnterSite(load_site(str(EXAMPLES / "site.toml"))))
    assert journal.state.site is not None
    turns, start = journal.state.site.turns, journal.state.now
    kinds = _fight(journal, 60)
    assert journal.state.now - start == 600
    assert not [k for k in kinds if k.startswith("dungeon.")]
    assert journal.state.site.turns == turns


def test_dg_cd_1_a_rapid_countdown_ticks_once_a_round_in_a_fight_not_on_the_calendar() -> None:
    """DG-CD-1: a rapid countdown "ticks at the end of a combat round": RC(5) ticks once
    for each round resolved (rounds 1 and 2, as rounds 2 and 3 begin), never again for the
    6 s the scheduler passes in each round."""
    journal = _keep("dg")
    journal.execute(CountdownAdd("smoke", "rapid", "5"))
    _fight(journal, 3)
    (smoke,) = journal.state.countdowns
    assert smoke.left == 3  # rounds 1 and 2 resolved as rounds 2 and 3 began


def test_dg_cd_1_a_day_countdown_ticks_when_a_fight_crosses_midnight() -> None:
    """DG-CD-1: a day countdown ticks at the day's end: a fight of 6-second rounds that
    crosses midnight ticks DC(3) once, as waiting across midnight does."""
    journal = _keep("dg")
    journal.execute(CountdownAdd("fever", "day", "3"))
    offset = start_offset(journal.state.ruleset.time)
    to_midnight = 86400 - (offset + journal.state.now) % 86400 - 6 * 5
    journal.execute(Wait(to_midnight))
    assert journal.state.countdowns[0].left == 3
    _fight(journal, 10)
    assert journal.state.countdowns[0].left == 2


def test_an_old_journals_round_still_moves_the_clock_itself() -> None:
    """A round recorded before the scheduler ran in fights (no ``scheduled``) folds as it
    did: it moves the clock by its seconds; a new one leaves that to the wait after it, and
    keeps the JSON of old journals unchanged (``scheduled`` left out when false)."""
    state = _keep("pg").state
    old = RoundBegan(round=1, seconds=60)
    assert old.apply(state).now == state.now + 60
    assert "scheduled" not in old.model_dump_json()
    new = old.model_copy(update={"scheduled": True})
    assert new.apply(state).now == state.now
    assert new.describe() == "round 1"
