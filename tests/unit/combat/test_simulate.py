"""The fight simulation against exact odds worked by hand (a sample against a formula)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from turnkeeper.analysis.simulate import simulate_fight
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Side
from turnkeeper.procedures.combat.roster import RosterError, parse_monster, parse_roster
from turnkeeper.rules.loader import preset

DUEL = """
[[characters]]
name = "Ann"
hp = 1
ac = 10
damage = "1"
[[foes]]
name = "Rat"
hd = 0
hp = 1
ac = 10
damage = "1"
"""
RUNS = 20_000


def _close(observed: float, exact: Fraction, runs: int = RUNS) -> bool:
    p = float(exact)
    sigma = (p * (1 - p) / runs) ** 0.5
    return bool(abs(observed - p) <= 4.5 * sigma + 1e-9)


def _tp_round(fatigue: bool) -> dict[str, Fraction]:
    """One TP round of the duel, averaged over the six initiative faces (TP-INI-1)."""
    out = dict.fromkeys(("win", "lose", "both", "go on"), Fraction(0))
    for face in range(1, 7):
        if face == 2 and fatigue:  # fatigue: both are in melee and at 1 hp
            out["both"] += Fraction(1, 6)
            continue
        party = Fraction(11, 20) if face == 6 else Fraction(1, 2)  # second wind: +1
        foe = Fraction(1, 2)
        out["win"] += Fraction(1, 6) * party * (1 - foe)
        out["lose"] += Fraction(1, 6) * foe * (1 - party)
        out["both"] += Fraction(1, 6) * party * foe
        out["go on"] += Fraction(1, 6) * (1 - party) * (1 - foe)
    return out


def test_tp_duel_at_once_with_fatigue_and_second_wind_matches_the_exact_odds() -> None:
    # rule: TP-INI-1, TP-INI-2, TP-ATK-1: both act at once; d20 > 10 hits half the time,
    # 11 in 20 on a second wind; fatigue (face 2) fells both once they are in melee.
    first, later = _tp_round(fatigue=False), _tp_round(fatigue=True)

    def exact(outcome: str) -> Fraction:
        return first[outcome] + first["go on"] * later[outcome] / (1 - later["go on"])

    odds = simulate_fight(preset("tp"), parse_roster(DUEL), runs=RUNS, seed=3)
    assert _close(odds.both_down, exact("both"))
    assert _close(odds.party_wins, exact("win"))
    assert _close(odds.opposition_wins, exact("lose"))
    assert odds.unresolved == 0


def test_pg_duel_winning_side_first_ties_simultaneous() -> None:
    # rule: PG-INI-1, PG-CBT-1, PG-ATK-2: d20 >= 10 hits 11 times in 20; only a tied
    # initiative (1 in 6) lets both fall in the same round.
    p = Fraction(11, 20)
    odds = simulate_fight(
        preset("pg"), parse_roster(DUEL), runs=RUNS, seed=4, surprised=frozenset()
    )
    both = Fraction(1, 6) * p * p / (1 - (1 - p) ** 2)
    assert _close(odds.both_down, both)
    assert _close(odds.party_wins, (1 - both) / 2)
    # The mean number of rounds of a geometric fight: 1 / P(something happens).
    assert abs(odds.rounds_mean - 1 / float(1 - (1 - p) ** 2)) < 0.05


def _pg_duel() -> tuple[Fraction, Fraction, Fraction]:
    """The pg duel with nobody surprised: a hit's chance, the party's win, both down."""
    p = Fraction(11, 20)
    both = Fraction(1, 6) * p * p / (1 - (1 - p) ** 2)
    return p, (1 - both) / 2, both


def test_pg_sur_1_surprise_on_2_in_6_gives_a_free_round() -> None:
    """rule: PG-SUR-1 - each unaware side is surprised on 2 in 6; a side alone surprised
    gives the other a free round: the party alone surprised (2/9) may fall to the rat's
    free blow (11 in 20) before the duel; the rat alone surprised (2/9) may fall to Ann's."""
    p, win, both = _pg_duel()
    alone = Fraction(2, 6) * Fraction(4, 6)
    after_a_miss = Fraction(5, 9) + 2 * alone * (1 - p)
    odds = simulate_fight(preset("pg"), parse_roster(DUEL), runs=RUNS, seed=6)
    assert _close(odds.party_surprised, Fraction(1, 3))
    assert _close(odds.foes_surprised, Fraction(1, 3))
    assert _close(odds.party_wins, win * after_a_miss + alone * p)
    assert _close(odds.both_down, both * after_a_miss)
    aware = simulate_fight(
        preset("pg"), parse_roster(DUEL), runs=2000, seed=6, aware=frozenset(Side)
    )
    assert aware.party_surprised == aware.foes_surprised == 0


