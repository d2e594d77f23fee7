# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""*Cancel the tournament* on tournaments none of which it would cancel (a draft, a
finished or an already cancelled one) says nothing will change and offers only the way
back, as *Publish* and *Finish* do; it offered "Yes, cancel these tournaments and their
races" over "0 races will be cancelled.".  A tournament cancelled already is left alone
and named: it was counted "1 tournament now cancelled." and logged "Status set to
cancelled (0 races cancelled)" again."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from games.models import Tournament
from games.services.tournaments import tournament_set_status
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser
from tests.tournaments.test_admin_services import later_race

pytestmark = pytest.mark.django_db

URL = "admin:games_tournament_changelist"


def cancelled(name: str) -> Tournament:
    t = TournamentFactory(name=name)
    tournament_set_status(tournament_id=t.pk, status=Tournament.Status.CANCELLED)
    return Tournament.objects.get(pk=t.pk)


@pytest.mark.parametrize(
    ("lang", "nothing", "back"),
    [
        (
            "en",
            "Nothing will change: none of these tournaments can be cancelled.",
            "Back to the list",
        ),
        (
            "fr",
            "Rien ne changera\u202f: aucun de ces tournois ne peut être annulé.",
            "Retour à la liste",
        ),
        ("es", "Nada cambiará: ninguno de estos torneos puede cancelarse.", "Volver a la lista"),
        (
            "de",
            "Nichts wird geändert: Keines dieser Turniere kann abgesagt werden.",
            "Zurück zur Liste",
        ),
    ],
)
def test_nothing_to_cancel_offers_only_the_way_back(lang: str, nothing: str, back: str) -> None:
    draft = TournamentFactory(name="Rehearsal", status=Tournament.Status.DRAFT)
    later_race(draft, name="secret")
    gone = cancelled("Gone")
    page = (
        client_for(organiser())
        .post(
            reverse(URL),
            {"action": "cancel", "_selected_action": [str(draft.pk), str(gone.pk)]},
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        .content.decode()
    )
    assert nothing in page
    assert 'name="apply"' not in page
    assert back in page


def test_a_cancelled_tournament_is_left_alone_and_named() -> None:
    gone = cancelled("Gone")
    live = TournamentFactory(name="Live")
    c = client_for(organiser())
    page = c.post(
        reverse(URL), {"action": "cancel", "_selected_action": [str(gone.pk), str(live.pk)]}
    ).content.decode()
    assert "1 race will be cancelled." not in page
    assert "1 tournament will be cancelled. No race will be cancelled." in page
    assert "Gone (cancelled): cancelled already, left alone" in page
    assert 'name="apply"' in page
    resp = c.post(
        reverse(URL),
        {"action": "cancel", "_selected_action": [str(gone.pk), str(live.pk)], "apply": "1"},
        follow=True,
    )
    assert [str(m) for m in resp.context["messages"]] == [
        "1 tournament now cancelled. 0 unfinished races were cancelled too.",
        "Already cancelled, left alone: “Gone”.",
    ]
    assert not LogEntry.objects.filter(object_id=str(gone.pk)).exists()


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["Gone"], "Déjà annulé, laissé tel quel\u202f: «\u202fGone\u202f»."),
        (
            ["Gone", "Past"],
            "Déjà annulés, laissés tels quels\u202f: «\u202fGone\u202f», «\u202fPast\u202f».",
        ),
    ],
)
def test_the_left_alone_message_agrees_with_how_many_in_french(names: list[str], said: str) -> None:
    """One tournament named is singular ("annulé"); it read "annulés" whatever the count."""
    ids = [str(cancelled(name).pk) for name in names] + [str(TournamentFactory(name="Live").pk)]
    resp = client_for(organiser()).post(
        reverse(URL),
        {"action": "cancel", "_selected_action": ids, "apply": "1"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert said in [str(m) for m in resp.context["messages"]]
