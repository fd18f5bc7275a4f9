"""Loading ruleset files: ``extends``, deep merge, and one clear error for a broken file."""

from __future__ import annotations

import doctest
from fractions import Fraction
from pathlib import Path

import pytest

import turnkeeper.rules.loader as loader_module
from turnkeeper.errors import NotFoundError, RulesetError
from turnkeeper.rules import loader
from turnkeeper.rules.loader import find_ruleset, load_ruleset, preset


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_extends_a_preset_and_overrides_one_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "mine.toml",
        'extends = "tp"\n[ruleset]\nname = "mine"\ntitle = "Mine"\n'
        '[travel.terrain]\nhills = "1/2"\n',
    )
    rules = load_ruleset(path)
    assert rules.name == "mine"
    # the one key changed; its siblings in the same table are the parent's (deep merge)
    assert rules.travel.terrain["hills"] == Fraction(1, 2)
    assert rules.travel.terrain["mountains"] == Fraction(1, 4)
    assert rules.dice["encounter"] == preset("tp").dice["encounter"]
    # a table the child does not name keeps the parent's prefix
    assert rules.ruleset.prefix == "TP"


def test_lists_replace_rather_than_merge(tmp_path: Path) -> None:
    path = write(tmp_path, "short.toml", 'extends = "pg"\nusage_die = [6, 4]\n')
    assert load_ruleset(path).usage_die == [6, 4]


