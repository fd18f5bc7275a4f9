"""Property-based tests of the HTTP API from its own OpenAPI document (schemathesis).

Schemathesis reads ``/openapi.json`` from the app (in process, over ASGI) and sends requests
made from it, valid and invalid, to every operation, with the referee's token: no request may
be answered with a 5xx. The app runs over a tmp SQLite store holding the ``served`` campaign
(a map, a site, countdowns, notes), so commands reach the rules, not just the validation.

The path's campaign name is the served campaign's in most requests (``pin``) and whatever
schemathesis makes in the rest, so both the service and the refusals are reached. Bounded and
deterministic: a few examples per operation, derandomized, no deadline (xdist shares 2 cores).

A live stream is asked for without gzip: schemathesis stops reading a stream after a number
of events, counted in the bytes as they come, and cannot count them in a compressed stream,
so every valid example waited out its request timeout (10 s; a minute of the file's two).
Compressed streams are followed in tests/integration/web/test_live_at_once.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
import schemathesis
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.schemas import BaseSchema
from sse_starlette import EventSourceResponse

from turnkeeper.web.routes import stream
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

EXAMPLES = 25
"""Examples per operation: enough to reach every verb's body, small enough for ~10 s a run."""


@pytest.fixture
def api_schema(served: Served) -> BaseSchema:
    """The app's OpenAPI document, loaded from the app itself (ASGI, no socket)."""
    return schemathesis.openapi.from_asgi("/openapi.json", served.client.app)


schema = schemathesis.pytest.from_fixture("api_schema")


STREAMED = {
    route.path
    for route in stream.router.routes
    if isinstance(route, APIRoute) and route.response_class is EventSourceResponse
}
"""The paths of the operations that answer a live stream (server-sent events)."""


@schema.given(pin=st.booleans())
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_request_gets_a_server_error(case: Case, pin: bool, served: Served) -> None:
    if pin and case.path_parameters is not None and "name" in case.path_parameters:
        case.path_parameters["name"] = served.name
    headers = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    if case.path in STREAMED:
        headers["Accept-Encoding"] = "identity"
    case.call_and_validate(headers=headers, checks=[not_a_server_error])
