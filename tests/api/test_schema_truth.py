"""The schema tells the truth about errors and inputs (issue 12 item 10).

Errors are documented as ``application/problem+json`` with every code the API uses;
``page_size`` is a positive integer on both sides; a string the server refuses blank is
refused by the schema (``minLength``/``pattern``).  ``test_schemathesis.py`` sends
generated requests against the same schema.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from api.problem_codes import PROBLEM_CODES
from tests.api.test_schema import generate

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    data: dict[str, Any] = generate(tmp_path_factory.mktemp("schema"))
    return data


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "responses" in op
    ]


def test_every_error_is_problem_json(schema: dict[str, Any]) -> None:
    errors = 0
    problem = schema["components"]["schemas"]["Problem"]["properties"]
    for path, _method, op in operations(schema):
        for status, response in op["responses"].items():
            if status[0] in "45":
                errors += 1
                assert list(response["content"]) == ["application/problem+json"], (path, status)
                ref = response["content"]["application/problem+json"]["schema"]["$ref"]
                # The Problem, or one with extension members (ResultsProblem's ends_at).
                props = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
                assert set(problem) <= set(props), (path, status)
    assert errors > 100


def test_every_code_is_in_the_schema(schema: dict[str, Any]) -> None:
    code = schema["components"]["schemas"]["Problem"]["properties"]["code"]
    ref = code["allOf"][0]["$ref"] if "allOf" in code else code["$ref"]
    enum = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"]
    assert set(enum) == set(PROBLEM_CODES)
    assert {"invalid_cursor", "login_locked_out"} <= set(enum)


def test_framework_errors_are_documented_per_operation(schema: dict[str, Any]) -> None:
    """401 on authenticated views, 404 with ids, 400/413/415 with bodies, 429 when
    throttled, 400 ``invalid_cursor`` on every cursor list."""
    lists = 0
    for path, method, op in operations(schema):
        responses = op["responses"]
        params = {p["name"] for p in op.get("parameters", [])}
        # An event stream ignores Accept (tests/api/test_stream_docs.py).
        streams = "text/event-stream" in responses.get("200", {}).get("content", {})
        assert ("406" in responses) is not streams, (method, path)
        if "{" in path:
            assert "404" in responses, (method, path)
        if "requestBody" in op:
            assert {"400", "413", "415"} <= set(responses), (method, path)
        if "cursor" in params:
            lists += 1
            assert "invalid_cursor" in responses["400"]["description"], (method, path)
    assert lists >= 5
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]["responses"]
    assert {"401", "429"} <= set(moves)
    assert (
        "login_locked_out"
        in schema["paths"]["/api/v1/auth/token"]["post"]["responses"]["429"]["description"]
    )


def test_page_size_is_a_positive_integer_on_both_sides(
    schema: dict[str, Any], player: APIClient
) -> None:
    for path, _method, op in operations(schema):
        for p in op.get("parameters", []):
            if p["name"] == "page_size":
                assert p["schema"] == {"type": "integer", "minimum": 1}, path
    for bad in ("0", "-1", "abc", "1.5", "", "\u0663"):
        resp = player.get("/api/v1/games", {"page_size": bad})
        assert resp.status_code == 400, bad
        assert resp.json()["code"] == "validation_error"
        assert list(resp.json()["errors"]) == ["page_size"]
    assert player.get("/api/v1/games", {"page_size": "1"}).status_code == 200
    assert player.get("/api/v1/games", {"page_size": "100000"}).status_code == 200


def test_blank_strings_are_refused_by_the_schema_where_the_server_refuses_them(
    schema: dict[str, Any], anon: APIClient
) -> None:
    token_input = schema["components"]["schemas"]["TokenInput"]["properties"]
    assert token_input["username"]["minLength"] == 1
    assert re.search(token_input["username"]["pattern"], "   ") is None
    assert token_input["password"]["minLength"] == 1
    for body in ({"username": "", "password": "x"}, {"username": "   ", "password": "x"}):
        resp = anon.post("/api/v1/auth/token", body, format="json")
        assert resp.status_code == 400
        assert list(resp.json()["errors"]) == ["username"]
    # Every string field of every request body: minLength 1 exactly when blank is refused.
    from api.serializers import StrictCharField, StrictSerializer

    checked = 0
    for name, component in schema["components"]["schemas"].items():
        serializer = _input_serializers().get(name)
        if serializer is None:
            continue
        for field_name, field in serializer().fields.items():
            if isinstance(field, StrictCharField) and field_name in component["properties"]:
                prop = component["properties"][field_name]
                assert (prop.get("minLength", 0) >= 1) is (not field.allow_blank), (
                    name,
                    field_name,
                )
                checked += 1
    assert checked >= 10
    assert issubclass(_input_serializers()["TokenInput"], StrictSerializer)


def _input_serializers() -> dict[str, Any]:
    import api.races
    import api.serializers
    import api.tournaments

    found: dict[str, Any] = {}
    for module in (api.serializers, api.races, api.tournaments):
        for name, obj in vars(module).items():
            if name.endswith("Input") and isinstance(obj, type):
                found[name] = obj
    return found


def test_the_schema_file_generator_is_the_one_served(tmp_path: Path) -> None:
    """The hook runs for the served schema too (not only the management command)."""
    served = APIClient().get("/api/v1/schema?format=json").json()
    assert "application/problem+json" in str(served["paths"]["/api/v1/games"]["get"])


def test_every_seed_says_when_it_is_revealed(schema: dict[str, Any]) -> None:
    """A race's seed is shown once the race is finished or cancelled (``Race.seed_revealed``),
    in a tournament's race list as in the race itself; the schema said "finished" only
    for a tournament's race, and nothing for a game's deal (RULES.md 7)."""
    schemas = schema["components"]["schemas"]
    race = schemas["RaceView"]["properties"]["seed"]["description"]
    assert "finished or cancelled" in race
    assert schemas["TournamentRaceView"]["properties"]["seed"]["description"] == race
    deal = schemas["DealView"]["properties"]["seed"]["description"]
    assert "revealed" in deal
    assert "RULES.md 7" in deal


def test_each_method_of_a_path_has_its_own_description(schema: dict[str, Any]) -> None:
    """``GET /games/{id}/moves`` showed the POST's words ("play a move") and ``PUT
    /races/{id}/rating`` the GET's: a method without its own docstring takes the view
    class's.  Every operation of a path now says what it itself does."""
    for path, ops in schema["paths"].items():
        seen: dict[str, str] = {}
        for method, op in ops.items():
            if method == "parameters":
                continue
            description = op.get("description") or ""
            assert description, (path, method)
            assert description not in seen, (path, method, seen.get(description))
            seen[description] = method
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]
    assert moves["get"]["description"].startswith("The caller's game's moves in play order")
    rating = schema["paths"]["/api/v1/races/{race_id}/rating"]["put"]["description"]
    assert rating.startswith("Mark the race rated or not")


