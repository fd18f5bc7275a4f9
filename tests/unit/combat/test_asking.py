"""A roll the referee asks of a character's player (issue 40 item 2): `combat ask` records
it for the party to see, `combat rolled` runs the save or check on the player's faces,
recorded as typed in and as the player's (TP-ROLL-1, PG-SAVE-1, TP-OPP-1)."""

from __future__ import annotations

import pytest

from turnkeeper.campaign import Journal, parse_party
from turnkeeper.errors import IllegalCommandError, NotFoundError, TurnkeeperError
from turnkeeper.kernel.combat_state import AskedKind
from turnkeeper.procedures.combat import AnswerRoll, AskRoll, BeginRound, RollAsked, Save
from turnkeeper.procedures.combat.campaign import StartFight
from turnkeeper.procedures.combat.outcomes import CheckRolled, SaveRolled
from turnkeeper.procedures.combat.roster import parse_monster
from turnkeeper.rules.loader import preset
from turnkeeper.views.journal import player_record
from turnkeeper.views.party import player_state

PARTY = """
[[characters]]
name = "Aldo"
hp = 8
stats = { STR = 1 }
[[characters]]
name = "Bea"
hp = 6
"""


@pytest.fixture
def fight() -> Journal:
    """pg: Aldo and Bea against a goblin, round 1."""
    journal = Journal.start("Keep", preset("pg"), parse_party(PARTY), seed=3)
    foes = tuple(parse_monster("Goblin:hd=1,hp=4,ac=12"))
    journal.execute(StartFight(foes, surprised=frozenset()))
    journal.execute(BeginRound())
    return journal


def _asked(journal: Journal) -> list[str]:
    assert journal.state.combat is not None
    return [f"{a.name}: {a}" for a in journal.state.combat.asked]


def test_tp_roll_1_a_save_asked_comes_back_as_the_players_own_roll(fight: Journal) -> None:
    """PG-SAVE-1: the player's d20 is the save, marked as theirs and as typed in."""
    (asked,) = fight.execute(AskRoll("bea", AskedKind.SAVE))  # the name as typed
    assert isinstance(asked.event, RollAsked) and asked.event.name == "Bea"
    assert asked.event.describe() == "Bea's player is asked to roll a save"
    assert _asked(fight) == ["Bea: a save"]
    view = player_state(fight.state).combat
    assert view is not None and [(a.name, a.roll) for a in view.asked] == [("Bea", "save")]
    (saved,) = fight.execute(AnswerRoll("Bea", (14,)))
    event = saved.event
    assert isinstance(event, SaveRolled) and event.by_player and event.total == 14
    assert event.rolls[0].typed_in
    assert event.describe().endswith("14, fails (rolled by Bea's player)")  # 19 - level 1
    assert player_record(saved, fight.state)["text"] == "Bea fails a save (rolled by Bea's player)"
    assert _asked(fight) == []


def test_tp_roll_1_a_check_asked_keeps_its_defence_from_the_players(fight: Journal) -> None:
    """TP-ROLL-1 with TP-OPP-1: d20 + the stat against the defence, which is the referee's."""
    (asked,) = fight.execute(AskRoll("Aldo", AskedKind.CHECK, "str", 12))
    assert asked.event.describe() == "Aldo's player is asked to roll a STR check against 12"
    said = player_record(asked, fight.state)["text"]
    assert said == "Aldo's player is asked to roll a STR check" and "12" not in said
    assert "12" not in player_state(fight.state).model_dump_json().split('"asked"')[1][:80]
    (checked,) = fight.execute(AnswerRoll("Aldo", (12,)))
    event = checked.event
    assert isinstance(event, CheckRolled) and event.by_player
    assert (event.total, event.success) == (13, True)  # 12 + STR 1 is above 12
    assert "rolled by Aldo's player" in event.describe()


def test_the_referees_own_roll_answers_the_ask(fight: Journal) -> None:
    fight.execute(AskRoll("Bea", AskedKind.SAVE))
    (saved,) = fight.execute(Save("Bea"))
    assert isinstance(saved.event, SaveRolled) and not saved.event.by_player
    assert _asked(fight) == []
    fight.execute(AskRoll("Bea", AskedKind.SAVE))  # asked again: a new ask, called anew
    assert fight.state.combat is not None and fight.state.combat.asked[0].number == 2


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (AskRoll("Cleo", AskedKind.SAVE), "no combatant named 'Cleo'"),
        (AskRoll("Goblin", AskedKind.SAVE), "Goblin is not a player's character"),
        (AskRoll("Aldo", AskedKind.CHECK, "STR"), "a check needs the defence to beat"),
        (AskRoll("Aldo", AskedKind.CHECK, "LUCK", 12), "a check names one of pg's stats"),
        (AskRoll("Aldo", AskedKind.SAVE, "STR"), "a save needs no stat"),
        (AskRoll("Bea", AskedKind.SAVE), "already asked for a save and has not rolled it"),
        (AnswerRoll("Aldo", (12,)), "no roll is asked of Aldo's player"),
        (AnswerRoll("Bea", (25,)), "a save is d20: typed-in die 1 shows 25"),
        (AnswerRoll("Bea", (12, 3)), "a save is d20, 2 dice given"),
        (AnswerRoll("Bea", ()), "a save is d20: give the faces Bea's player rolled"),
    ],
)
def test_refusals_say_what_is_wrong_and_change_nothing(
    fight: Journal, command: AskRoll | AnswerRoll, said: str
) -> None:
    fight.execute(AskRoll("Bea", AskedKind.SAVE))
    version = fight.version
    with pytest.raises(TurnkeeperError) as refused:
        fight.execute(command)
    assert said in str(refused.value)
    assert isinstance(refused.value, IllegalCommandError | NotFoundError)
    assert fight.version == version and _asked(fight) == ["Bea: a save"]


def test_a_roll_not_asked_of_a_player_records_as_before(fight: Journal) -> None:
    """A save the referee rolls records no mark of a player: journals stay as they were."""
    (saved,) = fight.execute(Save("Aldo"))
    assert "by_player" not in saved.event.model_dump()
    assert "player" not in saved.event.describe()


def test_no_roll_is_asked_outside_a_fight() -> None:
    journal = Journal.start("Keep", preset("pg"), parse_party(PARTY), seed=3)
    with pytest.raises(IllegalCommandError, match="no fight is running"):
        journal.execute(AskRoll("Bea", AskedKind.SAVE))
