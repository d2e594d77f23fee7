"""The lobby's polled race lists (``/lobby/races``) and their ETag: what each viewer's
own entries show ("Play", "See your game", "joined") is part of the validator, so a poll
redraws a viewer's rows when their own game ends or starts, and only theirs; and what
every row shows (a race's name too) is part of it, so a rename redraws it for everyone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Race
from games.selectors.races import viewer_lobby_key
from games.services.games import game_end
from games.services.races import race_join, race_start
from tests.factories import make_user
from tests.tournaments.factories import running_race, window_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _poll(client: PageClient, etag: str) -> Any:
    return client.get("/lobby/races", HTTP_IF_NONE_MATCH=etag)


def test_a_poll_redraws_the_viewers_row_when_their_own_game_ends() -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race = running_race(name="Evening race")
    ann_game = race_join(race_id=race.id, player=ann).entry.game_id
    bob_game = race_join(race_id=race.id, player=bob).entry.game_id
    ann_pages, bob_pages = PageClient(ann), PageClient(bob)
    first = ann_pages.get("/lobby/races")
    ann_etag, bob_etag = first["ETag"], bob_pages.get("/lobby/races")["ETag"]
    assert f'class="button" href="/play/{ann_game}/"' in first.content.decode()
    assert _poll(ann_pages, ann_etag).status_code == 304

    game_end(game_id=ann_game, player=ann)  # over for Ann; Bob plays on, the race runs

    again = _poll(ann_pages, ann_etag)
    assert again.status_code == 200
    assert again["ETag"] != ann_etag
    html = again.content.decode()
    assert f'<a href="/play/{ann_game}/">See your game</a>' in html
    assert f'class="button" href="/play/{ann_game}/"' not in html
    # Bob's page shows the same as before (entrant count, his own Play): no redraw.
    unchanged = _poll(bob_pages, bob_etag)
    assert unchanged.status_code == 304
    assert (
        f'class="button" href="/play/{bob_game}/"' in bob_pages.get("/lobby/races").content.decode()
    )


def test_a_poll_redraws_the_viewers_row_when_they_start_a_window_race() -> None:
    race = window_race()
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race_join(race_id=race.id, player=ann)
    race_join(race_id=race.id, player=bob)
    ann_pages, bob_pages = PageClient(ann), PageClient(bob)
    first = ann_pages.get("/lobby/races")
    ann_etag, bob_etag = first["ETag"], bob_pages.get("/lobby/races")["ETag"]
    assert "data-joined" in first.content.decode()  # joined, clock not started

    game = race_start(race_id=race.id, player=ann)  # no new entry: only Ann's row changes

    again = _poll(ann_pages, ann_etag)
    assert again.status_code == 200
    assert f'class="button" href="/play/{game.id}/"' in again.content.decode()
    assert _poll(bob_pages, bob_etag).status_code == 304


def test_the_viewers_key_turns_over_at_their_own_deadline_and_no_one_elses(
    django_assert_num_queries: Any,
) -> None:
    now = timezone.now()
    race = window_race(now)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    game = race_start(race_id=race.id, player=ann, now=now)
    race_join(race_id=race.id, player=bob, now=now)
    assert game.deadline == now + timedelta(seconds=60)
    with django_assert_num_queries(1):
        before = viewer_lobby_key(viewer=ann, now=now + timedelta(seconds=59))
    after = viewer_lobby_key(viewer=ann, now=now + timedelta(seconds=60))
    assert before == f"{race.id}:{game.id}:0"
    assert after == f"{race.id}:{game.id}:1"  # timed out before the sweeper records it
    assert viewer_lobby_key(viewer=bob, now=now + timedelta(seconds=59)) == f"{race.id}::0"
    assert viewer_lobby_key(viewer=bob, now=now + timedelta(seconds=60)) == f"{race.id}::0"


def test_the_viewers_key_leaves_out_finished_races_and_is_empty_for_anonymous() -> None:
    from django.contrib.auth.models import AnonymousUser

    ann = make_user(username="ann")
    race = running_race()
    race_join(race_id=race.id, player=ann)
    Race.objects.filter(id=race.id).update(status=Race.Status.FINISHED)
    assert viewer_lobby_key(viewer=ann, now=timezone.now()) == ""
    assert viewer_lobby_key(viewer=AnonymousUser(), now=timezone.now()) == ""


def test_a_poll_redraws_a_renamed_race_for_everyone() -> None:
    """The organisers may rename a race at any time (``race_rename``, the admin's form):
    its lobby row shows the name, so every viewer's poll redraws it."""
    from games.services.race_admin import race_rename

    race = running_race(name="Evening race")
    pages = PageClient(make_user(username="ann"))
    etag = pages.get("/lobby/races")["ETag"]
    assert _poll(pages, etag).status_code == 304
    race_rename(race_id=race.id, name="Night race")
    again = _poll(pages, etag)
    assert again.status_code == 200
    assert "Night race" in again.content.decode()
    assert "Evening race" not in again.content.decode()


def test_a_poll_redraws_a_finished_race_whose_entrant_deleted_their_account() -> None:
    """A finished race's row counts its entrants; a deleted account takes its entry with
    it (no scheduled race's count moves), and the next poll says one entrant fewer."""
    from tests.tournaments.factories import Result, finished_race

    finished_race(None, Result("ann", 30, 900), Result("bob", 20, 900), name="Past race")
    pages = PageClient(make_user(username="cid"))
    first = pages.get("/lobby/races")
    assert "2 entrants" in first.content.decode()
    User.objects.get(username="bob").delete()
    again = _poll(pages, first["ETag"])
    assert again.status_code == 200
    assert "1 entrant" in again.content.decode()
    assert "2 entrants" not in again.content.decode()
