# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The organisers' admin through Django's test client: add races, close, disqualify,
re-score; the seed never shows before the end; non-staff are refused."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from tests.factories import StaffFactory, UserFactory
from tests.tournaments.factories import Result, TournamentFactory, play, running_race

#: A year always ahead of the clock (a fixed one fails once it has passed).
YEAR = timezone.now().year + 3

pytestmark = pytest.mark.django_db


INLINES = ("standings", "races", "entrants")


def tournament_post(**fields: Any) -> dict[str, Any]:
    """The tournament add/change form's POST data, with empty inlines unless given."""
    data: dict[str, Any] = {
        "name": "Spring Cup",
        "description": "",
        "status": "open",
        "scoring": "place_points",
        "points_table": "[10, 6, 3]",
        "points_per_card": 1,
        "win_bonus": 20,
        "entry": "open",
        "max_entrants": "",
    }
    for p in INLINES:
        data[f"{p}-TOTAL_FORMS"] = 0
        data[f"{p}-INITIAL_FORMS"] = 0
    data.update(fields)
    return data


def organiser() -> User:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    return user


def client_for(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_organiser_creates_tournament_adds_races_closes_disqualifies_rescores() -> None:
    org = organiser()
    assert not org.is_superuser
    c = client_for(org)
    resp = c.post(
        reverse("admin:games_tournament_add"),
        tournament_post(name="Winter Cup", description="three races"),
    )
    assert resp.status_code == 302, resp.content.decode()[:3000]
    t = Tournament.objects.get(name="Winter Cup")
    assert t.created_by == org
    assert t.points_table == [10, 6, 3]

    resp = c.post(
        reverse("admin:games_tournament_add_races", args=[t.pk]),
        {
            "count": 3,
            "first_starts_at": f"{YEAR}-01-01 10:00",
            "duration": "10:00",
            "gap": "5:00",
            "opens_before": "10",
            "variant": "classic",
            "mode": "scheduled",
        },
    )
    assert resp.status_code == 302
    races = list(t.races.order_by("starts_at"))
    assert [r.name for r in races] == [
        "Winter Cup #1",
        "Winter Cup #2",
        "Winter Cup #3",
    ]
    assert [(r.starts_at.hour, r.starts_at.minute, r.ends_at.minute) for r in races] == [
        (10, 0, 10),
        (10, 15, 25),
        (10, 30, 40),
    ]
    assert len({r.deal.seed for r in races}) == 3
    assert all(len(r.commitment) == 64 for r in races)
    assert LogEntry.objects.filter(object_id=str(t.pk), change_message__contains="Added 3").exists()

    # A race played now: two entrants, closed from the admin.
    race = running_race(t, name="live")
    play(race, Result("ann", 30, 1000))
    play(race, Result("bob", 20, 1000))
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "close_now", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    assert resp.status_code == 302
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    assert [
        (s.player.username, s.points)
        for s in TournamentStanding.objects.filter(tournament=t).order_by("rank")
    ] == [("ann", 10), ("bob", 6)]

    # Disqualify ann: the intermediate form, then the reason applied.
    ann = RaceEntry.objects.get(race=race, player__username="ann")
    url = reverse("admin:games_raceentry_changelist")
    form = c.post(url, {"action": "disqualify", "_selected_action": [ann.pk]})
    assert form.status_code == 200
    assert b"reason" in form.content
    resp = c.post(
        url,
        {
            "action": "disqualify",
            "_selected_action": [ann.pk],
            "apply": "1",
            "reason": "two accounts",
        },
    )
    assert resp.status_code == 302
    ann.refresh_from_db()
    assert (ann.disqualified, ann.disqualified_reason, ann.rank) == (True, "two accounts", None)
    assert [
        (s.player.username, s.rank, s.points)
        for s in TournamentStanding.objects.filter(tournament=t).order_by("rank")
    ] == [("bob", 1, 10), ("ann", 2, 0)]
    assert LogEntry.objects.filter(
        object_id=str(ann.pk), change_message="Disqualified: two accounts"
    ).exists()

    # Re-score from the race list and the tournament list: same standings.
    TournamentStanding.objects.filter(tournament=t).delete()
    c.post(
        reverse("admin:games_race_changelist"),
        {"action": "rescore", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    assert TournamentStanding.objects.filter(tournament=t).count() == 2
    c.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "rescore", "_selected_action": [str(t.pk)]},
    )
    assert [
        (s.player.username, s.rank)
        for s in TournamentStanding.objects.filter(tournament=t).order_by("rank")
    ] == [("bob", 1), ("ann", 2)]

    # Live standings on the tournament page.
    page = c.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    assert "bob" in page
    assert "ann" in page


def test_cancel_and_open_now() -> None:
    """The changelist's "Open joining now" and "Cancel" actions, each through its service."""
    c = client_for(organiser())
    t = TournamentFactory()
    race = running_race(t)
    later = running_race(t, name="later")
    hour = timedelta(hours=1)
    Race.objects.filter(pk=later.pk).update(
        opens_at=later.opens_at + 2 * hour,
        starts_at=later.starts_at + 2 * hour,
        ends_at=later.ends_at + 2 * hour,
    )
    before = timezone.now()
    assert Race.objects.get(pk=later.pk).phase(before) == "upcoming"

    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "open_now", "_selected_action": [str(later.pk)]},
        follow=True,
    )
    later.refresh_from_db()
    assert before <= later.opens_at <= timezone.now()
    assert later.phase() == "open"
    assert later.starts_at > later.opens_at + hour  # the start is where it was
    assert "Opened now: 1 race." in resp.content.decode()
    assert LogEntry.objects.filter(object_id=str(later.pk), change_message="Opened now").exists()

    c.post(
        reverse("admin:games_race_changelist"),
        {"action": "cancel", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    race.refresh_from_db()
    assert race.status == Race.Status.CANCELLED
    assert LogEntry.objects.filter(object_id=str(race.pk), change_message="Cancelled").exists()

    # A cancelled race cannot be opened: the service refuses, the admin says why, logs nothing.
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "open_now", "_selected_action": [str(race.pk)]},
        follow=True,
    )
    assert "The race is cancelled: joining cannot be opened." in resp.content.decode()
    assert not LogEntry.objects.filter(object_id=str(race.pk), change_message="Opened now")


