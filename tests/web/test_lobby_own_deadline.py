# mypy: disable-error-code="no-untyped-call, assignment"
"""The lobby's row of a window race whose clock the viewer started: their own deadline
("you are playing; your time ends in ..."), which a late starter reaches before the
window's end, in place of the window's end, for their eyes alone.  Everyone else (an
entrant who has not started, an anonymous visitor) still reads the window's end, and
nothing of the player's own clock; the polled lists' ETag is the viewer's own."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Race
from games.selectors.games import own_deadline
from games.services.games import game_end
from games.services.races import race_join, race_start
from tests.factories import make_user
from tests.tournaments.factories import running_race, window_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

#: The time in this module: what ``timezone.now`` answers the tests, views and services.
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``timezone.now`` stopped at :data:`NOW`: the rows' deadlines and the polls' ETags
    never depend on how long a run takes."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)


def _row(html: str, race: Race) -> str:
    """The lobby row (``<li class="race">``) of ``race``."""
    match = re.search(rf'<li class="race"><a href="/races/{race.id}/">.*?</li>', html, flags=re.S)
    assert match, html
    return match.group(0)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "you are playing; your time ends in"),
        ("fr", "vous jouez\u202f; fin de votre temps dans"),
        ("es", "est\u00e1 jugando; su tiempo termina en"),
        ("de", "Sie spielen; Ihre Zeit endet in"),
    ],
)
def test_the_players_row_counts_down_their_own_time(lang: str, words: str) -> None:
    now = timezone.now()
    race = window_race(now)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race_join(race_id=race.id, player=bob)
    # Ann started 30 s ago: her 60 s end 9.5 minutes before the window does.
    game = race_start(race_id=race.id, player=ann, now=now - timedelta(seconds=30))
    assert game.deadline == now + timedelta(seconds=30)
    mine = _row(
        PageClient(ann).get("/lobby/races", HTTP_ACCEPT_LANGUAGE=lang).content.decode(), race
    )
    assert (
        f'<span class="when" data-my-deadline>{words} '
        f'<span data-countdown="{game.deadline.isoformat()}">'
    ) in mine
    assert race.ends_at.isoformat() not in mine  # the window's end is not hers
    assert f'class="button" href="/play/{game.id}/"' in mine  # and she may play on
    # The whole lobby page shows the same row.
    page = PageClient(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'data-countdown="{game.deadline.isoformat()}"' in _row(page, race)


def test_others_read_the_windows_end_and_nothing_of_the_players_clock() -> None:
    now = timezone.now()
    race = window_race(now)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race_join(race_id=race.id, player=bob)  # joined, his clock not started
    game = race_start(race_id=race.id, player=ann, now=now - timedelta(seconds=30))
    assert game.deadline is not None
    for client in (PageClient(bob), PageClient(make_user(username="cid")), PageClient()):
        row = _row(client.get("/lobby/races").content.decode(), race)
        assert f'ends in <span data-countdown="{race.ends_at.isoformat()}">' in row
        assert "data-my-deadline" not in row
        assert game.deadline.isoformat() not in row
        assert str(game.id) not in row


def test_the_row_goes_back_to_the_windows_end_once_the_players_game_is_over() -> None:
    now = timezone.now()
    race = window_race(now)
    ann = make_user(username="ann")
    game = race_start(race_id=race.id, player=ann, now=now - timedelta(seconds=30))
    assert game.deadline is not None
    pages = PageClient(ann)
    first = pages.get("/lobby/races")
    assert "data-my-deadline" in first.content.decode()
    game_end(game_id=game.id, player=ann)  # resigned: no clock of hers runs
    again = pages.get("/lobby/races", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    row = _row(again.content.decode(), race)
    assert "data-my-deadline" not in row
    assert f'ends in <span data-countdown="{race.ends_at.isoformat()}">' in row
    assert f'<a href="/play/{game.id}/">See your game</a>' in row


def test_the_polled_lists_etag_is_each_viewers_own() -> None:
    """Ann's start redraws her rows (her deadline appears) and leaves Bob's validator,
    and his rows, as they were; the two never share an ETag, so no cache hands one
    viewer's rows (and clock) to the other."""
    now = timezone.now()
    race = window_race(now)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race_join(race_id=race.id, player=ann)
    race_join(race_id=race.id, player=bob)
    ann_pages, bob_pages = PageClient(ann), PageClient(bob)
    ann_etag = ann_pages.get("/lobby/races")["ETag"]
    bob_etag = bob_pages.get("/lobby/races")["ETag"]
    assert ann_etag != bob_etag  # the same rows, yet each viewer's own validator
    assert PageClient().get("/lobby/races")["ETag"] not in (ann_etag, bob_etag)

    game = race_start(race_id=race.id, player=ann, now=now - timedelta(seconds=30))
    assert game.deadline is not None

    again = ann_pages.get("/lobby/races", HTTP_IF_NONE_MATCH=ann_etag)
    assert again.status_code == 200
    assert f'data-countdown="{game.deadline.isoformat()}"' in again.content.decode()
    assert bob_pages.get("/lobby/races", HTTP_IF_NONE_MATCH=bob_etag).status_code == 304
    # Bob cannot revalidate against Ann's validator: he gets his own rows.
    crossed = bob_pages.get("/lobby/races", HTTP_IF_NONE_MATCH=again["ETag"])
    assert crossed.status_code == 200
    assert game.deadline.isoformat() not in crossed.content.decode()


