# mypy: disable-error-code="misc, no-untyped-call"
"""The API against its own OpenAPI schema, with schemathesis (issue 12 item 10).

Every operation gets a fixed number of generated requests (``EXAMPLES``), once without
credentials and once with a fresh player token, through the WSGI application in this
process.  Each response must be no server error and conform to the schema in status
code, content type, headers and body.  Hypothesis runs derandomized (the examples are
derived from the test's name, not from a random seed or the clock) with no example
database, so every run sends the same requests: it cannot flake.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from canfield_site.wsgi import application
from games.services.tokens import token_issue

#: Generated requests per operation and credential kind.
EXAMPLES = 10

#: No server error; status code, content type, headers and body as the schema says; and
#: data the schema refuses is refused.  (Schema-valid data may still be refused for what
#: no schema can say: a wrong password, an illegal move, an unknown game.)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

#: The event streams (``.../events``) are served by the ASGI server only; through this WSGI
#: handler they answer ``503 live_unavailable`` by design.  tests/live runs them against a
#: real ASGI server (uvicorn), status codes and problems before the stream included.
schema = schemathesis.openapi.from_wsgi("/api/v1/schema?format=json", application).exclude(
    path_regex=r"/events$"
)


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    """Requests go through the real WSGI handler, which closes the database connection
    after each one; the test's transaction lives on that connection (Django's own test
    client disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
@override_settings(
    # The solver is bounded here (winnable deals, solutions): a few ms, one attempt.
    WINNABLE_BUDGET_SECONDS=0.02,
    WINNABLE_ATTEMPTS=1,
    SOLVER_BUDGET_SECONDS=0.02,
)
@pytest.mark.parametrize("who", ["anonymous", "player"])
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: Any, who: str) -> None:
    headers: dict[str, str] = {}
    if who == "player":
        user, _ = User.objects.get_or_create(username="fuzzer")
        headers["Authorization"] = f"Token {token_issue(user=user)[0]}"
    case.call_and_validate(headers=headers, checks=CHECKS)