def _error_descriptions(op: dict[str, Any]) -> dict[str, str]:
    return {s: r.get("description", "") for s, r in op["responses"].items() if s[0] in "45"}


def test_every_code_an_operation_names_is_on_one_of_its_error_responses(
    schema: dict[str, Any],
) -> None:
    """A bot author reads the responses, not only the prose: a code the operation's
    description promises (``invalid_credentials``, ``deal_in_race``, ...) is listed
    on one of its 4xx/5xx responses."""
    missing = []
    for path, method, op in operations(schema):
        named = {
            c for c in re.findall(r"`+([a-z_]+)`+", op.get("description", "")) if c in PROBLEM_CODES
        }
        listed = " ".join(_error_descriptions(op).values())
        missing += [(method, path, c) for c in sorted(named) if not re.search(rf"\b{c}\b", listed)]
    assert missing == []


@pytest.mark.parametrize(
    ("path", "method", "status", "code"),
    [
        ("/api/v1/games", "post", "400", "invalid_options"),
        ("/api/v1/games", "post", "400", "invalid_deal"),
        ("/api/v1/games", "post", "409", "deal_in_race"),
        ("/api/v1/games/{game_id}/moves", "post", "400", "malformed_move"),
        ("/api/v1/auth/token", "post", "400", "invalid_credentials"),
        ("/api/v1/auth/password", "post", "429", "login_locked_out"),
        ("/api/v1/races", "post", "400", "invalid_race"),
        ("/api/v1/races", "post", "400", "invalid_options"),
        ("/api/v1/races/{race_id}/join", "post", "403", "tournament_invite_only"),
        ("/api/v1/tournaments", "post", "400", "invalid_tournament"),
        ("/api/v1/tournaments/{tournament_id}/races", "post", "400", "invalid_race"),
        # Each view's own words for these statuses were replaced by the bare entries of
        # the shared problems, spread after them: hint and solution lost too_many_solves,
        # resign the refusal of a body.
        ("/api/v1/games/{game_id}/hint", "get", "429", "too_many_solves"),
        ("/api/v1/games/{game_id}/solution", "get", "429", "too_many_solves"),
        ("/api/v1/games/{game_id}/resign", "post", "400", "unknown_field"),
        ("/api/v1/games/{game_id}/resign", "post", "400", "malformed_request"),
        # A race game's export and solution before the race starts (as its view).
        ("/api/v1/games/{game_id}/export", "get", "409", "race_not_started"),
        ("/api/v1/games/{game_id}/solution", "get", "409", "race_not_started"),
    ],
)
def test_each_code_is_on_the_status_the_server_answers_it_with(
    schema: dict[str, Any], path: str, method: str, status: str, code: str
) -> None:
    """The status each of these codes really has (``api.problem_codes``, the handlers)."""
    assert code in _error_descriptions(schema["paths"][path][method]).get(status, "")


