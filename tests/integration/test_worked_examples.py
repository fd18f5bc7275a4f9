"""The texts' own worked examples, played through the CLI with the texts' numbers (issue 15).

One test per example outside combat and dice notation, read the way a referee at the table
reads the text: the rule's ID in the test's name, the text's words in its docstring, the
text's numbers in its asserts. Dice are typed in (``--dice``) wherever the example needs a
particular face; each docstring says which die is which.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.errors import IllegalCommandError
from turnkeeper.world.hexes import Hex

from .conftest import kinds, new_campaign, records

if TYPE_CHECKING:
    from tests.integration.conftest import Tk

runner = CliRunner()
SITE = str(Path(__file__).resolve().parents[2] / "examples" / "site.toml")

PARTY = """
leader = "Ana"
[[characters]]
name = "Ana"
hp = 6
stats = { DEX = 1, WIS = 0, CHA = 1 }
[[characters]]
name = "Bo"
hp = 8
stats = { WIS = 1 }
[supplies]
torches = 6
oil = 2
rations = 10
water = 10
"""


def campaign(tk: Tk, tmp: Path, ruleset: str, party: str = PARTY) -> str:
    """A new campaign under ``ruleset`` with ``party``; its store's path."""
    return new_campaign(tk, tmp, ruleset, party, seed=3)


def on_map(tk: Tk, tmp: Path, terrain: list[str], roads: list[str] | None = None) -> str:
    """A tp campaign on a one-column map of ``terrain`` (hex 0000 at the top), at 0000."""
    db = campaign(tk, tmp, "tp")
    rows = ", ".join(f'"{t}"' for t in terrain)
    text = f'name = "Column"\nwidth = 1\nheight = {len(terrain)}\nterrain = [{rows}]\n'
    if roads is not None:
        text += "roads = [" + ", ".join(f'"{r}"' for r in roads) + "]\n"
    path = tmp / "column.toml"
    path.write_text(text, encoding="utf-8")
    tk(db, "map", "load", str(path), "--at", "0000")
    return db


def paid_into(data: dict[str, Any]) -> dict[str, str]:
    """The TP a command paid toward each hex it moved into (a move may be paid in parts)."""
    paid: dict[str, Fraction] = {}
    for r in records(data, "wilderness.moved"):
        label = Hex(**r["data"]["to"]).label
        paid[label] = paid.get(label, Fraction(0)) + Fraction(r["data"]["paid"])
    return {label: str(tp) for label, tp in paid.items()}