def test_admin_never_shows_a_running_race_seed_or_deck() -> None:
    su = User.objects.create_superuser("root", "root@example.test", "pw")
    c = client_for(su)
    t = TournamentFactory()
    race = running_race(t)
    entry = play(race, Result("ann", 12, 500))
    seed = race.deal.seed
    deck = race.deal.deck
    assert seed
    pages = [
        reverse("admin:games_race_changelist"),
        reverse("admin:games_race_change", args=[race.pk]),
        reverse("admin:games_race_history", args=[race.pk]),
        reverse("admin:games_tournament_changelist"),
        reverse("admin:games_tournament_change", args=[t.pk]),
        reverse("admin:games_tournament_history", args=[t.pk]),
        reverse("admin:games_tournament_add_races", args=[t.pk]),
        reverse("admin:games_raceentry_changelist"),
        reverse("admin:games_raceentry_change", args=[entry.pk]),
        reverse("admin:games_tournamentstanding_changelist"),
        reverse("admin:index"),
    ]
    for url in pages:
        resp = c.get(url)
        assert resp.status_code == 200, url
        html = resp.content.decode()
        assert seed not in html, url
        assert " ".join(deck[:6]) not in html, url
        assert "', '".join(deck[:3]) not in html, url
    # Searching by the seed (or its start) finds nothing: the seed is not a search field.
    for q in (seed, seed[:8]):
        resp = c.get(reverse("admin:games_race_changelist") + f"?q={q}")
        assert resp.context["cl"].result_count == 0
    # No Deal or Game admin at all.
    assert c.get("/admin/games/deal/").status_code == 404
    assert c.get("/admin/games/game/").status_code == 404
    # Once finished, the seed is shown.
    c.post(
        reverse("admin:games_race_changelist"),
        {"action": "close_now", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    assert seed in c.get(reverse("admin:games_race_change", args=[race.pk])).content.decode()


def test_non_staff_is_refused_everywhere_in_the_admin() -> None:
    t = TournamentFactory()
    race = running_race(t)
    entry = play(race, Result("ann", 12, 500))
    c = client_for(UserFactory())
    urls = [
        reverse("admin:index"),
        reverse("admin:games_tournament_changelist"),
        reverse("admin:games_tournament_add"),
        reverse("admin:games_tournament_change", args=[t.pk]),
        reverse("admin:games_tournament_add_races", args=[t.pk]),
        reverse("admin:games_race_changelist"),
        reverse("admin:games_race_change", args=[race.pk]),
        reverse("admin:games_raceentry_changelist"),
        reverse("admin:games_raceentry_change", args=[entry.pk]),
        reverse("admin:games_tournamentstanding_changelist"),
    ]
    for url in urls:
        resp = c.get(url)
        assert resp.status_code == 302, url
        assert "/admin/login/" in resp["Location"], url
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "close_now", "_selected_action": [str(race.pk)], "apply": "1"},
    )
    assert resp.status_code == 302
    assert "/admin/login/" in resp["Location"]
    race.refresh_from_db()
    assert race.status == Race.Status.SCHEDULED


