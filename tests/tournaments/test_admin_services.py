# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Every admin write goes through a service (issue 18 item 4): the add and change forms,
the entrants inline and list, and moving a race between tournaments refuse what the
services refuse, and nothing half-done is left behind."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Deal, Race, RaceEntry, Tournament, TournamentEntrant
from games.services.errors import InvalidRace, InvalidTournament, NotFound, TournamentNotOpen
from games.services.race_admin import race_move
from games.services.races import race_create
from games.services.tournament_admin import tournament_delete, tournament_entrant_remove
from games.services.tournaments import tournament_admit, tournament_set_status
from tests.factories import UserFactory
from tests.tournaments.factories import Result, TournamentFactory, play, running_race
from tests.tournaments.test_admin import client_for, organiser, tournament_post

pytestmark = pytest.mark.django_db


def messages_of(resp: Any) -> list[str]:
    """The messages queued so far, the newest last."""
    return [str(m) for m in get_messages(resp.wsgi_request)]


def later_race(tournament: Tournament | None = None, **kw: Any) -> Race:
    """A race that starts in an hour (not open yet)."""
    now = timezone.now()
    race = race_create(
        name=kw.pop("name", "later"),
        opens_at=now + timedelta(minutes=50),
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=1, minutes=10),
    )
    if tournament is not None:
        race.tournament = tournament
        race.save(update_fields=["tournament"])
    return race


def test_add_form_refuses_a_tournament_already_finished() -> None:
    c = client_for(organiser())
    resp = c.post(reverse("admin:games_tournament_add"), tournament_post(status="finished"))
    assert resp.status_code == 200
    assert "status" in resp.context["adminform"].form.errors
    assert not Tournament.objects.exists()


def test_add_form_refuses_max_entrants_zero() -> None:
    c = client_for(organiser())
    resp = c.post(reverse("admin:games_tournament_add"), tournament_post(max_entrants=0))
    assert resp.status_code == 200
    errors = resp.context["adminform"].form.non_field_errors()
    assert errors == ["“max entrants” must be at least 1 (or empty for no limit)."]
    assert not Tournament.objects.exists()


def test_add_form_creates_through_the_service() -> None:
    org = organiser()
    c = client_for(org)
    resp = c.post(reverse("admin:games_tournament_add"), tournament_post(status="draft"))
    assert resp.status_code == 302
    t = Tournament.objects.get()
    assert (t.name, t.status, t.points_table, t.created_by) == (
        "Spring Cup",
        "draft",
        [10, 6, 3],
        org,
    )


def test_entrants_inline_cannot_admit_past_max_entrants() -> None:
    c = client_for(organiser())
    t = TournamentFactory(max_entrants=1)
    UserFactory(username="ann"), UserFactory(username="bob")
    data = tournament_post(
        name=t.name,
        max_entrants=1,
        **{
            "entrants-TOTAL_FORMS": 2,
            "entrants-0-player": "ann",
            "entrants-1-player": "bob",
        },
    )
    del data["status"]  # read only on the change form
    resp = c.post(reverse("admin:games_tournament_change", args=[t.pk]), data)
    assert resp.status_code == 302
    assert TournamentEntrant.objects.filter(tournament=t).count() == 0  # all or nothing
    assert messages_of(resp) == ["Nothing was saved: The tournament is full (1 player)."]
    # One at a time: the first is admitted (invited by the organiser), the second refused.
    data.update({"entrants-TOTAL_FORMS": 1})
    del data["entrants-1-player"]
    assert c.post(reverse("admin:games_tournament_change", args=[t.pk]), data).status_code == 302
    assert [e.player.username for e in TournamentEntrant.objects.filter(tournament=t)] == ["ann"]
    assert TournamentEntrant.objects.get(tournament=t).invited_by is not None