def test_extends_a_relative_file_chain(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "ex"\n[light.sources.torch]\nturns = 4\n')
    (tmp_path / "sub").mkdir()
    child = write(
        tmp_path / "sub", "child.toml", 'extends = "../base.toml"\n[rest]\nrest_turns = 2\n'
    )
    rules = load_ruleset(child)
    assert rules.light.sources["torch"].turns == 4
    assert rules.light.sources["torch"].radius_ft == 30  # EX-LIGHT-1, from the preset
    assert rules.rest.rest_turns == 2


def test_bad_fraction_names_file_key_path_and_expectation(tmp_path: Path) -> None:
    path = write(tmp_path, "steep.toml", 'extends = "tp"\n[travel.terrain]\nhills = "steep"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert "travel.terrain.hills" in message
    assert "expected a fraction such as 2/3, got 'steep'" in message


def test_unknown_key_lists_the_keys_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, "typo.toml", 'extends = "tp"\n[travel]\ntravel_point_per_day = 3\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert "travel.travel_point_per_day: unknown key" in message
    assert "travel_points_per_day" in message


def test_bad_type_names_expectation(tmp_path: Path) -> None:
    path = write(tmp_path, "t.toml", 'extends = "dg"\n[time]\nround_seconds = "six"\n')
    with pytest.raises(
        RulesetError, match=r"t\.toml: time\.round_seconds: expected a whole number, got 'six'"
    ):
        load_ruleset(path)


def test_bad_choice_lists_the_choices(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", 'extends = "ex"\n[surprise]\nmethod = "psychic"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert "surprise.method: expected 'movement', 'in_six' or 'opposed', got 'psychic'" in str(
        caught.value
    )


def test_bad_toml_names_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.toml", 'extends = "tp"\n[time\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert "not valid TOML" in message
    assert "line 2" in message and "column" in message


def test_unknown_preset_in_extends_lists_presets(tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'extends = "osr"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert "extends: no preset named 'osr'" in message
    assert "cb, dg, ex, pg, tp" in message


def test_missing_extends_file(tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'extends = "nowhere.toml"\n')
    with pytest.raises(RulesetError, match=r"x\.toml: extends: no ruleset file 'nowhere\.toml'"):
        load_ruleset(path)


def test_cycle_in_extends_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "a.toml")
    message = str(caught.value)
    assert "extends: goes round in a circle" in message
    assert "a.toml" in message and "b.toml" in message


def test_self_extension_is_a_cycle(tmp_path: Path) -> None:
    path = write(tmp_path, "me.toml", 'extends = "me.toml"\n')
    with pytest.raises(RulesetError, match="circle"):
        load_ruleset(path)


@pytest.mark.parametrize(
    ("toml", "key_path"),
    [
        ('[tables.reaction]\ndice = "2d6+"\n', "tables.reaction.dice"),
        ('[dungeon]\nencounter_distance = "2d4 feet"\n', "dungeon.encounter_distance"),
        ('[initiative]\ndie = "d"\n', "initiative.die"),
        ('treasure_multiplier = "1d3++"\n', "treasure_multiplier"),
        ('[saves]\nmonster_target = "19-hd"\n', "saves.monster_target"),
    ],
)
def test_bad_dice_expression_is_a_load_error(tmp_path: Path, toml: str, key_path: str) -> None:
    path = write(tmp_path, "dice.toml", 'extends = "pg"\n' + toml)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"{key_path}: expected a dice expression" in message


def test_error_in_inherited_value_names_the_file_that_set_it(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "tp"\n[travel.roads]\nroad = "fast"\n')
    child = write(tmp_path, "child.toml", 'extends = "base.toml"\n[time]\nturn_minutes = 20\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(child)
    assert str(caught.value).startswith(f"{tmp_path / 'base.toml'}: travel.roads.road:")


def test_missing_ruleset_section(tmp_path: Path) -> None:
    path = write(tmp_path, "bare.toml", "[time]\nturn_minutes = 10\n")
    with pytest.raises(RulesetError, match=r"bare\.toml: ruleset: missing"):
        load_ruleset(path)


def test_overloaded_dungeon_needs_its_die(tmp_path: Path) -> None:
    path = write(tmp_path, "d.toml", 'extends = "ex"\n[dungeon]\nprocedure = "overloaded"\n')
    with pytest.raises(
        RulesetError,
        match=r"d\.toml: dungeon\.die: no overloaded die 'dungeon' in \[dice\]; "
        r"expected one of the dice there \(none\), or add \[dice\.dungeon\]",
    ):
        load_ruleset(path)


def test_only_one_error_even_when_many(tmp_path: Path) -> None:
    path = write(
        tmp_path, "m.toml", 'extends = "tp"\n[time]\nround_seconds = "a"\nturn_minutes = "b"\n'
    )
    with pytest.raises(RulesetError, match=r"\(and 1 more\)"):
        load_ruleset(path)


def test_find_ruleset_by_name_or_path(tmp_path: Path) -> None:
    assert find_ruleset("pg") is preset("pg")
    path = write(tmp_path, "mine.toml", 'extends = "cb"\n')
    assert find_ruleset(str(path)).ruleset.prefix == "CB"
    with pytest.raises(NotFoundError, match="presets: cb, dg, ex, pg, tp"):
        find_ruleset("nope")
    with pytest.raises(NotFoundError, match="presets: cb"):
        preset("nope")


def test_doctests() -> None:
    assert doctest.testmod(loader_module).failed == 0
    assert loader is loader_module


def test_docs_extends_example_loads(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[3] / "docs" / "rulesets.md").read_text(encoding="utf-8")
    blocks = [block.split("```", 1)[0] for block in doc.split("```toml\n")[1:]]
    example = next(block for block in blocks if block.startswith('extends = "tp"'))
    rules = load_ruleset(write(tmp_path, "slow-hills.toml", example))
    assert rules.name == "slow-hills"
    assert rules.travel.terrain["hills"] == Fraction(1, 2)
    assert rules.light.sources["torch"].radius_ft == 20
    # every snippet of a section parses as TOML over tp, so the docs show valid keys
    for block in blocks[1:]:
        load_ruleset(write(tmp_path, "snippet.toml", 'extends = "tp"\n' + block))


_HEAD = 'extends = "tp"\n[ruleset]\nname = "mine"\ntitle = "Mine"\n'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[tables.reaction]\ndice = "2d6"\nrows = [{high = 5, result = "a"}, '
            '{low = 5, result = "b"}]\n',
            "tables.reaction: rows overlap at 5",
        ),
        (
            "[dice.wilderness]\nsides = 8\n",
            "dice.wilderness: faces must be exactly 1..8; got [1, 2, 3, 4, 5, 6]",
        ),
        (
            '[dice.wilderness.milieus.swamp]\n7 = { event = "encounter", label = "x" }\n',
            "dice.wilderness: milieu 'swamp' swaps faces [7] not on the die",
        ),
    ],
)
def test_a_broken_table_in_a_child_names_the_child_not_the_preset(
    tmp_path: Path, body: str, message: str
) -> None:
    # rule: PG-REA-1, TP-WENC-3 (the tables a designer overrides). The preset that first made
    # the table was blamed, sending the designer to a file they never wrote.
    path = write(tmp_path, "mine.toml", _HEAD + body)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert str(caught.value) == f"{path}: {message}"


def test_a_band_running_backwards_is_an_error(tmp_path: Path) -> None:
    # rule: PG-REA-1: {low = 9, high = 3} loaded as a row no total could ever reach
    path = write(
        tmp_path,
        "mine.toml",
        _HEAD + '[tables.reaction]\nrows = [{low = 9, high = 3, result = "a"}]\n',
    )
    with pytest.raises(RulesetError, match="row 'a' runs from 9 down to 3"):
        load_ruleset(path)


def test_a_file_that_is_not_text_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RulesetError, match=r"mine\.toml: not a text file"):
        load_ruleset(path)


def test_dg_rnd_1_a_default_round_outside_its_range_is_refused(tmp_path: Path) -> None:
    """DG-RND-1: an exploration round lasts 2 minutes to 8 hours, so a ruleset whose default
    exploration round is 9 hours is refused, naming the keys of the range; widening the
    range lets it load."""
    path = write(tmp_path, "r.toml", 'extends = "dg"\n[time]\nexploration_round_minutes = 540\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert "time.exploration_round_minutes" in message
    assert "outside its range of 2 to 480 min" in message
    wide = 'extends = "dg"\n[time]\nexploration_round_minutes = 540\n'
    wide += "exploration_round_longest_minutes = 600\n"
    loaded = load_ruleset(write(tmp_path, "w.toml", wide))
    assert loaded.time.exploration_round_longest_minutes == 600
