"""The domain turn's table (TP-TIME-1's "Domain Turn: 1 month", the project's DEFAULT), month
by month with typed and seeded dice: the mood 2d6+MOOD first (up to 4 rebellious, 6 restless,
9 content, higher loyal), then the income 2d6x10 and the mood's share of it, then the upkeep
of 30 coins from the coffers; a rebellious month carries -1, a loyal one +1, an unpaid upkeep
-2 into the next mood roll."""

from __future__ import annotations

import textwrap
import tomllib

import pytest

from turnkeeper.campaign import Journal, Wait, parse_party
from turnkeeper.dice import TypedDice
from turnkeeper.errors import RulesetError
from turnkeeper.procedures.domains import DomainSettled, GrantDomain
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import parse_ruleset, preset
from turnkeeper.rules.schema import DomainRules, Ruleset
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

DAY = 24 * 3600
#: From 08:00 of day 1 to 01:00 of day 31 (ex): the wait crosses month 2's boundary only.
TO_MONTH_2 = 30 * DAY - 7 * 3600
VALE = MapFile(name="Vale", width=6, height=4, terrain=["pppppp"] * 4)


def granted(coffers: int = 20, rules: Ruleset | None = None) -> Journal:
    """A party on the Vale whose Aldo holds hex 0302, its coffers ``coffers``."""
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6\n[supplies]\nrations = 900')
    journal = Journal.start("Vale", rules or preset("ex"), party, seed=1)
    journal.execute(LoadMap(VALE, Hex.from_label("0101")))
    journal.execute(GrantDomain("Aldo", hex="0302", coffers=coffers))
    return journal


def with_domains(text: str) -> Ruleset:
    """The ex preset with ``text`` as its ``[domains]`` section."""
    data = preset("ex").model_dump(mode="json")
    return parse_ruleset({**data, "domains": tomllib.loads(textwrap.dedent(text))})


def months(journal: Journal, *faces: list[int]) -> list[DomainSettled]:
    """The settlements of as many months as ``faces`` lists, each month's dice typed in."""
    settled = []
    for month_faces in faces:
        records = journal.execute(Wait(30 * DAY if settled else TO_MONTH_2), TypedDice(month_faces))
        settled += [r.event for r in records if isinstance(r.event, DomainSettled)]
    return settled


def numbers(settled: list[DomainSettled]) -> list[tuple[str, int, int, int, int, int]]:
    return [(s.mood, s.rolled, s.income, s.paid, s.coffers, s.modifier) for s in settled]


def test_tp_time_1_a_domain_s_months_follow_the_table() -> None:
    journal = granted(coffers=20)
    settled = months(
        journal,
        [4, 3, 5, 2],  # 7 content: 70 in, 30 paid: 20 + 40 = 60
        [1, 2, 6, 6],  # 3 rebellious: none of 120 in, 30 paid: 30; -1 next month
        [3, 3, 3, 4],  # 6 - 1 = 5 restless: 35 of 70 in, 30 paid: 35
        [6, 5, 1, 1],  # 11 loyal: 20 in, 30 paid: 25; +1 next month
    )
    assert numbers(settled) == [
        ("content", 70, 70, 30, 60, 0),
        ("rebellious", 120, 0, 30, 30, -1),
        ("restless", 70, 35, 30, 35, 0),
        ("loyal", 20, 20, 30, 25, 1),
    ]
    assert [s.month for s in settled] == ["1-02", "1-03", "1-04", "1-05"]
    assert [r.breakdown for r in settled[2].rolls] == [
        "2d6 (3, 3) + MOOD (-1) = 5",
        "2d6 (3, 4) x 10 = 70",
    ]
    assert all(r.typed_in for s in settled for r in s.rolls)
    assert settled[1].trouble == "revolt"
    assert settled[1].describe() == (
        "Vale 0302 (Aldo's), the month of 1-03: the people are rebellious; income 0 of 120; "
        "upkeep 30 paid; coffers 30; trouble: revolt"
    )
    domain = journal.state.domains[0]
    assert (domain.coffers, domain.mood, domain.modifier) == (25, "loyal", 1)
    assert [e.coffers for e in domain.ledger] == [20, 60, 30, 35, 25]


