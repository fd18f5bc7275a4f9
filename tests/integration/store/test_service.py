"""The campaign service over a real store (SQLite, and PostgreSQL with TURNKEEPER_TEST_PG)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import CountdownAdd, Light, Note, Rest, Visibility, Wait, fold, parse_party
from turnkeeper.errors import ConflictError, DiceInputError, TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.service.campaigns import RERUNS
from turnkeeper.store.sql import SqlStore

if TYPE_CHECKING:
    from tests.conftest import Backend

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nhp = 7\n[supplies]\ntorches = 3\nrations = 4\nwater = 4'
)


@pytest.fixture
def store(backend: Backend) -> Iterator[SqlStore]:
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


def play(campaigns: Campaigns, name: str) -> None:
    campaigns.execute(name, Light("torch"))
    campaigns.execute(name, Wait(3 * 600))
    campaigns.execute(name, Rest())
    campaigns.execute(name, Wait(4 * 3600))


def test_same_seed_same_commands_same_journal(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    for name in ("A", "B"):
        campaigns.new(name, preset("ex"), PARTY, seed=99)
        play(campaigns, name)
    a, b = store.read("A"), store.read("B")
    assert len(a) > 5
    assert [r for r in a if r["kind"] != "campaign.started"] == [
        r for r in b if r["kind"] != "campaign.started"
    ]
    # a fresh service (another process) folds the same state from the store
    assert Campaigns(store).state("A") == campaigns.state("A")


class LaggingStore:
    """A store that hides appends made after the first read: a writer racing another."""

    def __init__(self, inner: SqlStore) -> None:
        self.inner = inner
        self.lag = True

    def read(self, campaign: str, since: int = 0) -> list[dict[str, object]]:
        return [] if self.lag and since else self.inner.read(campaign, since)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def _outrun(store: SqlStore) -> Campaigns:
    """A writer that loaded Keep at version 1 and reads no further (its store lags), after
    another writer moved Keep on to version 2."""
    first = Campaigns(store)
    first.new("Keep", preset("ex"), PARTY, seed=1)
    lagging = Campaigns(LaggingStore(store))  # type: ignore[arg-type]
    lagging.state("Keep")
    first.execute("Keep", Wait(600))
    return lagging


def test_a_stale_writer_that_named_its_version_gets_conflict_and_nothing_is_appended(
    store: SqlStore,
) -> None:
    second = _outrun(store)
    kept = store.read("Keep")
    with pytest.raises(ConflictError, match="Keep is at version 2, you expected 1"):
        second.run("Keep", lambda _: Wait(1200), expected_version=1)
    assert store.read("Keep") == kept


def test_a_stale_writer_that_named_no_version_runs_its_command_on_the_campaign_as_it_is(
    store: SqlStore,
) -> None:
    """Another server process appended first: the command, asked of the campaign as it is, is
    run again after a reload (the asker is not sent a 409 to send it again)."""
    second = _outrun(store)
    [record] = second.execute("Keep", Wait(1200))
    assert record.seq == 3  # after the other writer's, not in its place
    assert second.state("Keep").now == 1800 == Campaigns(store).state("Keep").now


def test_a_writer_losing_every_race_gets_conflict_after_its_reruns(store: SqlStore) -> None:
    first = Campaigns(store)
    first.new("Keep", preset("ex"), PARTY, seed=1)
    losing = Campaigns(store)
    losing.state("Keep")
    ran = 0

    def build(_: object) -> Wait:
        nonlocal ran
        ran += 1
        first.execute("Keep", Wait(60))  # another writer always gets there first
        return Wait(600)

    with pytest.raises(ConflictError):
        losing.run("Keep", build)
    assert ran == RERUNS + 1
    assert Campaigns(store).state("Keep").now == 60 * (RERUNS + 1)


def test_the_state_in_memory_is_current_only_while_the_store_holds_nothing_after_it(
    store: SqlStore,
) -> None:
    """A server's state read takes it without the campaign's lock (:meth:`current`): never
    once another writer has appended, nor before the campaign is read."""
    first, second = Campaigns(store), Campaigns(store)
    first.new("Keep", preset("ex"), PARTY, seed=1)
    assert second.current("Keep") is None  # not read yet
    state = second.state("Keep")
    assert second.current("Keep") is state
    first.execute("Keep", Wait(600))
    assert second.current("Keep") is None  # the other writer's command is not in memory
    assert second.state("Keep").now == 600
    assert second.current("Keep") is second.state("Keep")


def test_typed_dice_are_used_and_leftovers_refused(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("dg"), PARTY, seed=1)
    version = store.version("Keep")
    with pytest.raises(DiceInputError, match="left over"):
        campaigns.execute("Keep", Note("just a note"), typed_dice=[4])
    assert store.version("Keep") == version
    flood = CountdownAdd("Flood", "short", "d6")  # rule: DG-CD-3, a die sets the length
    with pytest.raises(DiceInputError, match="not enough typed-in dice"):
        campaigns.execute("Keep", flood, typed_dice=[])
    with pytest.raises(DiceInputError, match="a d6 shows 1 to 6"):
        campaigns.execute("Keep", flood, typed_dice=[7])
    assert store.version("Keep") == version
    records = campaigns.execute("Keep", flood, typed_dice=[5])
    rolls = [roll for r in records for roll in r.event.rolls]
    assert [(roll.total, roll.typed_in) for roll in rolls] == [(5, True)]
    assert campaigns.state("Keep").countdown("Flood").left == 5


def test_export_import_folds_to_the_same_state(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    play(campaigns, "Keep")
    campaigns.execute("Keep", Note("the secret door is behind the tapestry", Visibility.REFEREE))
    text = campaigns.export_jsonl("Keep")
    campaigns.delete("Keep")
    assert campaigns.import_jsonl(text).name == "Keep"
    assert campaigns.export_jsonl("Keep") == text
    copy = campaigns.import_jsonl(text, name="Copy")
    assert copy == campaigns.state("Keep").model_copy(update={"name": "Copy"})
    assert fold(store.read("Copy")) == copy
    assert "tapestry" in campaigns.export_markdown("Keep")
    assert "tapestry" not in campaigns.export_markdown("Keep", player=True)
    assert all(r.event.visibility is Visibility.PARTY for r in campaigns.log("Keep", player=True))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("{not json\n", "line 1: not (valid )?JSON"),
        ('{"seq": 1}\n', "line 1: not a journal record"),
    ],
)
def test_bad_imports_create_nothing(store: SqlStore, text: str, message: str) -> None:
    campaigns = Campaigns(store)
    with pytest.raises(TurnkeeperError, match=message):
        campaigns.import_jsonl(text)
    assert store.campaigns() == []


def test_import_over_an_existing_name_is_a_conflict(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    text = campaigns.export_jsonl("Keep")
    with pytest.raises(ConflictError, match="already exists"):
        campaigns.import_jsonl(text)
    assert store.version("Keep") == 1