def test_staff_without_organiser_permissions_cannot_run_tournaments() -> None:
    t = TournamentFactory()
    c = client_for(StaffFactory())
    assert c.get(reverse("admin:games_tournament_changelist")).status_code == 403
    assert c.get(reverse("admin:games_tournament_add_races", args=[t.pk])).status_code == 403


@pytest.mark.parametrize("depth", [1000, 5000, 30000])
def test_a_points_table_nested_too_deeply_is_a_form_error(depth: int) -> None:
    """``[[[[...]]]]`` raised RecursionError from the JSON field (a 500), when cleaning
    the field and again when showing the form with its error."""
    c = client_for(organiser())
    deep = "[" * depth + "]" * depth
    added = c.post(
        reverse("admin:games_tournament_add"), tournament_post(name="Deep", points_table=deep)
    )
    assert added.status_code == 200
    assert list(added.context["adminform"].form.errors) == ["points_table"]
    assert not Tournament.objects.filter(name="Deep").exists()

    t: Tournament = TournamentFactory(name="Shallow")
    changed = c.post(
        reverse("admin:games_tournament_change", args=[t.pk]),
        tournament_post(name="Shallow", points_table=deep),
    )
    assert changed.status_code == 200
    assert list(changed.context["adminform"].form.errors) == ["points_table"]
    t.refresh_from_db()
    assert t.points_table == [10, 8, 6, 5, 4, 3, 2, 1]


def _inline_rows(prefix: str, *ids: object, **fields: object) -> dict[str, object]:
    """Posted rows of the inline ``prefix`` carrying ``ids`` (as saved rows), with ``fields``
    for each row."""
    rows: dict[str, object] = {
        f"{prefix}-TOTAL_FORMS": len(ids),
        f"{prefix}-INITIAL_FORMS": len(ids),
    }
    for i, row_id in enumerate(ids):
        if row_id is not None:  # None: a row without its id
            rows[f"{prefix}-{i}-id"] = row_id
        rows.update({f"{prefix}-{i}-{name}": value for name, value in fields.items()})
    return rows


def _tampered_rows() -> list[tuple[str, str, object, dict[str, object]]]:
    """(inline, which id, id or a marker, fields): the rows a tampered page posts."""
    return [
        ("races", "another tournament's race", "theirs", {}),
        ("races", "a malformed id", "not-a-uuid", {}),
        ("races", "an empty id", "", {}),
        ("races", "no id", None, {}),
        ("entrants", "another tournament's entrant", "theirs", {"DELETE": "on"}),
        ("entrants", "another tournament's entrant", "theirs", {"player": "theirs"}),
        ("entrants", "a malformed id", "not-a-number", {"DELETE": "on"}),
        ("standings", "a malformed id", "not-a-number", {}),
    ]