def test_tp_time_1_an_unpaid_upkeep_empties_the_coffers_and_sours_the_next_mood() -> None:
    journal = granted(coffers=0)
    settled = months(
        journal,
        [1, 1, 6, 6],  # 2 rebellious: nothing in, 0 of 30 paid; -1 and unpaid -2 next month
        [6, 6, 1, 1],  # 12 - 3 = 9 content: 20 in, 20 of 30 paid; unpaid -2 next month
    )
    assert numbers(settled) == [
        ("rebellious", 120, 0, 0, 0, -3),
        ("content", 20, 20, 20, 0, -2),
    ]
    assert settled[1].rolls[0].breakdown == "2d6 (6, 6) + MOOD (-3) = 9"
    assert "upkeep 30: 20 paid, 10 short" in settled[1].describe()


def test_tp_time_1_a_year_of_seeded_months_keeps_its_books() -> None:
    """Seeded dice: twelve months, each settlement's numbers agree with its own rolls and
    the coffers with the ledger; the same seed gives the same year."""

    def year(seed: int) -> list[DomainSettled]:
        party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6\n[supplies]\nrations = 900')
        journal = Journal.start("Vale", preset("ex"), party, seed=seed)
        journal.execute(LoadMap(VALE, Hex.from_label("0101")))
        journal.execute(GrantDomain("Aldo", hex="0302", coffers=50))
        settled = []
        for _ in range(12):
            records = journal.execute(Wait(30 * DAY))
            settled += [r.event for r in records if isinstance(r.event, DomainSettled)]
        assert journal.state.domains[0].coffers == settled[-1].coffers
        return settled

    settled = year(3)
    assert len(settled) == 12
    rules = DomainRules()
    coffers, modifier = 50, 0
    for month in settled:
        mood, income = month.rolls
        assert f"MOOD ({modifier})" in mood.breakdown
        row = rules.row_for(mood.total)
        assert month.mood == row.mood
        assert month.rolled == income.total
        assert month.income == income.total * row.income // 100
        assert month.paid == min(30, coffers + month.income)
        coffers = coffers + month.income - month.paid
        assert month.coffers == coffers
        modifier = row.carry + (-2 if month.paid < 30 else 0)
        assert month.modifier == modifier
    assert numbers(year(3)) == numbers(settled)


def test_tp_time_1_a_ruleset_sets_the_domain_table() -> None:
    rules = with_domains(
        """
        income = "1d6x5"
        upkeep = 2
        mood = "1d6+MOOD"
        moods = [{ up_to = 3, mood = "sullen", income = 0 }, { mood = "glad", carry = 2 }]
        """
    )
    settled = months(granted(coffers=0, rules=rules), [2, 4], [6, 1])  # 6 - 2 = 4: glad
    assert numbers(settled) == [("sullen", 20, 0, 0, 0, -2), ("glad", 5, 5, 2, 3, 2)]


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ('income = "2d6xSTR"', "the income roll names no values"),
        ('mood = "2d6+CHA"', "names only MOOD"),
        ('moods = [{ mood = "a" }, { up_to = 3, mood = "b" }]', "no up_to"),
        ('moods = [{ up_to = 5, mood = "a" }, { up_to = 3, mood = "b" }, { mood = "c" }]', "go up"),
        ('moods = [{ up_to = 5, mood = "a" }, { mood = "a" }]', "a mood of its own"),
        ("upkeep = -1", "0 or more"),
    ],
)
def test_a_domain_table_that_cannot_be_is_the_ruleset_s_error(table: str, said: str) -> None:
    with pytest.raises(RulesetError, match=rf"domains\.[a-z]*: .*{said}"):
        with_domains(table)


def test_a_campaign_without_domains_runs_no_domain_turn() -> None:
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6\n[supplies]\nrations = 90')
    journal = Journal.start("Vale", preset("ex"), party, seed=1)
    records = journal.execute(Wait(TO_MONTH_2), TypedDice([]))
    assert not [r for r in records if r.event.kind.startswith("domain.")]
    assert "domains" not in journal.state.model_dump(mode="json")
    assert "domains" not in preset("ex").model_dump(mode="json")