def test_a_scheduled_races_row_keeps_the_races_end() -> None:
    """In a scheduled race everyone's end is the race's: no row of the player's own."""
    ann = make_user(username="ann")
    race = running_race(name="Evening race")
    game_id = race_join(race_id=race.id, player=ann).entry.game_id
    row = _row(PageClient(ann).get("/lobby/races").content.decode(), race)
    assert "data-my-deadline" not in row
    assert f'ends in <span data-countdown="{race.ends_at.isoformat()}">' in row
    assert f'class="button" href="/play/{game_id}/"' in row


def test_own_deadline_is_the_players_clock_while_they_play() -> None:
    now = timezone.now()
    race = window_race(now)
    ann = make_user(username="ann")
    game = race_start(race_id=race.id, player=ann, now=now)
    deadline = now + timedelta(seconds=60)
    assert own_deadline(game, race_mode="window", now=now + timedelta(seconds=59)) == deadline
    assert own_deadline(game, race_mode="window", now=deadline) is None  # timed out
    assert own_deadline(game, race_mode="scheduled", now=now) is None
    assert own_deadline(None, race_mode="window", now=now) is None


def test_a_blocked_game_that_may_be_undone_keeps_the_players_own_time() -> None:
    """A window race with Undo: a blocked game whose last move may still be taken back is
    not over (RULES.md 3.9), its player's clock runs on to their own deadline; the row
    said the window's end, and the polled lists' ETag (which counts such a game as not
    over) did not change with it, so a 304 kept whichever row was drawn first."""
    from games.models import Game

    now = timezone.now()
    race = window_race(now, allow_undo=True)
    ann = make_user(username="ann")
    game = race_start(race_id=race.id, player=ann, now=now - timedelta(seconds=30))
    assert game.deadline is not None
    pages = PageClient(ann)
    first = pages.get("/lobby/races")
    assert "data-my-deadline" in _row(first.content.decode(), race)
    Game.objects.filter(id=game.id).update(status=Game.Status.BLOCKED, move_number=3)
    again = pages.get("/lobby/races", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304  # nothing the viewer sees changed
    row = _row(pages.get("/lobby/races").content.decode(), race)
    assert (
        "data-my-deadline>you are playing; your time ends in "
        f'<span data-countdown="{game.deadline.isoformat()}">'
    ) in row
    game.refresh_from_db()
    assert own_deadline(game, race_mode="window", race_status=race.status, now=now) == game.deadline
    # The race page counts it down too, beside its words on the undo that is still open.
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert (
        f'<p data-my-deadline>Your time ends in <span data-countdown="{game.deadline.isoformat()}">'
        in page
    )
    # Over for good once no undo may take it back (the race no longer allows it).
    Game.objects.filter(id=game.id).update(undo_allowed=False)
    game.refresh_from_db()
    assert own_deadline(game, race_mode="window", race_status=race.status, now=now) is None