def test_cb_sur_2_a_surprised_undisciplined_group_checks_morale() -> None:
    """rule: CB-SUR-2 - surprised, an undisciplined group with morale 7 holds on 2d6 at or
    under 7 (21 in 36) and flees otherwise (15 in 36); the party wins when they flee."""
    fighters = parse_roster(DUEL + "morale = 7\ndisciplined = false\n")  # the rat's
    odds = simulate_fight(
        preset("cb"), fighters, runs=RUNS, seed=7, surprised=frozenset({Side.OPPOSITION})
    )
    assert _close(odds.foes_fled, Fraction(15, 36))
    assert odds.party_wins >= odds.foes_fled and odds.foes_surprised == 1


def test_missiles_at_range_before_melee() -> None:
    """rule: PG-ATK-2 - one round at range: only Ann shoots (d20 + DEX >= 10, 11 in 20), the
    rat without missiles closes in; then the melee duel as before."""
    p, win, both = _pg_duel()
    odds = simulate_fight(
        preset("pg"),
        parse_roster(DUEL),
        runs=RUNS,
        seed=8,
        surprised=frozenset(),
        range_rounds=1,
        shooters=("Ann",),
    )
    assert _close(odds.party_wins, p + (1 - p) * win)
    assert _close(odds.both_down, (1 - p) * both)
    with pytest.raises(IllegalCommandError, match="no combatant called 'Bob'"):
        simulate_fight(preset("pg"), parse_roster(DUEL), runs=10, shooters=("Bob",))


ARCHER = """
[[characters]]
name = "Ann"
class = "fighter"
hp = 50
ac = 10
damage = "1"
stats = { STR = 2 }
[[foes]]
name = "Rat"
hd = 0
hp = 3
ac = 10
damage = "1"
"""


def test_pg_atk_2_a_fighter_adds_str_to_missile_damage_as_the_engine_does() -> None:
    """rule: PG-ATK-2 - a fighter adds STR to damage, and the text does not limit it to
    melee (nor does the engine's ``damage``): Ann, a fighter with STR 2, shoots the 3 hp rat
    from range for 1 + 2 = 3, felling it on a hit (d20 + DEX 0 at or over AC 10, 11 in 20),
    so 11 in 20 fights end in the range round."""
    odds = simulate_fight(
        preset("pg"),
        parse_roster(ARCHER),
        runs=RUNS,
        seed=4,
        surprised=frozenset(),
        range_rounds=1,
        shooters=("Ann",),
    )
    assert _close(odds.rounds.get(1, 0) / RUNS, Fraction(11, 20))


def test_cb_ties_go_to_the_party() -> None:
    # rule: CB-INI-1: 1d8 + DEX each, ties to the party: nobody ever falls together.
    odds = simulate_fight(preset("cb"), parse_roster(DUEL), runs=5000, seed=5)
    assert odds.both_down == 0
    assert odds.party_wins > odds.opposition_wins


def test_simulation_is_reproducible_and_checks_its_input() -> None:
    fighters = parse_roster(DUEL)
    first = simulate_fight(preset("pg"), fighters, runs=500, seed=9)
    assert first == simulate_fight(preset("pg"), fighters, runs=500, seed=9)
    assert sum(first.rounds.values()) == 500
    with pytest.raises(IllegalCommandError, match="both sides"):
        simulate_fight(preset("pg"), fighters[:1], runs=10)


def test_roster_and_monster_lines() -> None:
    goblins = parse_monster("Goblin:hd=1,hp=4,ac=12,dex=1,count=3,damage=d4")
    assert [g.name for g in goblins] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert goblins[0].stats == {"DEX": 1} and goblins[0].damage == "d4"
    with pytest.raises(RosterError, match="key=value"):
        parse_monster("Goblin:hd")
    with pytest.raises(RosterError, match="unknown section 'monsters'"):
        parse_roster("[[monsters]]\nname='x'")
    with pytest.raises(RosterError, match=r"foes\[0\]: ac"):
        parse_roster("[[foes]]\nname='x'\nac='high'")