def test_an_unthrottled_list_does_not_promise_a_429(schema: dict[str, Any]) -> None:
    """``GET /races`` has no throttle scope: it never answers 429."""
    op = schema["paths"]["/api/v1/races"]["get"]
    assert "429" not in op["description"]
    assert "429" not in op["responses"]


def test_the_game_view_says_how_foundations_tableau_and_legal_moves_are_laid_out(
    schema: dict[str, Any],
) -> None:
    """A bot reads these three fields to find its moves: the schema says their shape."""
    props = schema["components"]["schemas"]["GameView"]["properties"]
    assert "keyed by suit (`C`, `D`, `H`, `S`)" in props["foundations"]["description"]
    assert "in order `t1` to `t4`, each its cards bottom to top" in props["tableau"]["description"]
    assert "exactly the moves POST /moves accepts" in props["legal_moves"]["description"]


def test_every_field_of_the_game_view_says_what_it_is(schema: dict[str, Any]) -> None:
    """A bot reads the game view and nothing else: ``cards_home_at``, ``deadline``,
    ``base_rank``, ``started_at``, ``finished_at``, ``redeals_used`` and ``move_number``
    had no description (is ``deadline`` null for a practice game? what is
    ``cards_home_at`` for?)."""
    schemas = schema["components"]["schemas"]
    undescribed = [
        name
        for name, prop in schemas["GameView"]["properties"].items()
        if not prop.get("description")
        and "$ref" not in prop
        and "allOf" not in prop
        # the enums list their values; kind and id say themselves
        and name not in ("id", "kind", "status")
    ]
    assert undescribed == []
    props = schemas["GameView"]["properties"]
    assert "null for a practice game" in props["deadline"]["description"]
    assert "RULES.md 6" in props["cards_home_at"]["description"]


def test_the_game_view_is_laid_out_as_the_schema_says(player: APIClient) -> None:
    """Deck in the order AC..KC AD..KD ...: D[13] = AD starts the diamonds, t1..t4 =
    2D 3D 4D 5D, the reserve top is D[12] = KC."""
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    resp = player.post("/api/v1/games", {"deck": deck}, format="json")
    view = resp.json()
    assert view["foundations"] == {"C": [], "D": ["AD"], "H": [], "S": []}
    assert view["tableau"] == [["2D"], ["3D"], ["4D"], ["5D"]]
    assert view["legal_moves"] == ["2D>f", "draw"]
    after = player.post(
        f"/api/v1/games/{view['id']}/moves", {"move": "2D>f", "expected_move_number": 0}
    ).json()["game"]
    assert after["foundations"]["D"] == ["AD", "2D"]
    assert after["tableau"][0] == ["KC"]


