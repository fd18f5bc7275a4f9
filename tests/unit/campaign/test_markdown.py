"""The Markdown session log: day by day, turn by turn, rolls shown, secrets kept."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import (
    CountdownAdd,
    Journal,
    Light,
    Note,
    Undo,
    UseSupply,
    Visibility,
    Wait,
    render_markdown,
)
from turnkeeper.dice import TypedDice

MakeJournal = Callable[..., Journal]


def session(make_journal: MakeJournal) -> Journal:
    journal = make_journal("ex")
    journal.execute(Light("torch"))
    journal.execute(UseSupply("arrows"), TypedDice([2]))
    journal.execute(Note("the idol is cursed", Visibility.REFEREE))
    journal.execute(CountdownAdd("ogre wakes", "SC", "1d6", visibility=Visibility.REFEREE))
    journal.execute(Wait(16 * 3600 + 1200))
    journal.execute(Note("we camp"))
    journal.execute(Undo())
    return journal


def test_log_has_days_turns_times_and_rolls(make_journal: MakeJournal) -> None:
    log = render_markdown(session(make_journal).records)
    assert log.startswith("# test\n")
    assert "## Day 1 (1-01-01)" in log and "## Day 2 (1-01-02)" in log
    assert "### Turn of 08:00" in log and "### Turn of 08:10" in log
    assert "- 08:00 torch lit (30 ft, 3 turns); 1 from torches" in log
    assert "rolled d10 (2) = 2 (typed in)" in log
    assert "- 08:00 the torch goes out (put out: days pass out of a site): darkness" in log
    assert "[referee] the idol is cursed" in log
    assert "~~we camp~~ (undone)" in log
    assert log.index("Day 1") < log.index("Day 2")


def test_player_log_omits_referee_only_events(make_journal: MakeJournal) -> None:
    records = session(make_journal).records
    log = render_markdown([r.to_record() for r in records], player=True)
    assert "idol" not in log and "ogre" not in log and "[referee]" not in log
    assert "torch lit" in log


def test_player_log_tells_what_the_characters_perceive_and_forgets_the_undone(
    make_journal: MakeJournal,
) -> None:
    log = render_markdown(session(make_journal).records, player=True)
    assert "- 08:00 torch lit (30 ft); 1 from torches" in log
    assert "3 turns" not in log and "turns left" not in log
    assert "we camp" not in log and "undone" not in log
