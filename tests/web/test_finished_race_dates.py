# mypy: disable-error-code="no-untyped-call, assignment"
"""Finished races say when they ended: the lobby's "Recently finished" and a tournament
page's "Past" rows listed names alone, so a player could not tell last night's race from
last month's.  Each now carries a ``<time datetime=... data-local>`` (app.js writes it in
the page's language and the viewer's time zone), in a sentence of the page's language."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from games.models import Race
from games.services.races import race_cancel
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

pytestmark = pytest.mark.django_db

ENDS = datetime(2026, 3, 14, 15, 9, tzinfo=UTC)
TIME = '<time datetime="2026-03-14T15:09:00+00:00" data-local>2026-03-14 15:09 UTC</time>'
EARLY = '<time datetime="2026-03-14T14:58:00+00:00" data-local>2026-03-14 14:58 UTC</time>'


def _at(race: Race, *, closed_at: datetime | None, **more: Any) -> None:
    """Move the race to fixed times: it ran from 15:04 to ``ENDS`` (14 March 2026)."""
    Race.objects.filter(id=race.id).update(
        opens_at=ENDS - timedelta(minutes=6),
        starts_at=ENDS - timedelta(minutes=5),
        ends_at=ENDS,
        closed_at=closed_at,
        **more,
    )


def _page(url: str, language: str = "en") -> str:
    html = Client().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.sub(r"[ \t\n]+", " ", html)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "ended"), ("fr", "terminée le"), ("es", "terminó el"), ("de", "beendet am")],
)
def test_the_lobby_says_when_each_finished_race_ended(language: str, words: str) -> None:
    swept = finished_race(None, Result("ana", 5, 40_000), name="Swept a moment late")
    # Closed by the sweep 40 s after its end: it ended at ends_at, as its page says.
    _at(swept, closed_at=ENDS + timedelta(seconds=40))
    html = _page("/", language)
    row = html.split("Swept a moment late</a>", 1)[1].split("</li>", 1)[0]
    assert f"<span data-ended>{words} {TIME}</span></small>" in row


def test_a_race_over_for_everyone_early_ended_when_it_was_closed() -> None:
    early = finished_race(None, Result("ana", 52, 40_000, won=True), name="Over early")
    _at(early, closed_at=ENDS - timedelta(minutes=11))
    html = _page("/")
    row = html.split("Over early</a>", 1)[1].split("</li>", 1)[0]
    assert f"<span data-ended>ended {EARLY}</span>" in row


def test_a_tournament_page_says_when_each_past_race_ended(player: Any) -> None:
    t: Any = TournamentFactory(name="Spring cup")
    done = finished_race(t, Result("ana", 5, 40_000), name="Heat one")
    _at(done, closed_at=ENDS)
    closing = running_race(t, name="Heat two")  # past its end, not swept yet: closing
    _at(closing, closed_at=None)
    off = running_race(t, name="Heat three")
    race_cancel(race_id=off.id)
    _at(off, closed_at=None, cancelled_at=ENDS - timedelta(minutes=11))
    html = _page(f"/tournaments/{t.id}/")
    assert (
        f'<a href="/races/{done.id}/">Heat one</a> <small><span data-ended>ended {TIME}</span>'
        f'</small> <a href="/races/{done.id}/results">Results</a></li>'
    ) in html
    assert (
        f'<a href="/races/{closing.id}/">Heat two</a> <small><span data-ended>ended {TIME}'
        "</span></small></li>"
    ) in html
    # A cancelled race: "cancelled", then when (it never ended at its end).
    assert (
        f'<a href="/races/{off.id}/">Heat three</a> <span data-phase="cancelled">cancelled'
        f"</span> <small data-ended>{EARLY}</small></li>"
    ) in html
    fr = _page(f"/tournaments/{t.id}/", "fr")
    assert f"<span data-ended>terminée le {TIME}</span>" in fr
    de = _page(f"/tournaments/{t.id}/", "de")
    assert f"<span data-ended>beendet am {TIME}</span>" in de


def test_the_api_lists_when_a_tournament_race_was_closed() -> None:
    """The page reads ``closed_at`` from the tournament's race summaries; the API's
    tournament view gives it too, as a race's own view does (null until closed)."""
    t: Any = TournamentFactory(name="Spring cup")
    done = finished_race(t, Result("ana", 5, 40_000), name="Heat one")
    _at(done, closed_at=ENDS - timedelta(minutes=11))
    waiting = running_race(t, name="Heat two")
    body = Client().get(f"/api/v1/tournaments/{t.id}").json()
    closed = {r["id"]: r["closed_at"] for r in body["races"]}
    assert closed == {str(done.id): "2026-03-14T14:58:00Z", str(waiting.id): None}
    assert Client().get(f"/api/v1/races/{done.id}").json()["closed_at"] == closed[str(done.id)]


def test_the_player_pages_rated_races_ended_as_the_other_pages_say() -> None:
    """The player page's "Recent rated races" showed the race's closing time, the
    sweep's moment after the end (15:09:40); the lobby and tournament rows show the
    scheduled end, or the closing time of a race over early (``race_ended_at``)."""
    from games.services.ratings import race_rate

    swept = finished_race(
        None, Result("ana", 5, 40_000), Result("bob", 4, 40_000), name="Swept a moment late"
    )
    early = finished_race(
        None, Result("ana", 52, 40_000, won=True), Result("bob", 4, 40_000), name="Over early"
    )
    _at(swept, closed_at=ENDS + timedelta(seconds=40))
    _at(early, closed_at=ENDS - timedelta(minutes=11))
    race_rate(race_id=swept.id)
    race_rate(race_id=early.id)
    html = _page("/players/ana/")
    caption = "Recent rated races</caption>"
    assert caption in html
    table = html.split(caption, 1)[1].split("</table>", 1)[0]

    def row(name: str) -> str:
        return table.split(f"{name}</a></th>", 1)[1].split("</tr>", 1)[0]

    assert row("Swept a moment late").startswith(f"<td>{TIME}</td>")
    assert row("Over early").startswith(f"<td>{EARLY}</td>")
