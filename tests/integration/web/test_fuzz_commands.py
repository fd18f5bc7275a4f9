"""Issue 16: hostile command bodies over HTTP, made by hypothesis.

Every verb of the API (``turnkeeper.verbs.VERBS``) is sent bodies whose fields hold
what a hostile client would put there: huge and negative numbers, booleans for numbers,
NaN, 5,000-digit durations, long names, Rich markup and control characters, deep nesting,
bytes that are not UTF-8, as JSON and as a dashboard form. No answer may be a 5xx (the test
client raises any exception the app did not turn into an answer, so the server's last-resort
500 is never reached silently), none may take long, and a refused command (4xx) leaves the
journal byte for byte as it was. Bounded and deterministic: derandomized, a fixed number of
examples, no hypothesis deadline (the machine is shared) but a bound on each answer's time.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.integration.web.conftest import Served

from turnkeeper.verbs import VERBS
from turnkeeper.web.tokens import Role

EXAMPLES = 150
"""Bodies per run: every verb is reached several times in about ten seconds."""

ANSWER_WITHIN = 15.0
"""The longest one answer may take, in seconds, on a loaded machine (a hang fails)."""

RAW = {
    "<DEEP 50>": "[" * 50 + "]" * 50,
    "<DEEP 5000>": "[" * 5000 + "]" * 5000,
    "<HUGE>": "1" + "0" * 4400,
    "<NAN>": "NaN",
    "<INFINITY>": "-Infinity",
}
"""JSON a hostile client writes but Python's json.dumps would not: placed by marker."""

HOSTILE_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "[/oops]",
            "[bold red]x[/]",
            "\x00",
            "\x1b[31m",
            "a\nb",
            "9" * 5000 + "d",
            "100000000000000000000000000000",
            "9223372036854775808s",
            "-1",
            "1e309",
            "NaN",
            "d" + "9" * 30,
            "+" * 40,
            "n" * 20_000,
        ]
    ),
    st.text(max_size=30),
)

HOSTILE_NUMBER = st.one_of(
    st.sampled_from([0, -1, 2**63, -(2**63) - 1, 10**30]),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
)


HOSTILE_VALUE = st.one_of(
    HOSTILE_TEXT,
    HOSTILE_NUMBER,
    st.none(),
    st.lists(HOSTILE_TEXT, max_size=3),
    st.dictionaries(HOSTILE_TEXT, HOSTILE_TEXT, max_size=2),
    # written into the JSON text as it stands: arrays that deep, 4,401 digits, NaN, Infinity
    st.sampled_from(sorted(RAW)),
)


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    verb = draw(st.sampled_from(sorted(VERBS)))
    fields = [name for name in VERBS[verb].model_fields if name != "verb"]
    chosen = draw(st.lists(st.sampled_from(fields), max_size=4, unique=True)) if fields else []
    body: dict[str, Any] = {"verb": verb}
    for name in chosen:
        body[name] = draw(HOSTILE_VALUE)
    return body


def _raw(text: str) -> str:
    for marker, written in RAW.items():
        text = text.replace(f'"{marker}"', written)
    return text


def _encode(body: dict[str, Any]) -> bytes:
    return _raw(json.dumps(body)).encode()


def _form(body: dict[str, Any]) -> bytes:
    pairs = [(k, v if isinstance(v, str) else _raw(json.dumps(v))) for k, v in body.items()]
    return urlencode(pairs).encode()


@given(body=bodies(), as_form=st.booleans(), broken=st.booleans())
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_hostile_bodies_get_a_clear_4xx_and_change_nothing(
    served: Served, body: dict[str, Any], as_form: bool, broken: bool
) -> None:
    referee = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    before = served.campaigns.export_jsonl(served.name)
    if as_form:
        path = f"/campaigns/{served.name}/commands"
        content = _form(body) + (b"&text=\xff" if broken else b"")
        headers = {
            **referee,
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
        }
    else:
        path = f"/api/campaigns/{served.name}/commands"
        content = _encode(body) + (b"\xff" if broken else b"")
        headers = {**referee, "Content-Type": "application/json"}
    started = time.monotonic()
    answer = served.client.post(path, content=content, headers=headers)
    took = time.monotonic() - started
    assert answer.status_code < 500, (body, answer.text[:300])
    assert took < ANSWER_WITHIN, (body, took)
    if answer.status_code >= 400:
        assert served.campaigns.export_jsonl(served.name) == before, body
        assert answer.text.strip(), "a refusal says why"