def test_entrant_list_add_goes_through_tournament_admit() -> None:
    org = organiser()
    c = client_for(org)
    t = TournamentFactory(max_entrants=1, entry=Tournament.Entry.INVITE)
    ann, _bob = UserFactory(username="ann"), UserFactory(username="bob")
    url = reverse("admin:games_tournamententrant_add")
    assert c.post(url, {"tournament": t.pk, "player": "ann"}).status_code == 302
    resp = c.post(url, {"tournament": t.pk, "player": "bob"})
    assert messages_of(resp)[-1] == "Nothing was saved: The tournament is full (1 player)."
    assert [(e.player, e.invited_by) for e in t.entrants.all()] == [(ann, org)]
    finished = TournamentFactory(status=Tournament.Status.FINISHED)
    resp = c.post(url, {"tournament": finished.pk, "player": "bob"})
    assert messages_of(resp)[-1] == "Nothing was saved: The tournament is finished."
    assert not finished.entrants.exists()


def test_change_form_cannot_lower_max_entrants_below_the_admitted() -> None:
    c = client_for(organiser())
    t = TournamentFactory(max_entrants=3)
    for name in ("ann", "bob"):
        TournamentEntrant.objects.create(tournament=t, player=UserFactory(username=name))
    data = tournament_post(
        name=t.name,
        max_entrants=1,
        **{"entrants-TOTAL_FORMS": 2, "entrants-INITIAL_FORMS": 2},
    )
    for i, e in enumerate(t.entrants.order_by("id")):
        data[f"entrants-{i}-id"] = e.pk
        data[f"entrants-{i}-tournament"] = t.pk
    del data["status"]
    resp = c.post(reverse("admin:games_tournament_change", args=[t.pk]), data)
    assert messages_of(resp) == [
        "Nothing was saved: 2 players are already admitted: “max entrants” cannot be lower."
    ]
    t.refresh_from_db()
    assert t.max_entrants == 3


