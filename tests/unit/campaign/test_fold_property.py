"""Property: over random command sequences, the live state is the fold of the records.

The records go through ``to_record``/JSON/``EVENTS.record`` before folding, and the same
seed with the same commands gives the same records (design: reproducible journals).
"""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnkeeper.campaign import (
    AddSupply,
    Command,
    CountdownAdd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
    Damage,
    ForcedRest,
    Heal,
    Journal,
    Light,
    MarkFight,
    NightRest,
    Redo,
    Rest,
    SetLight,
    Undo,
    UseSupply,
    Wait,
    WaningResources,
    fold,
    parse_party,
)
from turnkeeper.campaign.journal import replay
from turnkeeper.errors import IllegalCommandError
from turnkeeper.rules.loader import preset

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nlevel = 2\nhp = 9\nstats = { STR = 2 }\n'
    '[[characters]]\nname = "Bea"\nhp = 4\n'
    '[supplies]\nrations = 3\nwater = 2\ntorches = 2\noil = 1\narrows = "d6"\n'
)

commands: st.SearchStrategy[Command] = st.one_of(
    st.builds(Wait, st.sampled_from([6, 60, 600, 1800, 3 * 3600, 86400])),
    st.builds(Light, st.sampled_from(["torch", "lamp", "candle"])),
    st.builds(SetLight, st.integers(0, 4)),
    st.just(Rest()),
    st.just(ForcedRest()),
    st.just(WaningResources()),
    st.just(MarkFight()),
    st.builds(NightRest, st.sampled_from([2, 8]), st.booleans()),
    st.builds(UseSupply, st.sampled_from(["arrows", "rations", "torches"]), st.integers(1, 2)),
    st.builds(AddSupply, st.sampled_from(["rations", "torches"]), st.integers(0, 3)),
    st.builds(Damage, st.sampled_from(["Aldo", "Bea"]), st.integers(1, 5)),
    st.builds(Heal, st.sampled_from(["Aldo", "Bea"]), st.integers(1, 5)),
    st.builds(
        CountdownAdd,
        st.sampled_from(["a", "b"]),
        st.sampled_from(["RC", "SC", "DC", "GC"]),
        st.sampled_from(["2", "1d4", "STR"]),
        st.sampled_from([None, "2"]),
        subject=st.just("Aldo"),
        listens=st.just(("wound",)),
        after_end=st.sampled_from(["end", "wound"]),
    ),
    st.builds(CountdownTick, st.sampled_from(["a", "b"])),
    st.builds(
        CountdownOutcome, st.sampled_from(["a", "b"]), st.sampled_from(["-2", "-1", "0", "+1"])
    ),
    st.builds(CountdownTrigger, st.just("wound")),
    st.just(Undo()),
    st.just(Redo()),
)


def play(ruleset: str, seed: int, sequence: list[Command]) -> Journal:
    journal = Journal.start("prop", preset(ruleset), PARTY, seed)
    for command in sequence:
        before = journal.state
        try:
            journal.execute(command)
        except IllegalCommandError:
            assert journal.state == before  # an illegal command changes nothing
    return journal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["ex", "tp", "pg", "dg"]),
    st.integers(0, 2**32),
    st.lists(commands, max_size=14),
)
def test_live_state_is_the_fold_of_the_round_tripped_records(
    ruleset: str, seed: int, sequence: list[Command]
) -> None:
    journal = play(ruleset, seed, sequence)
    stored = json.loads(json.dumps([r.to_record() for r in journal.records]))
    assert fold(stored) == journal.state
    assert Journal(stored).state == journal.state
    assert replay(journal.records).state == journal.state  # an import's record-by-record fold
    again = play(ruleset, seed, sequence)
    assert [r.to_record() for r in again.records] == [r.to_record() for r in journal.records]
    assert [r.seq for r in journal.records] == list(range(1, len(journal.records) + 1))
    for earlier, later in pairwise(journal.records):  # time runs back only at an undo
        assert later.at >= earlier.at or later.event.kind == "command.undone"
