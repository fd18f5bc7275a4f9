"""The documented party file: examples/party.toml parses; broken files name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from turnkeeper.campaign import Journal, PartyFileError, load_party, parse_party
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.combat import attack_bonus, hits, party_combatants
from turnkeeper.rules.loader import preset

ROOT = Path(__file__).resolve().parents[3]


def test_the_example_party_file_parses() -> None:
    party = load_party(ROOT / "examples" / "party.toml", preset("ex"))
    assert [c.name for c in party.characters] == ["Aldo", "Bea"] and party.leader == "Aldo"
    aldo = party.characters[0]
    assert (aldo.level, aldo.hp, aldo.max_hp, aldo.character_class, aldo.stats["STR"]) == (
        2, 12, 14, "fighter", 2,
    )  # fmt: skip
    assert party.supplies.count("torches") == 6 and party.supplies.dice == {"arrows": 10}


def test_the_docs_example_parses() -> None:
    text = (ROOT / "docs" / "party.md").read_text()
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    assert parse_party(block).characters[0].max_hp == 14


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[characters]]\nname = 'A'\n", r"party.toml: characters\[0\].hp: Field required"),
        (
            "[[characters]]\nname = 'A'\nhp = 3\nlvl = 2\n",
            r"characters\[0\].lvl: unknown key .lvl.; did you mean .level.\?",
        ),
        (  # issue 42: a key spelt out is named, not the short key it left missing
            "[[characters]]\nname = 'A'\nhitpoints = 5\n",
            r"characters\[0\].hitpoints: unknown key .hitpoints.; did you mean .hp.\?",
        ),
        ("[[characters]]\nname = 'A'\nhp = 3\n[supplies]\narrows = 'd7'\n", "supplies.arrows"),
        (
            "[[characters]]\nname = 'A'\nhp = 3\n[supplies]\noil = -1\n",
            "party.toml: supplies.oil: expected a count",
        ),
        ("leader = 'Z'\n[[characters]]\nname = 'A'\nhp = 3\n", "leader 'Z' is not one of"),
        ("characters = []\n", "characters: Tuple should have at least 1"),
        ("[[characters]\n", "not valid TOML"),
        (
            "[[characters]]\nname = 'A'\nhp = 3\nstats = { LUCK = 1 }\n",
            "'LUCK' is not a stat of ex",
        ),
    ],
)
def test_a_broken_party_file_is_one_error_naming_file_and_key(text: str, message: str) -> None:
    with pytest.raises(PartyFileError, match=message):
        parse_party(text, "party.toml", preset("ex"))


def test_a_missing_party_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PartyFileError, match="cannot read the party file"):
        load_party(tmp_path / "nope.toml")


def test_pg_atk_2_a_character_carries_a_hit_bonus_into_the_fight() -> None:
    """PG-ATK-2: "adds any bonuses (HB if available, STR for melee...)": the party file's
    ``attack_bonus`` (refused before) reaches the fight, so under pg a fighter with HB 1 and
    STR 2 who rolls 11 totals 14 against AC 14: equal to or higher, a hit."""
    text = '[[characters]]\nname = "Aldo"\nhp = 8\nattack_bonus = 1\nstats = { STR = 2 }\n'
    party = parse_party(text)
    assert party.characters[0].attack_bonus == 1
    pg = preset("pg")
    aldo = party_combatants(Journal.start("hb", pg, party, seed=1).state)[0]
    bonus = attack_bonus(aldo, pg, ranged=False, second_wind=False)
    assert (aldo.attack_bonus, bonus) == (1, 3)
    assert hits(TypedDice([11]).die(20) + bonus, 14, pg)


def test_pg_mov_2_a_character_carries_at_most_3000_coins() -> None:
    """PG-MOV-2, "a character can carry at most 3000 coins": a party file giving one 3,001
    is refused, one error naming the file, the key and the limit; 3,000 is carried."""
    text = '[[characters]]\nname = "Aldo"\nhp = 8\ncoins = {}\n'
    assert parse_party(text.format(3000), "party.toml", preset("pg")).characters[0].coins == 3000
    with pytest.raises(PartyFileError) as refused:
        parse_party(text.format(3001), "party.toml", preset("pg"))
    assert str(refused.value) == (
        "party.toml: characters[0].coins: 3001 coins, more than the 3000 a character can "
        "carry (PG-MOV-2, the ruleset's actions.max_coins); see docs/party.md"
    )


def test_pg_mov_2_the_limit_is_the_rulesets_number() -> None:
    """PG-MOV-2: a ruleset that lets a character carry 500 coins refuses 501."""
    rules = preset("pg")
    rules = rules.model_copy(
        update={"actions": rules.actions.model_copy(update={"max_coins": 500})}
    )
    text = '[[characters]]\nname = "Aldo"\nhp = 8\ncoins = 501\n'
    with pytest.raises(
        PartyFileError, match=r"characters\[0\]\.coins: 501 coins, more than the 500"
    ):
        parse_party(text, "party.toml", rules)
    with pytest.raises(PartyFileError, match="more than the 3000"):  # no ruleset: the text's
        parse_party(text.replace("501", "3001"), "party.toml")