def test_change_form_rescores_when_the_scheme_changes() -> None:
    c = client_for(organiser())
    t = TournamentFactory(points_table=[10, 8, 6])
    race = running_race(t)
    play(race, Result("ann", 30, 1000))
    play(race, Result("bob", 20, 1000))
    c.post(
        reverse("admin:games_race_changelist"),
        {"action": "close_now", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    assert [s.points for s in t.standings.order_by("rank")] == [10, 8]
    data = tournament_post(name=t.name, points_table="[3, 1]")
    del data["status"]
    assert c.post(reverse("admin:games_tournament_change", args=[t.pk]), data).status_code == 302
    assert [s.points for s in t.standings.order_by("rank")] == [3, 1]


def test_a_tournament_with_races_is_not_deleted() -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Kept Cup")
    later_race(t, name="Heat 1")
    resp = c.post(reverse("admin:games_tournament_delete", args=[t.pk]), {"post": "yes"})
    # Refused before the service: the page says the races are kept and what to do
    # instead (it used to say the account lacked permission to delete "race").
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "<h1>Cannot delete tournament</h1>" in page
    assert (
        '<ul id="deleted-objects">\t<li>“Kept Cup” and its race, which are public: a '
        "published tournament is not deleted but cancelled (the list\u2019s action "
        "“Cancel the tournament”), which keeps its race and results.</li></ul>"
    ).replace("\u2019", "&#x27;") in page
    assert "permission" not in page
    assert Tournament.objects.filter(pk=t.pk).exists()


def test_deleting_tournaments_with_races_from_the_list_says_why_not() -> None:
    c = client_for(organiser())
    kept = TournamentFactory(name="Kept Cup")
    later_race(kept)
    later_race(kept)
    draft = TournamentFactory(status=Tournament.Status.DRAFT, name="Draft Cup")
    entered = later_race(draft)
    RaceEntry.objects.create(race=entered, player=UserFactory())
    resp = c.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "delete_selected", "_selected_action": [str(kept.pk), str(draft.pk)]},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    page = resp.content.decode()
    assert "“Kept Cup” and its 2 races, which are public" in page
    assert "“Draft Cup”: 1 race of the draft has entrants: publish and cancel" in page
    assert "permission" not in page
    assert 'name="post"' not in page  # nothing to confirm
    assert Tournament.objects.filter(pk__in=[kept.pk, draft.pk]).count() == 2


@pytest.mark.parametrize(
    ("status", "lang", "words"),
    [
        (
            Tournament.Status.FINISHED,
            "en",
            "“Over Cup” and its race are kept: a finished or cancelled tournament is not "
            "deleted (its race stays public, with its results).",
        ),
        (
            Tournament.Status.CANCELLED,
            "fr",
            "«\u202fOver Cup\u202f» et sa course sont conservés\u202f: un tournoi terminé "
            "ou annulé ne se supprime pas (sa course reste publique, avec ses résultats).",
        ),
        (
            Tournament.Status.FINISHED,
            "es",
            "«Over Cup» y su carrera se conservan: un torneo terminado o cancelado no se "
            "elimina (su carrera sigue siendo pública, con sus resultados).",
        ),
        (
            Tournament.Status.CANCELLED,
            "de",
            "„Over Cup“ und sein Rennen bleiben erhalten: Ein beendetes oder abgesagtes "
            "Turnier wird nicht gelöscht (sein Rennen bleibt mit den Ergebnissen öffentlich).",
        ),
    ],
)
def test_deleting_a_tournament_that_is_over_does_not_send_to_cancel(
    status: str, lang: str, words: str
) -> None:
    """A finished or cancelled tournament with races is kept, as an open one is, but
    "Cancel the tournament" refuses it: the page said to cancel it all the same."""
    c = client_for(organiser())
    t = TournamentFactory(name="Over Cup")
    later_race(t)
    Tournament.objects.filter(pk=t.pk).update(status=status)
    resp = c.post(
        reverse("admin:games_tournament_delete", args=[t.pk]),
        {"post": "yes"},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    page = resp.content.decode()
    assert words.replace("\u2019", "&#x27;") in page
    assert "Cancel the tournament" not in page
    assert Tournament.objects.filter(pk=t.pk).exists()


def test_a_tournament_without_races_is_deleted_by_the_admin() -> None:
    c = client_for(organiser())
    t = TournamentFactory(status=Tournament.Status.DRAFT, name="Mistake")
    TournamentEntrant.objects.create(tournament=t, player=UserFactory(username="ann"))
    resp = c.post(reverse("admin:games_tournament_delete", args=[t.pk]), {"post": "yes"})
    assert (resp.status_code, resp["Location"]) == (
        302,
        reverse("admin:games_tournament_changelist"),
    )
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert not TournamentEntrant.objects.filter(tournament_id=t.pk).exists()


def test_tournament_delete_refuses_a_tournament_with_races() -> None:
    """The service's own check, under the tournament's lock (a race added after the
    admin's confirmation page was drawn reaches it)."""
    t = TournamentFactory()
    later_race(t)
    later_race(t)
    with pytest.raises(InvalidTournament) as exc:
        tournament_delete(tournament_id=t.pk)
    assert exc.value.detail == "the tournament has 2 race(s): cancel it instead of deleting it"
    assert Tournament.objects.filter(pk=t.pk).exists()
    with pytest.raises(NotFound):
        tournament_delete(tournament_id=uuid.uuid4())
    with pytest.raises(NotFound):
        tournament_delete(tournament_id="not-an-id")


def test_removing_an_entrant_goes_through_the_service() -> None:
    org = organiser()
    c = client_for(org)
    t = TournamentFactory(max_entrants=1, entry=Tournament.Entry.INVITE)
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    entrant = tournament_admit(tournament_id=t.pk, player=ann, invited_by=org)
    url = reverse("admin:games_tournamententrant_delete", args=[entrant.pk])
    resp = c.post(url, {"post": "yes"})
    assert (resp.status_code, resp["Location"]) == (
        302,
        reverse("admin:games_tournamententrant_changelist"),
    )
    assert not t.entrants.exists()
    # The place is free again.
    assert tournament_admit(tournament_id=t.pk, player=bob, invited_by=org).player.username == "bob"


def test_the_entrants_of_a_finished_tournament_stay() -> None:
    c = client_for(organiser())
    t = TournamentFactory()
    entrant = tournament_admit(tournament_id=t.pk, player=UserFactory(username="ann"))
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    url = reverse("admin:games_tournamententrant_delete", args=[entrant.pk])
    resp = c.post(url, {"post": "yes"})
    assert (resp.status_code, resp["Location"]) == (302, url)
    assert messages_of(resp) == [
        "Nothing was deleted: The tournament is finished: its entrants are final."
    ]
    assert list(t.entrants.all()) == [entrant]
    with pytest.raises(TournamentNotOpen):
        tournament_entrant_remove(entrant_id=entrant.pk)
    with pytest.raises(NotFound):
        tournament_entrant_remove(entrant_id=uuid.uuid4())
    with pytest.raises(NotFound):
        tournament_entrant_remove(entrant_id="not-an-id")
    assert list(t.entrants.all()) == [entrant]


def test_moving_a_race_goes_through_race_move() -> None:
    c = client_for(organiser())
    a, b = TournamentFactory(name="A"), TournamentFactory(name="B")
    race = later_race(a)
    url = reverse("admin:games_race_change", args=[race.pk])
    resp = c.post(
        url,
        {
            "name": "Renamed",
            "tournament": b.pk,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
    )
    assert resp.status_code == 302
    race.refresh_from_db()
    assert (race.name, race.tournament_id) == ("Renamed", b.pk)
    # Into a finished tournament: refused, nothing saved (not even the new name).
    done = TournamentFactory(name="Done", status=Tournament.Status.FINISHED)
    resp = c.post(
        url,
        {
            "name": "Again",
            "tournament": done.pk,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
    )
    assert messages_of(resp)[-1] == (
        "Nothing was saved: The tournament is finished: no races can be added to it."
    )
    race.refresh_from_db()
    assert (race.name, race.tournament_id) == ("Renamed", b.pk)


def test_race_move_refuses_a_race_with_entrants_or_started() -> None:
    a, b = TournamentFactory(), TournamentFactory()
    running = running_race(a)
    with pytest.raises(InvalidRace, match="only a race not started can move"):
        race_move(race_id=running.pk, tournament_id=b.pk)
    joined = later_race(a)
    Race.objects.filter(pk=joined.pk).update(opens_at=timezone.now() - timedelta(minutes=1))
    play(joined, Result("ann", 1, 0))
    with pytest.raises(InvalidRace, match="1 entrant"):
        race_move(race_id=joined.pk, tournament_id=b.pk)
    cancelled = TournamentFactory(status=Tournament.Status.CANCELLED)
    with pytest.raises(TournamentNotOpen):
        race_move(race_id=later_race(a).pk, tournament_id=cancelled.pk)
    free = later_race(a)
    for missing in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(NotFound):
            race_move(race_id=free.pk, tournament_id=missing)
    assert race_move(race_id=free.pk, tournament_id=None).tournament_id is None
    assert race_move(race_id=free.pk, tournament_id=b.pk).tournament_id == b.pk


@pytest.mark.postgres
def test_race_move_locks_the_race_then_both_tournaments() -> None:
    a, b = TournamentFactory(), TournamentFactory()
    race = later_race(a)
    with CaptureQueriesContext(connection) as ctx:
        race_move(race_id=race.pk, tournament_id=b.pk)
    locks = [q["sql"] for q in ctx.captured_queries if "FOR NO KEY UPDATE" in q["sql"]]
    assert len(locks) == 2
    assert '"games_race"' in locks[0].split("WHERE")[0]
    assert '"games_tournament"' in locks[1].split("WHERE")[0]
    assert str(a.pk).replace("-", "") in locks[1] or str(a.pk) in locks[1]
    assert str(b.pk).replace("-", "") in locks[1] or str(b.pk) in locks[1]


def test_saving_an_entry_page_writes_nothing() -> None:
    c = client_for(organiser())
    race = running_race(TournamentFactory())
    entry = play(race, Result("ann", 30, 1000))
    before = RaceEntry.objects.filter(pk=entry.pk).values().get()
    with CaptureQueriesContext(connection) as ctx:
        resp = c.post(
            reverse("admin:games_raceentry_change", args=[entry.pk]),
            {"rank": 1, "cards_home": 52, "won": "on", "disqualified": "on"},
        )
    assert resp.status_code == 302
    writes = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("UPDATE")]
    assert not [w for w in writes if "games_raceentry" in w], writes
    assert RaceEntry.objects.filter(pk=entry.pk).values().get() == before


def test_a_tournament_with_a_race_still_scheduled_or_closing_is_not_finished() -> None:
    """Finishing publishes final standings: a race still to be played or scored would
    change them afterwards, so the service refuses until each is finished or cancelled."""
    from games.services.race_admin import race_cancel_now, race_close_now
    from games.services.tournaments import tournament_set_status
    from tests.tournaments.factories import finished_race

    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 100), Result("ben", 20, 100))
    running = running_race(t, name="final")
    play(running, Result("ann", 10, 100))
    later = running_race(t, name="later")
    with pytest.raises(InvalidTournament) as refused:
        tournament_set_status(tournament_id=t.id, status="finished")
    assert refused.value.code == "invalid_tournament"
    assert refused.value.detail == (
        "2 race(s) of the tournament are not finished (scheduled or closing): "
        "close or cancel them before finishing it"
    )
    t.refresh_from_db()
    assert t.status == Tournament.Status.OPEN

    race_cancel_now(race_id=later.id)
    Race.objects.filter(id=running.id).update(status=Race.Status.CLOSING)  # being scored
    with pytest.raises(InvalidTournament, match="^1 race"):
        tournament_set_status(tournament_id=t.id, status="finished")
    Race.objects.filter(id=running.id).update(status=Race.Status.SCHEDULED)
    race_close_now(race_id=running.id, now=running.ends_at)
    assert tournament_set_status(tournament_id=t.id, status="finished").status == "finished"


def test_the_finish_action_says_why_a_tournament_is_not_finished() -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Busy Cup")
    running_race(t)
    resp = c.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "finish", "_selected_action": [str(t.pk)], "apply": "1"},
        follow=True,
    )
    assert [(m.level_tag, m.message) for m in get_messages(resp.wsgi_request)] == [
        (
            "error",
            "Busy Cup: 1 race of the tournament is not finished (upcoming, running or being "
            "scored): close or cancel it before finishing the tournament.",
        )
    ]
    t.refresh_from_db()
    assert t.status == Tournament.Status.OPEN


