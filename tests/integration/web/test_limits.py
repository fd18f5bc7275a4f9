"""Issue 16 over HTTP: hostile bodies get one clear 4xx and change nothing; every response
carries the safe headers; the journal is read a page at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.integration.web.conftest import Served

from turnkeeper.files.names import MAX_NAME_LENGTH
from turnkeeper.web.guard import BODY_LIMIT, NUMBER_LIMIT, PAGE_POLICY, TEXT_LIMIT
from turnkeeper.web.tokens import Role

COMMANDS = "/api/campaigns/Crypt/commands"


def referee(served: Served) -> dict[str, str]:
    return {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}


def journal(served: Served) -> str:
    """What a refusal must leave as it was: the exported journal."""
    return served.campaigns.export_jsonl("Crypt")


def refused(served: Served, body: Any, status: int, *, raw: bytes | None = None) -> str:
    """Post ``body`` (or the ``raw`` bytes), expect ``status`` and no change; the message."""
    before = journal(served)
    headers = {**referee(served), "Content-Type": "application/json"}
    content = raw if raw is not None else json.dumps(body).encode()
    answer = served.client.post(COMMANDS, content=content, headers=headers)
    assert answer.status_code == status, answer.text
    message = answer.json()["error"]
    assert "\n" not in message
    assert journal(served) == before
    return str(message)


def test_a_body_past_one_mib_is_413_and_changes_nothing(served: Served) -> None:
    note = "x" * BODY_LIMIT
    message = refused(served, {"verb": "note", "text": note}, 413)
    assert "at most 1,048,576 bytes" in message


def test_a_10_mb_countdown_name_is_refused_before_it_is_stored(served: Served) -> None:
    """The issue's 10 MB countdown name (it made the pages 31 MB): 413, nothing stored."""
    name = "n" * 10_000_000
    refused(served, {"verb": "countdown_add", "name": name, "kind": "short", "length": "3"}, 413)


def test_a_name_past_200_characters_is_413(served: Served) -> None:
    name = "n" * (MAX_NAME_LENGTH + 1)
    body = {"verb": "countdown_add", "name": name, "kind": "short", "length": "3"}
    message = refused(served, body, 413)
    assert message.startswith("name: 201 characters; a name is at most 200")


def test_a_text_past_its_limit_is_413(served: Served) -> None:
    message = refused(served, {"verb": "note", "text": "y" * (TEXT_LIMIT + 1)}, 413)
    assert "text: 10,001 characters; a field is at most 10,000" in message


def test_a_5000_digit_duration_is_a_clear_400_not_a_500(served: Served) -> None:
    message = refused(served, {"verb": "wait", "duration": "9" * 5000 + "d"}, 400)
    assert "duration" in message


def test_a_number_past_the_limit_is_400(served: Served) -> None:
    huge = NUMBER_LIMIT + 1
    message = refused(served, {"verb": "damage", "target": "Aldo", "amount": huge}, 400)
    assert "amount" in message and "at most 1,000,000,000" in message
    refused(served, {"verb": "damage", "target": "Aldo", "amount": 10**30}, 400)


def test_json_nested_10000_deep_is_400(served: Served) -> None:
    deep = b'{"verb": "note", "text": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
    assert "nests" in refused(served, None, 400, raw=deep)


def test_a_form_body_that_is_not_utf8_is_400(served: Served) -> None:
    before = journal(served)
    answer = served.client.post(
        "/campaigns/Crypt/commands",
        content=b"verb=note&text=\xff\xfe",
        headers={
            **referee(served),
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
        },
    )
    assert answer.status_code == 400
    assert "not UTF-8" in answer.text or "UTF-8" in answer.text
    assert journal(served) == before


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("/", None),
        ("/static/htmx.min.js", None),
        ("/api/campaigns/Crypt/state", Role.PLAYER),
        ("/api/campaigns/Crypt/state", None),  # 401
        ("/campaigns/Crypt", Role.REFEREE),
        ("/campaigns/Crypt", Role.PLAYER),
        ("/no/such/page", None),
    ],
)
def test_every_response_carries_the_safe_headers(
    served: Served, path: str, role: Role | None
) -> None:
    answer = served.get(path, role)
    headers = answer.headers  # type: ignore[attr-defined]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"] == PAGE_POLICY
    assert "frame-ancestors 'none'" in PAGE_POLICY


def test_the_pages_hold_no_inline_script_or_handler(served: Served) -> None:
    """What the Content-Security-Policy forbids is not in the pages (the browser tests run
    them under it)."""
    for role in Role:
        page = served.get("/campaigns/Crypt", role).text  # type: ignore[attr-defined]
        assert "<script>" not in page and "javascript:" not in page
        assert " onclick=" not in page and " style=" not in page


def test_the_log_pages_with_limit_and_after(served: Served) -> None:
    headers = referee(served)
    whole = served.client.get("/api/campaigns/Crypt/log", headers=headers).json()
    seqs = [r["seq"] for r in whole["records"]]
    assert len(seqs) > 6 and whole["next"] is None
    first = served.client.get(
        "/api/campaigns/Crypt/log", params={"limit": 3}, headers=headers
    ).json()
    assert [r["seq"] for r in first["records"]] == seqs[:3] and first["next"] == seqs[2]
    second = served.client.get(
        "/api/campaigns/Crypt/log", params={"limit": 3, "after": first["next"]}, headers=headers
    ).json()
    assert [r["seq"] for r in second["records"]] == seqs[3:6]
    too_many = served.client.get(
        "/api/campaigns/Crypt/log", params={"limit": 100_000}, headers=headers
    )
    assert too_many.status_code == 400
    player = {"Authorization": f"Bearer {served.tokens[Role.PLAYER]}"}
    theirs = served.client.get(
        "/api/campaigns/Crypt/log", params={"limit": 2}, headers=player
    ).json()
    assert len(theirs["records"]) == 2 and theirs["next"] == theirs["records"][-1]["seq"]


def test_a_rest_longer_than_the_rulesets_most_is_422_and_quick(served: Served) -> None:
    """The bound on game time is one for every verb that passes it: 100 million turns of rest
    (1,900 years) are refused at once, naming the limit, instead of being decided turn by
    turn."""
    message = refused(served, {"verb": "rest", "turns": 100_000_000}, 422)
    assert "at most 360 days" in message and "time.max_wait_days" in message


def test_a_form_that_says_it_is_something_else_is_checked_all_the_same(served: Served) -> None:
    """The dashboard's route reads its body as a form whatever its Content-Type says: the
    limits hold for it too."""
    before = journal(served)
    answer = served.client.post(
        "/campaigns/Crypt/commands",
        content=b"verb=note&text=" + b"z" * (TEXT_LIMIT + 1),
        headers={**referee(served), "Content-Type": "text/plain", "HX-Request": "true"},
    )
    assert answer.status_code == 413
    assert journal(served) == before


def test_true_for_a_number_is_refused_not_read_as_1(served: Served) -> None:
    """A JSON ``true`` where a body wants a number (turns, hit points) is no count of one."""
    message = refused(served, {"verb": "rest", "turns": True}, 400)
    assert "turns: true is not a number" in message
    refused(served, {"verb": "damage", "target": "Aldo", "amount": False}, 400)