def test_a_result_entrys_status_lists_its_values(schema: dict[str, Any]) -> None:
    """``did_not_start`` appears in results (tests/api/test_races.py, window mode); the
    field was a bare string, so a bot could not know the values to switch on."""
    schemas = schema["components"]["schemas"]
    status = schemas["ResultEntry"]["properties"]["status"]
    enum = schemas[status["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert enum == ["won", "blocked", "resigned", "timed_out", "did_not_start", "disqualified"]


def test_the_problem_schema_documents_the_extension_members_a_client_reads(
    schema: dict[str, Any],
) -> None:
    """``current_move_number`` and ``retry_after`` are what a bot retries with; the
    Problem schema had only ``allowed``."""
    props = schema["components"]["schemas"]["Problem"]["properties"]
    for name in ("errors", "fields", "parameters", "accepted", "retry_after"):
        assert name in props
    assert "`stale_move_number` only" in props["current_move_number"]["description"]
    assert "`disqualified` only" in props["reason"]["description"]
    assert "`no_winnable_deal_found` only" in props["tried"]["description"]
    assert "`Retry-After`" in props["retry_after"]["description"]


def test_the_problem_schema_documents_the_move_limit(schema: dict[str, Any]) -> None:
    """``409 move_limit_reached`` carries ``limit`` (games.services.games.move_play), which
    the Problem schema did not name: a client had only the prose to learn it from."""
    props = schema["components"]["schemas"]["Problem"]["properties"]
    assert props["limit"]["type"] == "integer"
    assert "`move_limit_reached` only" in props["limit"]["description"]


def test_the_server_sends_the_extension_members_the_schema_names(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "1"}, format="json").json()
    moves = f"/api/v1/games/{game['id']}/moves"
    stale = player.post(moves, {"move": "draw", "expected_move_number": 5}, format="json")
    assert stale.json()["current_move_number"] == 0
    unknown = player.post(moves, {"move": "draw", "bogus": 1}, format="json")
    assert unknown.json()["fields"] == ["bogus"]
    query = player.get("/api/v1/games?phse=open")
    assert query.json()["parameters"] == ["phse"]
    assert query.json()["accepted"] == ["cursor", "page_size"]
    invalid = player.get("/api/v1/games?page_size=0")
    assert list(invalid.json()["errors"]) == ["page_size"]


def test_a_deck_is_52_cards_in_the_schema_and_any_other_count_is_refused(
    schema: dict[str, Any], player: APIClient
) -> None:
    """RULES.md 2.2: a deck is 52 cards; the schema said 1 to 60 (the field's own bounds,
    kept so that a wrong count gets the engine's reason)."""
    deck = schema["components"]["schemas"]["GameStartInput"]["properties"]["deck"]
    assert (deck["minItems"], deck["maxItems"]) == (52, 52)
    cards = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    for count, code, says in [
        (51, "invalid_deal", "got 51"),
        (53, "invalid_deal", "got 53; repeated: AC"),
        (61, "validation_error", "deck"),
    ]:
        body = {"deck": (cards * 2)[:count]}
        resp = player.post("/api/v1/games", body, format="json")
        assert (resp.status_code, resp.json()["code"]) == (400, code), count
        assert says in str(resp.json()), count
    assert player.get("/api/v1/games").json()["results"] == []  # nothing was started


def test_options_list_every_option_with_its_values(schema: dict[str, Any]) -> None:
    """A request's ``options`` was an untyped object (ReDoc showed a ``property1``
    sample); every option now has its type and values, and an unknown one is refused."""
    schemas = schema["components"]["schemas"]
    for name in ("GameStartInput", "RaceCreateInput", "RacesAddInput"):
        options = schemas[name]["properties"]["options"]
        assert options["additionalProperties"] is False, name
        assert list(options["properties"]) == [
            "draw",
            "redeals",
            "build",
            "tableau_moves",
            "autofill",
            "empty_pile",
            "reserve_face_up",
            "base",
            "tableau_wrap",
        ]
        props = options["properties"]
        assert props["draw"]["enum"] == [1, 3]
        assert (props["redeals"]["maximum"], props["redeals"]["nullable"]) == (1000, True)
        assert props["build"]["enum"] == ["alternate-colour", "any-suit", "same-suit"]
        assert props["autofill"]["type"] == "boolean"
        assert props["base"]["enum"][:2] == ["dealt", "A"]
    game = schemas["DealView"]["properties"]["options"]
    assert game["properties"]["empty_pile"]["enum"] == ["any", "waste-only"]


def test_options_the_schema_allows_are_accepted(player: APIClient) -> None:
    options = {"draw": 1, "redeals": 1000, "build": "same-suit", "base": "K", "autofill": False}
    resp = player.post("/api/v1/games", {"seed": "1", "options": options}, format="json")
    assert resp.status_code == 201
    assert {k: resp.json()["deal"]["options"][k] for k in options} == options
