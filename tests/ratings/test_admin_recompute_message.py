# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""*Recompute pool* says what happened: with tasks run in the web process
(``CELERY_TASK_ALWAYS_EAGER=true``) the pool is recomputed before the list it returns to
is drawn, and the message said "ratings update when the task finishes" all the same; now
it says they are up to date, and keeps the old words where a worker runs the task (the
embedded default and production), as *Mark rated* does
(tests/games/test_admin_confirm_counts.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import PlayerRating, RatingPool
from games.services.ratings import race_rate
from tests.factories import StaffFactory
from tests.ratings.helpers import Result, race_of

pytestmark = pytest.mark.django_db

NN = "\u202f"  # French narrow no-break space

#: The message for one pool recomputed in the web process.
DONE = {
    "en": "1 pool recomputed from all its races; its ratings are up to date.",
    "fr": f"1 classement des joueurs recalculé à partir de toutes ses courses{NN}; ses cotes "
    "sont à jour.",
    "es": "1 tabla de valoración recalculada a partir de todas sus carreras; sus valoraciones "
    "están al día.",
    "de": "1 Rangliste aus all ihren Rennen neu berechnet; ihre Wertungen sind aktuell.",
}

#: The message for one pool whose recomputation a worker will run.
QUEUED = {
    "en": "Recomputing 1 pool; ratings update when the task finishes.",
    "fr": f"Recalcul de 1 classement des joueurs{NN}; les cotes se mettent à jour à la fin de "
    "la tâche.",
    "es": "Recalculando 1 tabla de valoración; las valoraciones se actualizan cuando termina "
    "la tarea.",
    "de": "1 Rangliste wird neu berechnet; die Wertungen ändern sich, wenn die Aufgabe fertig ist.",
}


def _recompute(language: str, capture: Any) -> list[str]:
    """An organiser's *Recompute pool* on the classic pool, whose rating of "ann" was
    tampered with (mu 1.0); the messages it leaves."""
    race_rate(race_id=race_of(Result("ann", 40, 1000), Result("bob", 30, 1000)).id)
    PlayerRating.objects.filter(player__username="ann").update(mu=1.0)
    pool = RatingPool.objects.get(key="classic")
    org: User = StaffFactory(username="org")
    org.groups.add(Group.objects.get(name="organisers"))
    client = Client()
    client.force_login(org)
    with capture(execute=True):
        resp = client.post(
            reverse("admin:games_ratingpool_changelist"),
            {"action": "recompute", "_selected_action": [str(pool.pk)]},
            HTTP_ACCEPT_LANGUAGE=language,
        )
    assert resp.status_code == 302
    return [str(m) for m in get_messages(resp.wsgi_request)]


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_recompute_with_tasks_in_process_says_the_ratings_are_up_to_date(
    language: str, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from canfield_site.celery import app

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    assert _recompute(language, django_capture_on_commit_callbacks) == [DONE[language]]
    assert PlayerRating.objects.get(player__username="ann").mu > 1.0  # recomputed already
    assert RatingPool.objects.get(key="classic").recomputed_at is not None


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_recompute_on_a_worker_says_the_ratings_update_when_it_finishes(
    language: str, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from canfield_site.celery import app
    from games.services import ratings

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", False)
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(name: str, *, kwargs: dict[str, Any]) -> bool:
        sent.append((name, kwargs))
        return True

    monkeypatch.setattr(ratings, "enqueue_now", record)
    assert _recompute(language, django_capture_on_commit_callbacks) == [QUEUED[language]]
    assert [name for name, _ in sent] == ["games.rating_pool_recompute"]
    assert PlayerRating.objects.get(player__username="ann").mu == 1.0  # the worker's to do
