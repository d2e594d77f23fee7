# mypy: disable-error-code="no-untyped-call, arg-type, misc, assignment, attr-defined, dict-item"
"""The tournament admin's "Publish" and "Finish" ask first, as "Cancel the tournament"
does: publishing shows a draft and its races to players and finishing makes the
standings final, neither of which can be taken back, so a mis-click in the action bar
must change nothing.  The page names what each selected tournament will get
(``games.admin.tournament.status_outcome``), what is left alone and why, and posts back
with ``apply``; only then does the action run."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import Tournament
from games.services.races import race_cancel
from tests.factories import StaffFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:games_tournament_changelist"


def _client(language: str = "en") -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _every_kind() -> dict[str, Tournament]:
    """One tournament of each status, and an open one with a race still running; created
    in this order (the page lists them by creation)."""
    # Drafts are played by organisers; here played while open, then made drafts again.
    draft = TournamentFactory(name="Draft Cup")
    finished_race(draft, Result("ann", 30, 900), name="Trial heat")
    running_race(draft, name="Second trial")  # a draft with a race to come
    ready = TournamentFactory(name="Ready Cup")
    finished_race(ready, Result("ann", 30, 900), name="Ready heat 1")
    finished_race(ready, Result("bob", 20, 900), name="Ready heat 2")
    busy = TournamentFactory(name="Busy Cup")
    running_race(busy, name="Busy heat")
    done = TournamentFactory(name="Done Cup")
    finished_race(done, Result("cid", 10, 900), name="Done heat")
    done.status = Tournament.Status.FINISHED
    done.save(update_fields=["status"])
    gone = TournamentFactory(name="Gone Cup")
    race_cancel(race_id=running_race(gone, name="Gone heat").id)
    gone.status = Tournament.Status.CANCELLED
    gone.save(update_fields=["status"])
    ready_draft = TournamentFactory(name="Quiet draft")
    finished_race(ready_draft, Result("dee", 5, 900), name="Quiet heat")
    Tournament.objects.filter(pk__in=[draft.pk, ready_draft.pk]).update(
        status=Tournament.Status.DRAFT
    )
    return {
        "draft": draft,
        "ready": ready,
        "busy": busy,
        "done": done,
        "gone": gone,
        "ready_draft": ready_draft,
    }


def _statuses(ts: dict[str, Tournament]) -> dict[str, str]:
    return {k: Tournament.objects.get(pk=t.pk).status for k, t in ts.items()}


def _lines(page: str) -> list[tuple[str, str]]:
    return re.findall(r'<li data-outcome="(\w+)">([^<]+)</li>', page)


def test_publish_asks_first_and_changes_nothing_until_confirmed() -> None:
    ts = _every_kind()
    before = _statuses(ts)
    client = _client()
    selected = [str(t.pk) for t in ts.values()]
    page = client.post(
        reverse(CHANGELIST), {"action": "publish", "_selected_action": selected}
    ).content.decode()
    assert _statuses(ts) == before  # asked, nothing done
    assert "<title>Publish these 6 tournaments?" in page
    assert "Publishing a draft tournament shows it to players" in page
    assert "A published tournament never goes back to draft." in page
    assert "2 tournaments will be published." in page
    assert _lines(page) == [
        ("publish", "Draft Cup: draft, 2 races; will be open: players see it and its races"),
        ("open", "Ready Cup: open already, left alone"),
        ("open", "Busy Cup: open already, left alone"),
        ("finished", "Done Cup: finished, left alone (a finished tournament is never reopened)"),
        (
            "cancelled",
            "Gone Cup: cancelled, left alone (a cancelled tournament is never reopened)",
        ),
        ("publish", "Quiet draft: draft, 1 race; will be open: players see it and its races"),
    ]
    posted = re.findall(r'name="_selected_action" value="([^"]+)"', page)
    assert sorted(posted) == sorted(selected)
    assert '<input type="hidden" name="action" value="publish">' in page
    assert '<input type="hidden" name="apply" value="1">' in page
    assert 'value="Yes, publish these 2 tournaments"' in page

    resp = client.post(
        reverse(CHANGELIST),
        {"action": "publish", "_selected_action": selected, "apply": "1"},
        follow=True,
    )
    assert _statuses(ts) == {**before, "draft": "open", "ready_draft": "open"}
    said = [(m.level_tag, str(m)) for m in get_messages(resp.wsgi_request)]
    assert said == [
        # The service refuses the finished and cancelled ones, and the admin says why.
        ("error", "Done Cup: A tournament that is finished cannot become open."),
        ("error", "Gone Cup: A tournament that is cancelled cannot become open."),
        ("info", "2 tournaments now open."),
        ("warning", "Left alone: “Ready Cup”, “Busy Cup”, open already."),
    ]


def test_finish_asks_first_and_changes_nothing_until_confirmed() -> None:
    ts = _every_kind()
    before = _statuses(ts)
    client = _client()
    selected = [str(t.pk) for t in ts.values()]
    page = client.post(
        reverse(CHANGELIST), {"action": "finish", "_selected_action": selected}
    ).content.decode()
    assert _statuses(ts) == before
    assert "<title>Finish these 6 tournaments?" in page
    assert "Finishing a tournament re-scores its standings" in page
    assert "This cannot be undone." in page
    assert "2 tournaments will be finished." in page
    assert _lines(page) == [
        (
            "unfinished",
            "Draft Cup: 1 race not finished (upcoming, running or being scored); "
            "left alone: close or cancel it first",
        ),
        ("finish", "Ready Cup: open, 2 races; will be finished, its standings re-scored and final"),
        (
            "unfinished",
            "Busy Cup: 1 race not finished (upcoming, running or being scored); "
            "left alone: close or cancel it first",
        ),
        (
            "rescore",
            "Done Cup: finished already; its standings will be re-scored, nothing else changes",
        ),
        ("cancelled", "Gone Cup: cancelled, left alone (a cancelled tournament is never finished)"),
        (
            "finish_draft",
            "Quiet draft: draft, 1 race; will be published and finished at once, its standings "
            "re-scored and final",
        ),
    ]
    assert '<input type="hidden" name="action" value="finish">' in page
    assert 'value="Yes, finish these 2 tournaments"' in page

    client.post(
        reverse(CHANGELIST), {"action": "finish", "_selected_action": selected, "apply": "1"}
    )
    assert _statuses(ts) == {**before, "ready": "finished", "ready_draft": "finished"}


@pytest.mark.parametrize(
    ("language", "warning", "line", "submit"),
    [
        (
            "fr",
            "Publier un tournoi brouillon le montre aux joueurs",
            "Draft Cup\u202f: brouillon, 2 courses\u202f; sera ouvert\u202f: les joueurs le "
            "voient, ainsi que ses courses",
            "Oui, publier ce tournoi",
        ),
        (
            "es",
            "Publicar un torneo en borrador lo muestra a los jugadores",
            "Draft Cup: borrador, 2 carreras; estará abierto: los jugadores lo ven, junto con "
            "sus carreras",
            "Sí, publicar este torneo",
        ),
        (
            "de",
            "Ein Turnier im Entwurf zu veröffentlichen zeigt es den Spielern",
            "Draft Cup: Entwurf, 2 Rennen; wird geöffnet: Die Spieler sehen es und seine Rennen",
            "Ja, dieses Turnier veröffentlichen",
        ),
    ],
)
def test_the_publish_confirmation_speaks_the_admins_language(
    language: str, warning: str, line: str, submit: str
) -> None:
    draft = TournamentFactory(name="Draft Cup", status=Tournament.Status.DRAFT)
    running_race(draft, name="One")
    running_race(draft, name="Two")
    page = (
        _client(language)
        .post(reverse(CHANGELIST), {"action": "publish", "_selected_action": [str(draft.pk)]})
        .content.decode()
    )
    assert warning in page
    assert _lines(page) == [("publish", line)]
    assert f'value="{submit}"' in page
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT


@pytest.mark.parametrize(
    ("language", "line"),
    [
        (
            "fr",
            "Busy Cup\u202f: 1 course non terminée (à venir, en cours ou en cours de "
            "classement)\u202f; laissé tel quel\u202f: clôturez-la ou annulez-la d\u2019abord",
        ),
        (
            "es",
            "Busy Cup: 1 carrera sin terminar (próxima, en curso o en clasificación); "
            "sin cambios: ciérrela o cancélela antes",
        ),
        (
            "de",
            "Busy Cup: 1 Rennen nicht beendet (demnächst, laufend oder in Wertung); "
            "unverändert: Schließen Sie es zuerst oder sagen Sie es ab",
        ),
    ],
)
def test_the_finish_confirmation_says_why_in_the_admins_language(language: str, line: str) -> None:
    busy = TournamentFactory(name="Busy Cup")
    running_race(busy, name="Busy heat")
    page = (
        _client(language)
        .post(reverse(CHANGELIST), {"action": "finish", "_selected_action": [str(busy.pk)]})
        .content.decode()
    )
    assert _lines(page) == [("unfinished", line)]
    busy.refresh_from_db()
    assert busy.status == Tournament.Status.OPEN


def test_the_actions_say_they_ask_first() -> None:
    TournamentFactory()  # the action bar shows with a row to act on
    actions = re.findall(
        r"<option value=\"\w+\">([^<]+)</option>",
        _client().get(reverse(CHANGELIST)).content.decode(),
    )
    assert "Publish (draft → open; asks first)" in actions
    assert "Finish (final re-score; asks first)" in actions


def _offers(page: str) -> tuple[bool, bool]:
    """Whether the page offers "Yes" (a form posting ``apply``) and the way back."""
    return (
        '<input type="hidden" name="apply" value="1">' in page and 'type="submit"' in page,
        'class="button cancel-link"' in page,
    )


def test_finish_offers_no_yes_when_no_tournament_would_change() -> None:
    ts = _every_kind()
    client = _client()
    selected = [str(ts[k].pk) for k in ("busy", "gone")]
    page = client.post(
        reverse(CHANGELIST), {"action": "finish", "_selected_action": selected}
    ).content.decode()
    assert _offers(page) == (False, True)
    assert "Yes, finish" not in page
    assert "tournaments will be finished." not in page
    assert (
        '<span id="nothing-to-do">Nothing will change: none of these tournaments can be '
        "finished, for the reasons below.</span>" in page
    )
    assert "Back to the list</a>" in page
    # The page and the service's refusal name the unfinished race's states alike.
    states = "not finished (upcoming, running or being scored)"
    assert _lines(page)[0] == (
        "unfinished",
        f"Busy Cup: 1 race {states}; left alone: close or cancel it first",
    )
    resp = client.post(
        reverse(CHANGELIST),
        {"action": "finish", "_selected_action": selected[:1], "apply": "1"},
        follow=True,
    )
    assert [str(m) for m in get_messages(resp.wsgi_request)] == [
        f"Busy Cup: 1 race of the tournament is {states}: close or cancel it before "
        "finishing the tournament."
    ]


def test_finish_still_offers_yes_for_a_re_score_alone() -> None:
    ts = _every_kind()
    page = (
        _client()
        .post(reverse(CHANGELIST), {"action": "finish", "_selected_action": [str(ts["done"].pk)]})
        .content.decode()
    )
    assert _offers(page) == (True, True)
    # Nothing is finished, but the finished one is re-scored: "Yes" names it alone.
    assert "<title>Finish this tournament?" in page
    assert 'value="Yes, finish this tournament"' in page
    assert "0 tournaments will be finished." in page
    assert "nothing-to-do" not in page


def test_publish_offers_no_yes_when_no_tournament_is_a_draft() -> None:
    ts = _every_kind()
    selected = [str(ts[k].pk) for k in ("ready", "done", "gone")]
    page = (
        _client()
        .post(reverse(CHANGELIST), {"action": "publish", "_selected_action": selected})
        .content.decode()
    )
    assert _offers(page) == (False, True)
    assert "Yes, publish" not in page
    assert "will be published." not in page
    assert (
        '<span id="nothing-to-do">Nothing will change: none of these tournaments is a draft.'
        "</span>" in page
    )


@pytest.mark.parametrize(
    ("language", "nothing", "back"),
    [
        (
            "fr",
            "Rien ne changera\u202f: ce tournoi ne peut pas être terminé, pour la raison "
            "ci-dessous.",
            "Retour à la liste",
        ),
        (
            "es",
            "Nada cambiará: este torneo no puede terminarse, por el motivo indicado abajo.",
            "Volver a la lista",
        ),
        (
            "de",
            "Nichts wird geändert: Dieses Turnier kann nicht beendet werden, aus dem unten "
            "genannten Grund.",
            "Zurück zur Liste",
        ),
    ],
)
def test_nothing_to_finish_is_said_in_the_admins_language(
    language: str, nothing: str, back: str
) -> None:
    busy = TournamentFactory(name="Busy Cup")
    running_race(busy, name="Busy heat")
    page = (
        _client(language)
        .post(reverse(CHANGELIST), {"action": "finish", "_selected_action": [str(busy.pk)]})
        .content.decode()
    )
    assert f'<span id="nothing-to-do">{nothing}</span>' in page
    assert f"{back}</a>" in page
    assert _offers(page) == (False, True)