@pytest.mark.parametrize(
    ("prefix", "what", "row_id", "fields"),
    _tampered_rows(),
    ids=[f"{p}: {w} {sorted(f)}" for p, w, _, f in _tampered_rows()],
)
def test_a_tampered_inline_row_is_a_form_error_and_changes_nothing(
    prefix: str, what: str, row_id: object, fields: dict[str, object]
) -> None:
    """A row whose id is not one of the tournament's rows was given a blank object: the
    page shown again with any error crashed on it (a 500), and otherwise the row was
    silently dropped.  It is the inline's error now, and nothing of the form is saved."""
    c = client_for(organiser())
    t: Tournament = TournamentFactory(name="Mine", description="before")
    other: Tournament = TournamentFactory(name="Theirs")
    mine = running_race(t, name="mine")
    theirs = running_race(other, name="theirs")
    play(mine, Result("ann", home=3, ms=100))
    bob_entry = play(theirs, Result("bob", home=3, ms=100))
    their_entrant = TournamentEntrant.objects.get(tournament=other, player=bob_entry.player)
    ids = {"races": theirs.pk, "entrants": their_entrant.pk}
    posted_id = ids[prefix] if row_id == "theirs" else row_id
    values = {k: (bob_entry.player.username if v == "theirs" else v) for k, v in fields.items()}
    before = (
        list(Race.objects.order_by("id").values_list("id", "name", "tournament_id")),
        list(TournamentEntrant.objects.order_by("id").values_list("id", "tournament_id")),
    )
    answer = c.post(
        reverse("admin:games_tournament_change", args=[t.pk]),
        {
            **tournament_post(name="Mine", description="after"),
            **_inline_rows(prefix, posted_id, **values),
        },
    )
    assert answer.status_code == 200
    formsets = {f.formset.prefix: f.formset for f in answer.context["inline_admin_formsets"]}
    assert formsets[prefix].non_form_errors(), what
    t.refresh_from_db()
    assert t.description == "before"
    after = (
        list(Race.objects.order_by("id").values_list("id", "name", "tournament_id")),
        list(TournamentEntrant.objects.order_by("id").values_list("id", "tournament_id")),
    )
    assert after == before


@pytest.mark.parametrize("row_id", ["theirs", "not-a-number", ""])
def test_a_tampered_entry_row_of_a_race_is_a_form_error(row_id: str) -> None:
    c = client_for(organiser())
    mine = running_race(name="mine")
    theirs = running_race(name="theirs")
    play(mine, Result("ann", home=3, ms=100))
    bob = play(theirs, Result("bob", home=3, ms=100))
    answer = c.post(
        reverse("admin:games_race_change", args=[mine.pk]),
        {"name": "renamed", **_inline_rows("entries", bob.pk if row_id == "theirs" else row_id)},
    )
    assert answer.status_code == 200
    formsets = {f.formset.prefix: f.formset for f in answer.context["inline_admin_formsets"]}
    assert formsets["entries"].non_form_errors()
    mine.refresh_from_db()
    assert mine.name == "mine"
    assert RaceEntry.objects.get(pk=bob.pk).race_id == theirs.pk


def test_the_add_page_shows_no_empty_standings_or_races_table() -> None:
    """The add page showed the read-only Standings and Races tables, empty, before the
    tournament existed; it offers the entrants only.  The change page keeps all three."""
    c = client_for(organiser())
    add = c.get(reverse("admin:games_tournament_add"))
    assert [f.formset.model.__name__ for f in add.context["inline_admin_formsets"]] == [
        "TournamentEntrant"
    ]
    t = Tournament.objects.create(name="Spring Cup")
    change = c.get(reverse("admin:games_tournament_change", args=[t.pk]))
    assert [f.formset.model.__name__ for f in change.context["inline_admin_formsets"]] == [
        "TournamentStanding",
        "Race",
        "TournamentEntrant",
    ]
