# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Standings as CSV from the admin and the API (issue 13 item 4): the commitment of
every race (public before the race, RULES.md 7, as the race views show it), the seed
of finished and cancelled races only, never of a running one."""

from __future__ import annotations

import csv
import hashlib
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.selectors.exports import RACE_COLUMNS, TOURNAMENT_COLUMNS, TOURNAMENT_RACE_COLUMNS
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_cancel
from games.services.tournaments import tournament_create
from tests.factories import StaffFactory, UserFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db


def table(resp: Any) -> list[dict[str, str]]:
    assert resp.status_code == 200, resp.content[:500]
    assert resp["Content-Type"].startswith("text/csv")
    assert resp["Content-Disposition"].startswith("attachment; filename=")
    return list(csv.DictReader(io.StringIO(resp.content.decode("utf-8"))))


def header(resp: Any) -> list[str]:
    return next(csv.reader(io.StringIO(resp.content.decode("utf-8"))))


def test_running_race_csv_has_live_ranks_the_commitment_and_no_seed() -> None:
    race = running_race(TournamentFactory(name="Cup"), name="R1")
    play(race, Result("ann", 30, 4000, moves=70))
    play(race, Result("bob", 12, 2500))
    seed = race.deal.seed
    assert seed
    for resp in (
        Client().get(f"/api/v1/races/{race.pk}/standings.csv"),
        client_for(organiser()).get(reverse("admin:games_race_standings_csv", args=[race.pk])),
    ):
        assert header(resp) == RACE_COLUMNS
        rows = table(resp)
        assert [(r["rank"], r["player"], r["cards_home"], r["phase"]) for r in rows] == [
            ("1", "ann", "30", "running"),
            ("2", "bob", "12", "running"),
        ]
        assert rows[0]["casino_score"] == str(5 * 30 - 52)
        assert {r["seed"] for r in rows} == {""}
        # The commitment is what GET /api/v1/races/{id} already shows (RULES.md 7).
        shown = Client().get(f"/api/v1/races/{race.pk}").json()["commitment"]
        assert {r["commitment"] for r in rows} == {race.commitment}
        assert shown == race.commitment
        assert seed not in resp.content.decode()


def test_finished_race_csv_has_ranks_seed_and_a_matching_commitment() -> None:
    t = TournamentFactory(name="Cup")
    race = finished_race(t, Result("ann", 30, 1000), Result("bob", 52, 9000, won=True))
    resp = Client().get(f"/api/v1/races/{race.pk}/standings.csv")
    rows = table(resp)
    assert [(r["rank"], r["player"], r["won"], r["tournament"]) for r in rows] == [
        ("1", "bob", "true", "Cup"),
        ("2", "ann", "false", "Cup"),
    ]
    seed = race.deal.seed or ""
    assert seed
    assert {r["seed"] for r in rows} == {seed}
    assert {r["commitment"] for r in rows} == {hashlib.sha256(seed.encode()).hexdigest()}


def test_finished_race_csv_names_a_disqualified_entry_as_the_results_api_does() -> None:
    """The CSV put the entry's stored status (its game's ending) in ``status`` where the
    results API and the live standings say ``disqualified``."""
    race = finished_race(
        TournamentFactory(name="Cup"), Result("ann", 30, 1000), Result("bob", 52, 9000, won=True)
    )
    entry = race.entries.get(player__username="bob")
    race_entry_disqualify(entry_id=entry.id, reason="used a solver", by=StaffFactory())
    rows = table(Client().get(f"/api/v1/races/{race.pk}/standings.csv"))
    by_player = {r["player"]: r for r in rows}
    assert (by_player["bob"]["status"], by_player["bob"]["disqualified"]) == (
        "disqualified",
        "true",
    )
    assert by_player["bob"]["rank"] == ""
    assert by_player["ann"]["rank"] == "1"
    api = Client().get(f"/api/v1/races/{race.pk}/results").json()
    statuses = {r["player"]: r["status"] for r in api["entries"]}
    assert statuses["bob"] == by_player["bob"]["status"]
    assert statuses["ann"] == by_player["ann"]["status"]


def test_tournament_csvs_standings_and_races_with_revealed_seeds_only() -> None:
    t = TournamentFactory(name="Cup")
    done = finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 900), name="first")
    live = running_race(t, name="second")
    called_off = race_cancel(race_id=running_race(t, name="third").pk)
    admin_client = client_for(organiser())
    for resp in (
        Client().get(f"/api/v1/tournaments/{t.pk}/standings.csv"),
        admin_client.get(reverse("admin:games_tournament_standings_csv", args=[t.pk])),
    ):
        assert header(resp) == TOURNAMENT_COLUMNS
        assert [(r["rank"], r["player"], r["points"]) for r in table(resp)] == [
            ("1", "ann", "10"),
            ("2", "bob", "8"),
        ]
    for resp in (
        Client().get(f"/api/v1/tournaments/{t.pk}/races.csv"),
        admin_client.get(reverse("admin:games_tournament_races_csv", args=[t.pk])),
    ):
        assert header(resp) == TOURNAMENT_RACE_COLUMNS
        by_name = {r["race"]: r for r in table(resp)}
        assert by_name["first"]["seed"] == done.deal.seed
        assert by_name["first"]["commitment"] == done.commitment
        assert (by_name["second"]["seed"], by_name["second"]["commitment"]) == (
            "",
            live.commitment,
        )
        assert (live.deal.seed or "") not in resp.content.decode()
        assert live.deal.seed
        assert (by_name["third"]["status"], by_name["third"]["seed"]) == (
            "cancelled",
            called_off.deal.seed,
        )
        assert by_name["third"]["commitment"] == called_off.commitment
        assert called_off.deal.seed


def test_admin_export_actions_cover_the_selected_objects() -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Cup")
    a = finished_race(t, Result("ann", 30, 1000), name="a")
    b = running_race(t, name="b")
    play(b, Result("cy", 5, 100))
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "export_standings_csv", "_selected_action": [str(a.pk), str(b.pk)]},
    )
    rows = table(resp)
    assert [(r["race"], r["player"], bool(r["seed"])) for r in rows] == [
        ("a", "ann", True),
        ("b", "cy", False),
    ]
    resp = c.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "export_standings_csv", "_selected_action": [str(t.pk)]},
    )
    assert [r["player"] for r in table(resp)] == ["ann"]


def test_formula_like_names_are_neutralised() -> None:
    race = running_race(None)
    play(race, Result("=cmd", 3, 10))
    rows = table(Client().get(f"/api/v1/races/{race.pk}/standings.csv"))
    assert rows[0]["player"] == "'=cmd"


def test_csv_errors_are_problem_json_and_drafts_stay_hidden() -> None:
    resp = Client().get("/api/v1/races/00000000-0000-0000-0000-000000000000/standings.csv")
    assert resp.status_code == 404
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "not_found"
    draft = tournament_create(name="Secret", status="draft")
    resp = Client().get(f"/api/v1/tournaments/{draft.pk}/standings.csv")
    assert (resp.status_code, resp.json()["code"]) == (404, "not_found")


def test_non_staff_cannot_use_the_admin_exports() -> None:
    t = TournamentFactory()
    race = running_race(t)
    c = client_for(UserFactory())
    for url in (
        reverse("admin:games_race_standings_csv", args=[race.pk]),
        reverse("admin:games_tournament_standings_csv", args=[t.pk]),
        reverse("admin:games_tournament_races_csv", args=[t.pk]),
    ):
        resp = c.get(url)
        assert resp.status_code == 302
        assert "/admin/login/" in resp["Location"]


@pytest.mark.parametrize(
    ("language", "button"),
    [
        ("en", "Races, with the seeds of finished and cancelled races"),
        ("fr", "Courses, avec les graines des courses terminées ou annulées"),
        ("es", "Carreras, con las semillas de las carreras terminadas o canceladas"),
        ("de", "Rennen, mit den Startwerten beendeter oder abgesagter Rennen"),
    ],
)
def test_the_tournament_races_button_says_cancelled_races_show_their_seed_too(
    language: str, button: str
) -> None:
    """The races CSV fills the seed of a cancelled race too (Race.seed_revealed); the
    button on the tournament page said "of finished races" only."""
    t = TournamentFactory(name="Cup")
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    assert button in page
