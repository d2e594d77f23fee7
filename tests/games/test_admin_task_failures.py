# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""Admin actions whose task runs in the web process (``CELERY_TASK_ALWAYS_EAGER=true``,
``games.services.enqueue.tasks_run_here``): a task that raises was logged and swallowed
by ``enqueue_now``, and the action said "1 pool recomputed; its ratings are up to date"
(or "re-rated", or "Closed now: 1 race.") all the same.  Now the failure is an error
message with the reason, the object is not counted among those done, and the data is
as the task's one transaction left it: the ratings as they were, the action's own write
saved (a race marked unrated stays so, and stale, for the next recomputation).

Run with autocommit (``transaction=True``), as a request is: each service's
``on_commit`` task then runs inside the action, as in production's web process."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import PlayerRating, Race, RatingPool
from games.services import ratings as ratings_service
from games.services.enqueue import enqueue_now, task_failures_here
from games.services.ratings import race_rate
from tests.ratings.helpers import Result, race_of
from tests.tournaments.factories import play, running_race

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from canfield_site.celery import app

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)


def _broken(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service ``name`` of games.services.ratings raises (the task imports it when it
    runs, so the task raises)."""

    def boom(**_: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(ratings_service, name, boom)


def _organiser() -> Client:
    # A superuser: transactional tests flush the organisers group its migration made.
    org = User.objects.filter(username="org").first() or User.objects.create_superuser(
        "org", "org@example.test", "a-long-test-password-91"
    )
    client = Client()
    client.force_login(org)
    return client


def _act(client: Client, changelist: str, action: str, pk: Any, **extra: Any) -> list[str]:
    resp = client.post(
        reverse(changelist),
        {"action": action, "_selected_action": [str(pk)], **extra},
    )
    assert resp.status_code == 302
    return [f"{m.level_tag}: {m}" for m in get_messages(resp.wsgi_request)]


def _rated_pool() -> tuple[RatingPool, Race]:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="Evening race")
    race_rate(race_id=race.id)
    return RatingPool.objects.get(key="classic"), race


def test_task_failures_here_collects_what_raised_in_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _broken("race_rate", monkeypatch)
    with task_failures_here() as failed:
        assert enqueue_now("games.race_rate", kwargs={"race_id": "r1"}) is False
    assert [(f.task, f.kwargs, f.reason) for f in failed] == [
        ("games.race_rate", {"race_id": "r1"}, "RuntimeError: boom")
    ]
    # Outside a block nothing is collected, and the caller still gets False (logged).
    assert enqueue_now("games.race_rate", kwargs={"race_id": "r1"}) is False


def test_recompute_that_raised_says_so_and_leaves_the_ratings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool, _race = _rated_pool()
    PlayerRating.objects.filter(player__username="ann").update(mu=1.0)  # to be recomputed
    _broken("pool_recompute", monkeypatch)
    said = _act(_organiser(), "admin:games_ratingpool_changelist", "recompute", pool.pk)
    assert said == [
        f"error: {pool}: recomputing the pool failed (RuntimeError: boom). Its ratings are "
        "as they were."
    ]
    assert PlayerRating.objects.get(player__username="ann").mu == 1.0
    assert RatingPool.objects.get(pk=pool.pk).recomputed_at is None
    assert LogEntry.objects.get(object_id=str(pool.pk)).change_message == (
        "Recompute failed: RuntimeError: boom"
    )


def test_recompute_that_ran_says_the_ratings_are_up_to_date() -> None:
    pool, _race = _rated_pool()
    PlayerRating.objects.filter(player__username="ann").update(mu=1.0)
    said = _act(_organiser(), "admin:games_ratingpool_changelist", "recompute", pool.pk)
    assert said == ["success: 1 pool recomputed from all its races; its ratings are up to date."]
    assert PlayerRating.objects.get(player__username="ann").mu > 1.0


def test_recompute_error_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    pool, _race = _rated_pool()
    _broken("pool_recompute", monkeypatch)
    client = _organiser()
    resp = client.post(
        reverse("admin:games_ratingpool_changelist"),
        {"action": "recompute", "_selected_action": [str(pool.pk)]},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    (said,) = [str(m) for m in get_messages(resp.wsgi_request)]
    assert "Neuberechnung der Rangliste ist fehlgeschlagen (RuntimeError: boom)" in said


def test_mark_unrated_whose_re_rating_raised_says_so_and_stays_consistent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool, race = _rated_pool()
    before = {r.player.username: r.mu for r in PlayerRating.objects.select_related("player")}
    _broken("race_rate", monkeypatch)
    said = _act(_organiser(), "admin:games_racerating_changelist", "mark_unrated", race.pk)
    assert said == [
        "error: Evening race: saved, but rating the race failed (RuntimeError: boom). The "
        "ratings are as they were; Recompute pool (under Rating pools) brings them up to "
        "date once the cause is fixed."
    ]
    race.refresh_from_db()
    assert (race.rated, race.rating_stale) == (False, True)  # saved, and due a re-rating
    after = {r.player.username: r.mu for r in PlayerRating.objects.select_related("player")}
    assert after == before
    assert LogEntry.objects.filter(object_id=str(race.pk), change_message="Marked unrated")
    # Once the cause is gone, Recompute pool rates the pool without the race.
    monkeypatch.undo()
    from canfield_site.celery import app

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    _act(_organiser(), "admin:games_ratingpool_changelist", "recompute", pool.pk)
    race.refresh_from_db()
    assert race.rating_stale is False
    assert not PlayerRating.objects.filter(games_rated__gt=0).exists()


def test_mark_unrated_that_ran_says_it_was_re_rated() -> None:
    _pool, race = _rated_pool()
    said = _act(_organiser(), "admin:games_racerating_changelist", "mark_unrated", race.pk)
    assert said == ["info: 1 race marked unrated; its pool was re-rated from it on."]
    race.refresh_from_db()
    assert (race.rated, race.rating_stale) == (False, False)


def _played_race() -> Race:
    race = running_race(name="Live race")
    play(race, Result("ann", 30, 1000))
    play(race, Result("bob", 20, 1000))
    return race


def test_close_now_whose_rating_raised_says_so_instead_of_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    race = _played_race()
    _broken("race_rate", monkeypatch)
    said = _act(_organiser(), "admin:games_race_changelist", "close_now", race.pk, apply="1")
    assert said == [
        "error: Live race: saved, but rating the race failed (RuntimeError: boom). The "
        "ratings are as they were; Recompute pool (under Rating pools) brings them up to "
        "date once the cause is fixed."
    ]
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED  # the close is its own, committed write
    assert not PlayerRating.objects.exists()  # nothing rated
    assert LogEntry.objects.filter(object_id=str(race.pk), change_message="Closed now")


def test_close_now_that_rated_says_closed() -> None:
    race = _played_race()
    said = _act(_organiser(), "admin:games_race_changelist", "close_now", race.pk, apply="1")
    assert said == ["info: Closed now: 1 race."]
    assert PlayerRating.objects.filter(games_rated=1).count() == 2


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "fr",
            "Course «\u202fCup\u202f»\u202f: modifications enregistr\u00e9es, mais sa t\u00e2che",
        ),
        ("es", "Carrera \u00abCup\u00bb: cambios guardados, pero su tarea"),
    ],
)
def test_saved_but_the_task_failed_agrees_with_any_object(lang: str, said: str) -> None:
    """ "La course … : enregistré" did not agree with a feminine object (nor "guardado"
    with "la carrera"): the words now name what was saved, the changes."""
    from django.utils import translation

    obj = {"fr": "Course «\u202fCup\u202f»", "es": "Carrera \u00abCup\u00bb"}[lang]
    with translation.override(lang):
        text = translation.gettext(
            "%(object)s: saved, but its task %(task)s failed (%(reason)s)."
        ) % {"object": obj, "task": "close", "reason": "boom"}
    assert text.startswith(said)