def test_a_draft_is_deleted_with_its_races_nobody_entered() -> None:
    """A draft was never shown to players: it goes with its races and their deals, on
    the admin's delete page (listed, not protected) as through the service."""
    c = client_for(organiser())
    t = TournamentFactory(status=Tournament.Status.DRAFT, name="Mistaken draft")
    heats = [later_race(t, name="Heat 1"), later_race(t, name="Heat 2")]
    deals = [race.deal_id for race in heats]
    page = c.get(reverse("admin:games_tournament_delete", args=[t.pk])).content.decode()
    assert "Cannot delete tournament" not in page
    assert "Race: Heat 1" in page
    assert "Race: Heat 2" in page
    resp = c.post(reverse("admin:games_tournament_delete", args=[t.pk]), {"post": "yes"})
    assert (resp.status_code, resp["Location"]) == (
        302,
        reverse("admin:games_tournament_changelist"),
    )
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert not Race.objects.filter(id__in=[race.id for race in heats]).exists()
    assert not Deal.objects.filter(id__in=deals).exists()


def test_a_draft_whose_race_has_an_entrant_is_kept() -> None:
    t = TournamentFactory(status=Tournament.Status.DRAFT)
    later_race(t, name="Heat 1")
    tried = running_race(t, name="Tried by staff")
    RaceEntry.objects.create(race=tried, player=UserFactory(username="staffer"))
    with pytest.raises(InvalidTournament) as exc:
        tournament_delete(tournament_id=t.pk)
    assert exc.value.detail == (
        "1 race(s) of the draft have entrants: publish and cancel the tournament, or leave "
        "it a draft (players never see it)"
    )
    assert Race.objects.filter(tournament=t).count() == 2
    page = client_for(organiser()).get(reverse("admin:games_tournament_delete", args=[t.pk]))
    assert "<h1>Cannot delete tournament</h1>" in page.content.decode()


def test_a_draft_is_not_cancelled_which_would_publish_its_seeds() -> None:
    t = TournamentFactory(status=Tournament.Status.DRAFT)
    race = later_race(t)
    with pytest.raises(InvalidTournament) as exc:
        tournament_set_status(tournament_id=t.pk, status="cancelled")
    assert exc.value.detail.startswith("a draft tournament was never published: delete it")
    t.refresh_from_db()
    race.refresh_from_db()
    assert (t.status, race.status) == ("draft", "scheduled")