def dice_at(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The wilderness die's moments and when they were rolled."""
    return [(r["data"]["moment"], r["date"]) for r in records(data, "wilderness.die")]


# --- Turn-based Play Procedures: wilderness movement --------------------------------------


def test_tp_wil_5_everyone_mounted_escorting_a_carriage_moves_one_hex_per_tp(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-WIL-5: "if the party has a mount for everyone, but they are escorting a carriage,
    each travel point will allow them to move for 1 * 2 * 1/2 = 1 movement point, or 1
    hex": over plains, 4 hexes for the day's 4 TP, one 4-hour watch each. Dice: getting
    lost 5, the exploring die after the first TP 5 and after the last 5."""
    db = on_map(tk, tmp_path, ["p"] * 6)
    data = tk(db, "travel", "0005", "--explore", "--party", "mounted,carriage", "--dice", "5,5,5")
    assert (data["at"], data["tp_spent"], data["date"]) == ("0004", "4", "1-01-02 00:00")
    moved = [(r["data"]["cost"], r["date"]) for r in records(data, "wilderness.moved")]
    assert moved == [
        ("1", "1-01-01 08:00"),
        ("1", "1-01-01 12:00"),
        ("1", "1-01-01 16:00"),
        ("1", "1-01-01 20:00"),
    ]


def test_tp_wil_6_three_points_one_day_then_three_and_two_the_next(tmp_path: Path, tk: Tk) -> None:
    """TP-WIL-6: "moving with 5 points of travel one day, then 3 the next is not allowed, but
    moving with 3 points one day, then moving with 3 and 2 points the next day is okay".
    With a carriage (x1/2) a hills hex (x2/3) costs 3 TP and a plains hex 2 TP. Day 1: the
    first hills hex for 3 TP, and the next begun with the 1 TP left, so the party stays in
    0001 (no 5 TP in a day); day 2: its 2 TP more finish that 3-point move, and 2 TP enter
    the plains: 4 TP, the day's own. Dice: lost 5, first 5, last 5; camp 5; day 2 first 5,
    lost 5, last 5."""
    db = on_map(tk, tmp_path, ["p", "h", "h", "p", "p"])
    day1 = tk(db, "travel", "0003", "--explore", "--party", "carriage", "--dice", "5,5,5")
    assert paid_into(day1) == {"0001": "3", "0002": "1"}
    assert (day1["at"], day1["pending"], day1["tp_spent"]) == ("0001", "0002", "4")
    # TP-WENC-2: the die after the first TP falls at 12:00, a third of the way into 0001.
    assert dice_at(day1) == [("first", "1-01-01 12:00"), ("last", "1-01-02 00:00")]
    with pytest.raises(IllegalCommandError, match=r"no TP left today \(4 of 4 spent\)"):
        tk(db, "travel", "0003", "--explore")
    tk(db, "camp", "--dice", "5")
    day2 = tk(db, "travel", "0003", "--explore", "--dice", "5,5,5")
    assert paid_into(day2) == {"0002": "2", "0003": "2"}
    assert (day2["at"], day2["pending"], day2["tp_spent"]) == ("0003", None, "4")
    assert day2["date"] == "1-01-03 00:00"
    assert dice_at(day2) == [("first", "1-01-02 12:00"), ("last", "1-01-03 00:00")]


def test_tp_wil_8_a_hex_costing_twice_the_days_tp_is_impassable(tmp_path: Path, tk: Tk) -> None:
    """TP-WIL-8: "if moving into an hex would cost twice or more the maximum amount of travel
    point the party has, the hex is considered impassable". More than 50 people (x1/2 x1/2)
    in a marsh (x1/2): 8 TP, twice the 4 a day: refused, nothing spent. The same host in
    hills with a carriage but only 21 strong (x1/2 x1/2 x2/3): 6 TP, under 8, so the move is
    begun with the day's 4 TP and finished with the next day's first 2 (TP-WIL-6). Dice:
    lost 5, first 5, last 5; camp 5; day 2 first 5."""
    (tmp_path / "marsh").mkdir()
    (tmp_path / "hills").mkdir()
    db = on_map(tk, tmp_path / "marsh", ["p", "m", "p"])
    with pytest.raises(IllegalCommandError, match=r"hex 0001 is impassable \(8 TP; TP-WIL-8\)"):
        tk(db, "travel", "s", "--party", "over_20,over_50", "--dice", "5")
    assert tk(db, "status")["wilderness"]["tp_spent"] == "0"
    db = on_map(tk, tmp_path / "hills", ["p", "h", "p"])
    day1 = tk(db, "travel", "s", "--explore", "--party", "carriage,over_20", "--dice", "5,5,5")
    assert (day1["at"], day1["pending"], day1["tp_spent"]) == ("0000", "0001", "4")
    tk(db, "camp", "--dice", "5")
    day2 = tk(db, "travel", "s", "--explore", "--dice", "5")
    assert (day2["at"], day2["tp_spent"], day2["date"]) == ("0001", "2", "1-01-02 16:00")


# --- Turn-based Play Procedures: the wilderness die ---------------------------------------


def test_tp_wenc_1_and_2_the_die_after_the_first_and_last_tp_exploring_after_half_travelling(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-WENC-2: "while exploring, this die is rolled after the party has spent its first
    travel point, after the party has spent all its travel point, and during the night
    camp"; TP-WENC-1: "while traveling, ... after the party has spent half of its travel
    point, and during the night camp". Four plains hexes explored (12:00 and midnight),
    the camp, then the same four back to a known hex (the die once, at 16:00, after 2 TP),
    and the night camp again. Every die 5 (free turn) but getting lost's."""
    db = on_map(tk, tmp_path, ["p"] * 5)
    out = tk(db, "travel", "0004", "--explore", "--dice", "5,5,5")
    assert dice_at(out) == [("first", "1-01-01 12:00"), ("last", "1-01-02 00:00")]
    camp = tk(db, "camp", "--dice", "5")
    assert dice_at(camp) == [("camp", "1-01-02 00:00")] and camp["date"] == "1-01-02 08:00"
    back = tk(db, "travel", "0000", "--dice", "5,5")
    assert back["at"] == "0000" and dice_at(back) == [("half", "1-01-02 16:00")]
    assert dice_at(tk(db, "camp", "--dice", "5")) == [("camp", "1-01-03 00:00")]


def test_tp_wenc_2_the_die_after_the_first_tp_falls_in_mid_move_and_the_party_is_still_in_its_hex(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-WENC-2, "rolled after the party has spent its first travel point", with TP-WIL-6's
    "the party is always considered in an hex, until they finalize their movement": with a
    carriage a hills hex costs 3 TP, so the die falls at 12:00, after the first of them; on
    an encounter (1) the journey halts with the party still in 0000 and 1 TP of 3 paid, and
    the next `travel` pays the other 2 and enters 0001 at 20:00. Dice: lost 5, the die 1."""
    db = on_map(tk, tmp_path, ["p", "h", "p"])
    met = tk(db, "travel", "s", "--explore", "--party", "carriage", "--dice", "5,1")
    assert (met["at"], met["pending"], met["tp_spent"], met["date"]) == (
        "0000",
        "0001",
        "1",
        "1-01-01 12:00",
    )
    (encounter,) = records(met, "wilderness.encounter")
    assert encounter["data"]["hex"] == {"q": 0, "r": 0}
    on = tk(db, "travel", "s", "--explore")
    assert (on["at"], on["pending"], on["tp_spent"], on["date"]) == (
        "0001",
        None,
        "3",
        "1-01-01 20:00",
    )


def test_tp_wenc_3_desert_civilisation_and_the_night_camp_swap_faces(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-WENC-3: "if the party is traveling through a desert, the Free Turn may be swapped
    for Waning Resources"; "if the party is in mostly civilized lands (around a city or a
    fortress), the Free Turn can be a Good Encounter instead, even during the night";
    "instead of discovering a hidden site, there may be an encounter at the party camp".
    Dice: lost 5, the die after the first TP 5 in the desert (the party eats); the camp's
    5 near a city; the next night's 2."""
    db = on_map(tk, tmp_path, ["p"] * 3)
    desert = tk(db, "travel", "s", "--explore", "--milieu", "desert", "--dice", "5,5")
    (die,) = records(desert, "wilderness.die")
    assert (die["data"]["face"], die["data"]["event"]) == (5, "waning_resources")
    assert "supply.used" in kinds(desert)
    tk(db, "travel", "s", "--milieu", "civilisation")
    camp = tk(db, "camp", "--dice", "5")
    (die,) = records(camp, "wilderness.die")
    assert (die["data"]["event"], die["data"]["milieu"]) == (
        "good_encounter",
        "civilisation, night_camp",
    )
    tk(db, "travel", "n", "--milieu", "", "--dice", "5")
    camp = tk(db, "camp", "--dice", "2")
    (met,) = records(camp, "wilderness.encounter")
    assert met["data"]["at_camp"] is True and met["data"]["label"] == "Encounter at the camp"
    # issue 25: the label names the camp; the line does not say it twice
    assert met["text"] == "Encounter at the camp in hex 0001"


# --- Turn-based Play Procedures: discovery ------------------------------------------------

FEATURES = """
name = "Moor"
width = 1
height = 5
terrain = ["p", "p", "p", "p", "p"]
[[hexes]]
at = "0000"
features = [
  { id = "cairn", name = "Cairn", visibility = "hidden" },
  { id = "shrine", name = "Old Shrine", visibility = "hidden" },
  { id = "vault", name = "Sealed Vault", visibility = "secret" },
]
[[hexes]]
at = "0002"
features = [{ id = "tower", name = "Old Tower", landmark = true }]
[[hexes]]
at = "0004"
features = [{ id = "mill", name = "Mill", landmark = true }]
"""


def _moor(tk: Tk, tmp: Path) -> str:
    db = campaign(tk, tmp, "tp")
    path = tmp / "moor.toml"
    path.write_text(FEATURES, encoding="utf-8")
    tk(db, "map", "load", str(path), "--at", "0000")
    return db


def test_tp_disc_1_a_landmark_is_seen_from_two_hexes_away(tmp_path: Path, tk: Tk) -> None:
    """TP-DISC-1: landmarks "may be seen from 2 hexes afar": from 0000 the tower in 0002 is
    in sight and a travel destination at once (TP-WIL-10); the mill in 0004 is not, until
    the party stands at the tower. With a landmark in sight nobody gets lost (TP-LOST-1),
    so the only die is the travelling die after half the TP."""
    db = _moor(tk, tmp_path)
    seen = {(h["q"], h["r"]) for h in tk(db, "status")["wilderness"]["seen"]}
    assert (0, 2) in seen and (0, 4) not in seen
    with pytest.raises(IllegalCommandError, match="hex 0004 is not a known destination"):
        tk(db, "travel", "0004")
    assert tk(db, "travel", "tower", "--dice", "5")["at"] == "0002"  # the die after half
    seen = {(h["q"], h["r"]) for h in tk(db, "status")["wilderness"]["seen"]}
    assert (0, 4) in seen  # two hexes from the tower: the mill is in sight now
    assert tk(db, "travel", "mill")["at"] == "0004"


def test_tp_disc_1_high_mountains_between_hide_a_landmark(tmp_path: Path, tk: Tk) -> None:
    """TP-DISC-1: landmarks are seen from 2 hexes "barring any terrain feature blocking the
    view (High Mountains, Deep Forests or Canopies, etc.)": the tower two hexes away is out
    of sight behind a high mountain hex, and in sight behind plains."""
    for between, in_sight in (("H", False), ("F", False), ("p", True)):
        (tmp_path / between).mkdir()
        db = campaign(tk, tmp_path / between, "tp")
        path = tmp_path / between / "ridge.toml"
        text = f'''name = "Ridge"
width = 1
height = 3
terrain = ["p", "{between}", "p"]
[[hexes]]
at = "0002"
features = [{{ id = "tower", name = "Old Tower", landmark = true }}]
'''
        path.write_text(text, encoding="utf-8")
        tk(db, "map", "load", str(path), "--at", "0000")
        seen = {(h["q"], h["r"]) for h in tk(db, "status")["wilderness"]["seen"]}
        assert ((0, 2) in seen) is in_sight, between


def test_tp_disc_2_one_hidden_feature_for_1_tp_a_named_one_for_2(tmp_path: Path, tk: Tk) -> None:
    """TP-DISC-2: hidden features "can be discovered randomly one at a time if the party
    spends 1 travel point searching through the hex, or they can be found specifically if
    the party knows what they are looking for and spends 2 travel points". Dice: the
    search's pick 1 (the first of the two), the exploring die after the first TP 5."""
    db = _moor(tk, tmp_path)
    one = tk(db, "search", "--dice", "1,5")
    assert one["tp_spent"] == "1" and one["date"] == "1-01-01 12:00"
    (found,) = records(one, "wilderness.features_found")
    named = tk(db, "search", "--for", "Old Shrine")
    assert named["tp_spent"] == "3" and named["date"] == "1-01-01 20:00"
    assert "Old Shrine" in json.dumps(records(named, "wilderness.features_found"))
    assert found["data"] != records(named, "wilderness.features_found")[0]["data"]


def test_tp_disc_3_a_secret_takes_all_the_days_tp_from_its_start(tmp_path: Path, tk: Tk) -> None:
    """TP-DISC-3: secret features "can only be discovered if the party spends all of its
    travel points at once searching through the hex. This search can only be started at
    the beginning of a travel day": all 4 TP, 16 hours; refused once 1 TP is spent. Dice:
    the exploring die after the first TP 5 and after the last 5; the search's pick 1."""
    db = _moor(tk, tmp_path)
    day = tk(db, "search", "--all-day", "--dice", "5,5")
    assert (day["tp_spent"], day["date"]) == ("4", "1-01-02 00:00")
    assert dice_at(day) == [("first", "1-01-01 12:00"), ("last", "1-01-02 00:00")]
    assert "Sealed Vault" in json.dumps(records(day, "wilderness.features_found"))
    tk(db, "camp", "--dice", "5")
    tk(db, "travel", "s", "--dice", "5")
    with pytest.raises(IllegalCommandError, match="TP-DISC-3"):
        tk(db, "search", "--all-day")


def test_tp_disc_3_an_encounter_after_the_first_tp_breaks_the_days_search_off(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-DISC-3 with TP-WENC-2: the die is "rolled after the party has spent its first
    travel point", so in a whole day's search it falls at 12:00; an encounter there (1)
    breaks the search off: 1 TP spent, the secret not found ("only ... if the party spends
    all of its travel points at once searching")."""
    db = _moor(tk, tmp_path)
    day = tk(db, "search", "--all-day", "--dice", "1")
    assert (day["tp_spent"], day["date"]) == ("1", "1-01-01 12:00")
    assert "wilderness.encounter" in kinds(day)
    assert "wilderness.features_found" not in kinds(day)
    assert "the search is broken off with 3 TP of it unspent" in json.dumps(day)


# --- Exploration --------------------------------------------------------------------------


def _in_a_site(tk: Tk, tmp: Path, ruleset: str = "ex", area: str = "3") -> str:
    """A campaign whose party stands in the Sunken Abbey's Cells (off the lanes)."""
    db = campaign(tk, tmp, ruleset)
    tk(db, "site", "enter", SITE, "--area", area)
    return db


def test_ex_light_1_a_torch_lights_30_ft_for_three_turns_thirty_minutes(
    tmp_path: Path, tk: Tk
) -> None:
    """EX-LIGHT-1: "A pitch torch casts usable light up to thirty feet and lasts for three
    turns (thirty minutes)": lit at 08:00, it goes out at 08:30, after three turns."""
    db = _in_a_site(tk, tmp_path)
    lit = tk(db, "light", "torch")
    assert (records(lit, "light.lit")[0]["data"]["radius_ft"]) == 30
    dates = []
    for _ in range(3):
        turn = tk(db, "turn", "--mode", "cautious")
        dates += [r["date"] for r in records(turn, "light.out")]
    assert dates == ["1-01-01 08:30"]
    assert tk(db, "status")["supplies"]["counted"]["torches"] == 5


def test_ex_light_2_an_oil_lamp_lights_10_ft_for_six_turns_one_hour(tmp_path: Path, tk: Tk) -> None:
    """EX-LIGHT-2: "An oil lamp with a full flask of oil will burn for 6 turns (one hour),
    yet cast only ten feet of usable light": lit at 08:00, out at 09:00."""
    db = _in_a_site(tk, tmp_path)
    lit = tk(db, "light", "lamp")
    assert records(lit, "light.lit")[0]["data"] == {
        "source": "lamp",
        "supply": "oil",
        "radius_ft": 10,
        "turns": 6,
    }
    waited = tk(db, "wait", "1h")
    assert [r["date"] for r in records(waited, "light.out")] == ["1-01-01 09:00"]
    assert len(records(waited, "light.burned")) == 6


def test_ex_mov_1_and_2_cautious_120_ft_swift_thrice_that_360_ft(tmp_path: Path, tk: Tk) -> None:
    """EX-MOV-1: "Cautious movement is at a speed of hundred and twenty feet per turn";
    EX-MOV-2: "Swift movement is at thrice the speed, three hundred and sixty feet per
    turn". Each turn is ten minutes (EX-TIME-1); the swift party reads its map by
    torchlight in the Cells it stands in (EX-MOV-2, EX-MAP-1)."""
    db = _in_a_site(tk, tmp_path)
    tk(db, "light", "torch")
    cautious = tk(db, "turn", "--mode", "cautious")
    swift = tk(db, "turn", "--mode", "swift")
    feet = [records(t, "dungeon.turn")[0]["data"]["feet"] for t in (cautious, swift)]
    assert feet == [120, 360] and feet[1] == 3 * feet[0]
    assert (cautious["date"], swift["date"]) == ("1-01-01 08:10", "1-01-01 08:20")


def test_ex_mov_3_running_halts_at_a_door_and_needs_a_turn_of_rest_at_once(
    tmp_path: Path, tk: Tk
) -> None:
    """EX-MOV-3: running, "they may not consult their map ... They must halt for the
    remainder of the turn when a door must be opened ..., and then rest will be needed if
    they are not to be wearied"; EX-REST-2: "rest for a turn immediately after each turn of
    doing so". A running turn at a door halts there, with no map; the rest is due at once,
    and a second turn of running without it wearies the party."""
    db = _in_a_site(tk, tmp_path)
    tk(db, "light", "torch")
    ran = tk(db, "turn", "--mode", "running", "--door")
    taken = records(ran, "dungeon.turn")[0]["data"]
    assert (taken["halted_at_door"], taken["map_use"], taken["feet"]) == (True, False, None)
    assert records(ran, "rest.due")[0]["data"]["reason"] == "a turn of running"
    again = tk(db, "turn", "--mode", "running", "--skip-check")
    assert records(again, "rest.wearied")[0]["data"]["characters"] == ["Ana", "Bo"]
    tk(db, "rest")
    assert "wearied" not in json.dumps(tk(db, "party", "show"))


def test_ex_rest_1_one_turn_of_rest_every_hour(tmp_path: Path, tk: Tk) -> None:
    """EX-REST-1: "Adventurers must rest for one turn every hour or else they become
    wearied" ("1 turn in 6"): five turns of exploring make the rest due; a sixth active
    turn ends the hour without one and wearies them (-2 skill, -4 to hit, EX-REST-3);
    five turns, a rest, five turns do not."""
    db = _in_a_site(tk, tmp_path)
    for _ in range(5):
        turn = tk(db, "turn", "--mode", "cautious")
    assert turn["date"] == "1-01-01 08:50"
    assert records(turn, "rest.due")[0]["data"]["reason"] == "5 active turns"
    tk(db, "rest")
    for _ in range(5):
        turn = tk(db, "turn", "--mode", "cautious")
    assert "wearied" not in json.dumps(tk(db, "party", "show"))
    sixth = tk(db, "turn", "--mode", "cautious")
    assert sixth["date"] == "1-01-01 10:00"
    assert records(sixth, "rest.wearied")[0]["data"]["characters"] == ["Ana", "Bo"]


def test_ex_enc_1_and_2_a_1_on_d6_every_two_turns_met_at_2d4_times_10_ft(
    tmp_path: Path, tk: Tk
) -> None:
    """EX-ENC-1: "Random encounters are rolled every two turns ... The referee rolls a d6, and
    on a result of 1 then there is some encounter"; EX-ENC-2: "The encounter begins at a
    distance of 2d4 times 10 feet". In the Gatehouse: turn 1 rolls nothing; turn 2's check
    1 meets the rats (1 on the table, 2d4 (2, 3) of them) at 2d4 (3, 4) x 10 = 70 ft. The
    party moves cautiously, so no surprise roll (EX-SUR-1); then the reaction (5, 5)."""
    db = _in_a_site(tk, tmp_path, area="1")
    first = tk(db, "turn", "--mode", "cautious")
    assert "dungeon.check" not in kinds(first)
    turn = tk(db, "turn", "--mode", "cautious", "--no-hide", "--dice", "1,1,2,3,3,4,5,5")
    (check,) = records(turn, "dungeon.check")
    assert (check["data"]["chance"], check["data"]["sides"], check["data"]["encounter"]) == (
        1,
        6,
        True,
    )
    met = records(turn, "dungeon.encounter")[0]["data"]["encounter"]
    assert (met["creature"], met["number"], met["distance_ft"]) == ("giant rats", 5, 70)


def test_ex_sur_4_both_unaware_everyone_rolls_wis_scout_against_9(tmp_path: Path, tk: Tk) -> None:
    """EX-SUR-4: "It is conceivably possible that both groups might be surprised ... let both
    groups make WIS/Scout checks against a difficulty 9, and any who lose are surprised".
    The referee judges the party, moving swiftly by torchlight, and the rats unaware of each
    other: Ana 2d6 (4, 4) + 0 = 8 loses and is surprised, Bo 2d6 (4, 4) + 1 = 9 is not; the
    rats lurk in the dark and the party bears light, so they are never surprised by it
    (EX-LIGHT-3) and roll nothing. Dice: check 1, rats 1, 2d4 (2, 3), 2d4 (3, 4) x 10 ft,
    Ana, Bo, reaction (5, 5). Under pg, where surprise is 2 in 6 for each side, it is
    refused."""
    db = _in_a_site(tk, tmp_path, area="1")
    tk(db, "light", "torch")
    tk(db, "turn", "--mode", "swift")
    turn = tk(db, "turn", "--mode", "swift", "--both-unaware", "--dice", "1,1,2,3,3,4,4,4,4,4,5,5")
    met = records(turn, "dungeon.encounter")[0]
    breakdowns = [roll["breakdown"] for roll in met["rolls"]]
    assert breakdowns[3:5] == ["2d6 (4, 4) + NOTICE (0) = 8", "2d6 (4, 4) + NOTICE (1) = 9"]
    encounter = met["data"]["encounter"]
    assert encounter["surprised_members"] == ["Ana"] and encounter["party_surprised"] is False
    assert met["data"]["surprise_reason"].endswith("against 9; 0 of 5 foes lose")
    assert "Ana is surprised" in met["text"]
    (tmp_path / "pg").mkdir()
    db = _in_a_site(tk, tmp_path / "pg", "pg", area="1")
    with pytest.raises(IllegalCommandError, match="EX-SUR-4"):
        tk(db, "turn", "--both-unaware")


def test_ex_sur_1_a_cautious_party_both_unaware_is_still_not_surprised(
    tmp_path: Path, tk: Tk
) -> None:
    """EX-SUR-1: "Adventurers in cautious movement cannot be surprised unless the foes leap on
    them from ambush or otherwise have some great advantage in concealment": EX-SUR-4's
    "both groups might be surprised" does not lift that. Moving cautiously in the dark, Ana
    and Bo roll nothing and nobody of the party is surprised; the five rats roll WIS/Scout
    against 9: (6, 6) 12, (1, 1) 2, (4, 5) 9, (3, 3) 6, (6, 3) 9, and rats 2 and 4 lose.
    Dice: check 1, rats 1, 2d4 (2, 3), 2d4 (3, 4) x 10 ft, the five rats, reaction (5, 5) +
    CHA 1."""
    db = _in_a_site(tk, tmp_path, area="1")
    tk(db, "turn", "--mode", "cautious")
    dice = "1,1,2,3,3,4,6,6,1,1,4,5,3,3,6,3,5,5"
    turn = tk(db, "turn", "--mode", "cautious", "--both-unaware", "--dice", dice)
    met = records(turn, "dungeon.encounter")[0]
    assert [roll["total"] for roll in met["rolls"]][3:] == [12, 2, 9, 6, 9, 11]
    encounter = met["data"]["encounter"]
    assert encounter["surprised_members"] == [] and encounter["party_surprised"] is False
    reason = met["data"]["surprise_reason"]
    assert "a cautious party cannot be surprised (EX-SUR-1)" in reason
    assert reason.endswith("against 9; 2 of 5 foes lose")


@pytest.mark.parametrize("torch", [False, True])
def test_ex_light_3_a_party_bearing_light_never_surprises_foes_in_the_dark(
    torch: bool, tmp_path: Path, tk: Tk
) -> None:
    """EX-LIGHT-3: "Adventurers bearing light sources can never surprise foes lurking in the
    darkness". In the dark Gatehouse the party hears the rats coming and hides (EX-ENC-5).
    In the dark, its DEX/Stealth 2d6 (6, 6) + 1 = 13 beats the rats' WIS/Scout 2d6 (1, 1) =
    2 and they are surprised; with a torch lit there is no roll and no surprise. Dice: check
    1, rats 1, 2d4 (2, 3) of them, 2d4 (3, 4) x 10 ft, [the two checks], reaction (5, 5)."""
    db = _in_a_site(tk, tmp_path, area="1")
    if torch:
        tk(db, "light", "torch")
    tk(db, "turn", "--mode", "cautious")
    checks = "" if torch else "6,6,1,1,"
    turn = tk(db, "turn", "--mode", "cautious", "--dice", f"1,1,2,3,3,4,{checks}5,5")
    met = records(turn, "dungeon.encounter")[0]["data"]
    assert met["encounter"]["concealed"] is True
    assert met["encounter"]["foes_surprised"] is not torch
    assert ("EX-LIGHT-3" in met["surprise_reason"]) is torch


def test_ex_enc_4_running_raises_the_chance_to_3_in_6(tmp_path: Path, tk: Tk) -> None:
    """EX-ENC-4: "the referee may increase the odds to 2 in 6 or even 3 in 6 if the
    adventurers have made great tumult and trouble or if they have been running
    recklessly": turn 2 of the site, noisy, checks at 2 in 6; turn 4, running, at 3 in 6.
    Dice: each check 6 (nothing)."""
    db = _in_a_site(tk, tmp_path, area="1")
    tk(db, "turn", "--mode", "cautious")
    noisy = tk(db, "turn", "--mode", "cautious", "--noisy", "--dice", "6")
    tk(db, "rest")
    running = tk(db, "turn", "--mode", "running", "--dice", "6")
    chances = [records(t, "dungeon.check")[0]["data"]["chance"] for t in (noisy, running)]
    assert chances == [2, 3]


# --- Playing the Game ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (2, "hostile"),
        (3, "unfriendly"),
        (5, "unfriendly"),
        (6, "neutral"),
        (8, "neutral"),
        (9, "indifferent"),
        (11, "indifferent"),
        (12, "friendly"),
    ],
)
def test_pg_rea_1_the_reaction_table_at_each_edge(total: int, result: str) -> None:
    """PG-REA-1: 2d6 + the leading character's CHA: 0-2 hostile, 3-5 unfriendly, 6-8
    neutral, 9-11 indifferent, 12+ friendly. Seed 9 rolls 2d6 (3, 3) = 6; the CHA modifier
    moves the total onto each edge of the text's table."""
    shown = runner.invoke(app, ["table", "roll", "reaction", "--ruleset", "pg", "--seed", "9",
                                "--set", f"CHA={total - 6}", "--json"])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["roll"]["breakdown"] == f"2d6 (3, 3) + CHA ({total - 6}) = {total}"
    assert data["result"] == result


def test_pg_hp_1_unconscious_at_0_dead_at_minus_level(tmp_path: Path, tk: Tk) -> None:
    """PG-HP-1: "When these reach zero, the character is unconscious. They die at negative
    hit points equal to their level": Ana, level 3 with 6 hp, takes 6 (0 hp, unconscious),
    then 2 more (-2 hp, still unconscious), then 1 more (-3 hp, dead)."""
    db = campaign(tk, tmp_path, "pg", PARTY.replace('name = "Ana"\n', 'name = "Ana"\nlevel = 3\n'))
    statuses = []
    for amount in ("6", "2", "1"):
        data = tk(db, "damage", "Ana", amount)["records"][0]["data"]
        statuses.append((data["hp"], data["status"]))
    assert statuses == [(0, "unconscious"), (-2, "unconscious"), (-3, "dead")]


def test_pg_heal_1_a_meal_and_a_night_s_rest_give_back_1_hit_point(tmp_path: Path, tk: Tk) -> None:
    """PG-HEAL-1: "Characters recover 1 hit point per day if they eat a meal and have a night
    of uninterrupted rest": Ana (6 hp) takes 3; at 20:00 the party makes camp in the
    village (no map, no site): Ana and Bo eat a ration each and sleep till 08:00, and Ana
    is at 4; a second night, 5. Without rations nobody heals."""
    db = campaign(tk, tmp_path, "pg")
    tk(db, "damage", "Ana", "3")
    tk(db, "wait", "12h")
    night = tk(db, "camp")
    assert night["date"] == "1-01-02 08:00"
    healed = records(night, "hp.changed")
    assert [(r["data"]["target"], r["data"]["hp"]) for r in healed] == [("Ana", 4)]
    tk(db, "wait", "12h")
    assert records(tk(db, "camp"), "hp.changed")[0]["data"]["hp"] == 5
    assert tk(db, "status")["supplies"]["counted"]["rations"] == 6
    hungry = PARTY.replace("rations = 10", "rations = 0")
    (tmp_path / "hungry").mkdir()
    db = campaign(tk, tmp_path / "hungry", "pg", hungry)
    tk(db, "damage", "Ana", "3")
    tk(db, "wait", "12h")
    night = tk(db, "camp")
    assert "supply.shortfall" in kinds(night) and "hp.changed" not in kinds(night)


USAGE_PARTY = """
leader = "Ana"
[[characters]]
name = "Ana"
hp = 6
[supplies]
torches = "d6"
rations = "d4"
"""


def test_pg_use_1_a_usage_die_steps_down_on_1_or_2_and_a_d4_depletes(
    tmp_path: Path, tk: Tk
) -> None:
    """PG-USE-1: "When a resource is used, roll the associated usage die. On a 1 or 2 you move
    down to the next smallest die for the next roll. If you roll a 1 or 2 on the smallest die
    (d4) the resource is depleted": torches d6 roll 3 (stays d6), 2 (down to d4); rations d4
    roll 1: depleted, and a further use is refused."""
    db = campaign(tk, tmp_path, "pg", USAGE_PARTY)
    stays = tk(db, "supply", "use", "torches", "--dice", "3")["records"][0]["data"]
    down = tk(db, "supply", "use", "torches", "--dice", "2")["records"][0]["data"]
    gone = tk(db, "supply", "use", "rations", "--dice", "1")["records"][0]["data"]
    assert [(e["before"], e["after"]) for e in (stays, down, gone)] == [(6, 6), (6, 4), (4, None)]
    with pytest.raises(IllegalCommandError):
        tk(db, "supply", "use", "rations", "--dice", "3")


def test_pg_use_1_a_torch_is_lit_from_a_usage_die_supply(tmp_path: Path, tk: Tk) -> None:
    """PG-USE-1: torches are a usage-die resource ("arrows, torches or rations"), and lighting
    one is using it, so `light torch` from a party carrying `torches = "d6"` rolls the
    torches' die: d6 (2) steps down to d4; then d4 (1): the last torch is lit and the supply
    is depleted, so there is no third torch. The torch itself burns as the ruleset says
    (EX-LIGHT-1: 30 ft, 3 turns)."""
    db = campaign(tk, tmp_path, "ex", USAGE_PARTY)
    first = tk(db, "light", "torch", "--dice", "2")
    assert kinds(first) == ["light.lit", "supply.usage_rolled"]
    lit, rolled = first["records"]
    assert (lit["data"]["radius_ft"], lit["data"]["turns"], lit["data"]["usage_die"]) == (
        30,
        3,
        True,
    )
    assert (rolled["data"]["before"], rolled["data"]["after"]) == (6, 4)
    assert rolled["rolls"][0]["breakdown"] == "d6 (2) = 2"
    second = tk(db, "light", "torch", "--dice", "1")
    assert records(second, "supply.usage_rolled")[0]["data"]["after"] is None
    assert tk(db, "status")["light"]["source"] == "torch"
    with pytest.raises(IllegalCommandError, match="no torches left"):
        tk(db, "light", "torch")


def test_pg_time_1_a_turn_takes_ten_minutes(tmp_path: Path, tk: Tk) -> None:
    """PG-TIME-1: "A turn takes ten minutes"."""
    db = _in_a_site(tk, tmp_path, "pg")
    assert tk(db, "turn", "--skip-check")["date"] == "1-01-01 08:10"


# --- Dungeoneers --------------------------------------------------------------------------


def test_dg_cd_1_the_countdown_example_1d8_rolls_6_ticks_to_4_and_an_exploration_round_ends_it(
    tmp_path: Path, tk: Tk
) -> None:
    """DG-CD-1 to DG-CD-3 and DG-CD-5, the text's example: "Countdown: SC(1d8) ... we get a 6
    ... Whenever a combat round or social round completes, the countdown ticks ... first to
    5 and then to 4 to represent 2 rounds completing ... an exploration round occurs ... the
    countdown immediately completes when the exploration round finishes". Ticked by combat
    rounds, it is read as a rapid countdown (DG-CD-5): d8 typed in as 6, two combat rounds
    of a scene tick it to 5 and 4, and the first exploration round ends it with 4 left."""
    db = str(tmp_path / "dg.db")
    tk(db, "new", "Barrow", "--ruleset", "dg", "--solo", "--seed", "5")
    added = tk(db, "countdown", "add", "the example", "--type", "rapid", "--length", "1d8",
               "--dice", "6")  # fmt: skip
    assert added["records"][0]["rolls"][0]["breakdown"] == "1d8 (6) = 6"

    def a_round(kind: str) -> dict[str, Any]:
        tk(db, "scene", "spotlight", "--vote", "freya=freya")
        tk(db, "scene", "act", "freya", "acts")
        return tk(db, "scene", "gm", "the GM answers")

    tk(db, "scene", "open", "combat", "--players", "freya")
    left = [records(a_round("combat"), "countdown.ticked")[0]["data"]["left"] for _ in "12"]
    assert left == [5, 4]
    tk(db, "scene", "close")
    tk(db, "scene", "open", "exploration", "--players", "freya")
    ended = a_round("exploration")
    assert records(ended, "scene.round_ended")[0]["data"]["frame"] == "exploration_round"
    assert "countdown.ticked" not in kinds(ended)
    assert [r["data"]["name"] for r in records(ended, "countdown.ended")] == ["the example"]
    assert tk(db, "countdown", "list") == []


def test_dg_mom_1_freya_s_critical_keeps_the_spotlight_for_ulfarmi_or_alberich(
    tmp_path: Path, tk: Tk
) -> None:
    """DG-MOM-1, the text's example: "Freya, Ulfarmi and Alberich are on the side of the
    players. If Freya takes an action and rolls a critical, Ulfarmi or Alberich can take the
    spotlight and make an action. ... the round has not yet completed so while Ulfarmi or
    Alberich make their action, the trio will be unable to make a second free action"."""
    db = str(tmp_path / "dg.db")
    tk(db, "new", "Barrow", "--ruleset", "dg", "--solo", "--seed", "5")
    tk(db, "scene", "open", "combat", "--players", "freya,ulfarmi,alberich")
    tk(db, "scene", "spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=freya")
    tk(db, "scene", "free", "ulfarmi", "readies his axe")
    crit = tk(db, "scene", "act", "freya", "strikes", "--outcome", "critical")
    assert kinds(crit)[-1] == "scene.momentum_kept"
    tk(db, "scene", "spotlight", "--vote", "freya=ulfarmi", "--vote", "alberich=ulfarmi")
    acted = tk(db, "scene", "act", "ulfarmi", "cleaves")
    assert "scene.round_ended" not in kinds(acted)  # the round is not over
    with pytest.raises(IllegalCommandError, match="free action"):
        tk(db, "scene", "free", "ulfarmi", "shouts")


def test_dg_spot_2_three_tokens_each_all_regained_once_every_token_is_spent(
    tmp_path: Path, tk: Tk
) -> None:
    """DG-SPOT-2: "each player has 3 spotlight tokens ... Every time a player has the
    spotlight, they must use one ... Once all spotlight tokens are spent, each player
    regains their 3": one player alone spends 3, and the fourth spotlight finds 3 again."""
    db = str(tmp_path / "dg.db")
    tk(db, "new", "Barrow", "--ruleset", "dg", "--solo", "--seed", "5")
    opened = tk(db, "scene", "open", "exploration", "--players", "freya")
    assert opened["state"]["seats"] == [{"name": "freya", "tokens": 3}]
    tokens = []
    for _ in range(4):
        taken = tk(db, "scene", "spotlight", "--vote", "freya=freya")
        tokens.append(taken["state"]["seats"][0]["tokens"])
        tk(db, "scene", "act", "freya", "searches")
        tk(db, "scene", "gm", "the dark answers")
    assert tokens == [2, 1, 3, 2]  # the third spends the last: all 3 come back at once
