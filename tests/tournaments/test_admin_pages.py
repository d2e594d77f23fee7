# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The admin as an organiser reads it (issue 13 item 3; issue 12 item 11's admin part):
header, titles, live values during a race, filters, times with their zone, durations,
form defaults, and the re-score action's warning."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone

from games.models import Race, TournamentStanding
from games.services.tournaments import DEFAULT_POINTS_TABLE
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

#: A year always ahead of the clock (a fixed one fails once it has passed).
YEAR = timezone.now().year + 3

pytestmark = pytest.mark.django_db


def test_site_header_title_and_view_site_link() -> None:
    html = client_for(organiser()).get(reverse("admin:index")).content.decode()
    assert "Django administration" not in html
    assert '<a href="/admin/">Canfield race server: organisers</a>' in html
    assert "<title>Tournaments, races and players | Canfield organisers</title>" in html
    assert '<a href="/">View site</a>' in html
    assert admin.site.site_url == "/"


def test_race_title_is_its_name_and_entries_show_live_values_during_the_race() -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Evening Cup")
    race = running_race(t, name="Evening Cup race 1")
    play(race, Result("ann", 30, 4000, moves=70))
    play(race, Result("bob", 12, 2500, moves=40))
    assert str(race) == "Evening Cup race 1"
    html = c.get(reverse("admin:games_race_change", args=[race.pk])).content.decode()
    assert "(scheduled, scheduled)" not in html
    assert "rank None" not in html
    # The entries inline: ann 1st live with 30 home, bob 2nd with 12.
    inline = html[html.index('id="entries-group"') :]
    ann = inline[inline.index(">ann<") :][:1500]
    bob = inline[inline.index(">bob<") :][:1500]
    assert "1 (live)" in ann
    assert "2 (live)" in bob
    assert re.search(r'field-cards_home_now">\s*<p>30</p>', ann)
    assert re.search(r'field-moves_now">\s*<p>70</p>', ann)
    assert re.search(r'field-elapsed_now">\s*<p>2\.500\xa0s</p>', bob)
    # The entry list says the same.
    listing = c.get(reverse("admin:games_raceentry_changelist")).content.decode()
    assert "1 (live)" in listing
    assert "2 (live)" in listing


def test_finished_entries_show_stored_ranks_without_live_mark() -> None:
    c = client_for(organiser())
    race = finished_race(TournamentFactory(), Result("ann", 30, 1000), Result("bob", 20, 900))
    html = c.get(reverse("admin:games_race_change", args=[race.pk])).content.decode()
    inline = html[html.index('id="entries-group"') :]
    assert "(live)" not in inline
    assert re.search(r'field-rank_now">\s*<p>1</p>', inline)
    assert re.search(r'field-rank_now">\s*<p>2</p>', inline)


def test_race_entry_filters_have_distinct_titles() -> None:
    c = client_for(organiser())
    finished_race(TournamentFactory(), Result("ann", 30, 1000))
    resp = c.get(reverse("admin:games_raceentry_changelist"))
    titles = [spec.title for spec in resp.context["cl"].filter_specs]
    assert len(titles) == len(set(titles)), titles
    assert {"final game status", "race status"} <= set(titles)


def test_statuses_and_second_fields_are_named_in_words() -> None:
    """A walkthrough read "timed_out" in the entries list and its filter, and "Time limit
    s", "Late join s" on the race form."""
    c = client_for(organiser())
    race = finished_race(TournamentFactory(), Result("ann", 30, 1000))
    assert race.entries.get().status == "timed_out"
    entries = c.get(reverse("admin:games_raceentry_changelist")).content.decode()
    assert "timed_out" not in entries.replace("?status=timed_out", "")
    assert re.search(r'field-status_now">Timed out<', entries)
    assert 'href="?status=timed_out"' in entries
    assert ">Timed out</a>" in entries
    filtered = c.get(reverse("admin:games_raceentry_changelist") + "?status=won")
    assert filtered.context["cl"].result_count == 0
    form = c.get(reverse("admin:games_race_change", args=[race.pk])).content.decode()
    assert "Time limit (seconds)" in form
    assert "Late join (seconds)" in form
    assert "Time limit s" not in form


def test_times_carry_their_time_zone() -> None:
    c = client_for(organiser())
    t = TournamentFactory()
    race = running_race(t)
    start = race.starts_at.strftime("%Y-%m-%d %H:%M:%S")
    assert (
        f"{start} UTC"
        in c.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    )
    day, clock = start.split(" ")
    for url in (
        reverse("admin:games_race_change", args=[race.pk]),
        reverse("admin:games_race_changelist"),
    ):  # the date and the time each kept whole (games.admin.common.when_cell)
        html = c.get(url).content.decode()
        assert f'<span class="nowrap">{day}</span> <span class="nowrap">{clock} UTC</span>' in html


def test_race_list_keeps_each_date_and_each_time_whole() -> None:
    """The race list's Starts and Ends cells wrapped over three lines at 1,280 px
    ("2026-12-05" / "05:27:00" / "UTC", "2026-12-" / "05" in French): the date and the
    time with its zone are each one unbreakable piece, so a cell takes two lines at most."""
    c = client_for(organiser())
    race = running_race(TournamentFactory(), name="R1")
    html = c.get(reverse("admin:games_race_changelist")).content.decode()
    for field, moment in (("starts", race.starts_at), ("ends", race.ends_at)):
        cell = re.search(rf'<td class="field-{field}">(.*?)</td>', html)
        assert cell is not None, field
        assert cell.group(1) == (
            f'<span class="nowrap">{moment:%Y-%m-%d}</span> '
            f'<span class="nowrap">{moment:%H:%M:%S} UTC</span>'
        )


def test_add_races_takes_minutes_and_seconds_and_iso_dates() -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Short")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    page = c.get(url).content.decode()
    assert 'type="datetime-local"' not in page
    assert 'placeholder="YYYY-MM-DD HH:MM"' in page
    assert "YYYY-MM-DD HH:MM, UTC" in page
    assert 'value="10:00"' in page  # the default duration, as minutes:seconds
    resp = c.post(
        url,
        {
            "count": 2,
            "first_starts_at": f"{YEAR}-05-01 18:00",
            "duration": "7:30",
            "gap": "0:45",
            "opens_before": "2:00",
            "variant": "classic",
            "mode": "scheduled",
        },
    )
    assert resp.status_code == 302
    first, second = t.races.order_by("starts_at")
    assert first.ends_at - first.starts_at == timedelta(minutes=7, seconds=30)
    assert first.starts_at - first.opens_at == timedelta(minutes=2)
    assert second.starts_at - first.ends_at == timedelta(seconds=45)
    bad = c.post(url, {"count": 1, "first_starts_at": f"05/01/{YEAR} 18:00", "duration": "7:75"})
    errors = bad.context["form"].errors
    assert set(errors) >= {"first_starts_at", "duration"}


def _add_races_form(**fields: Any) -> dict[str, Any]:
    """The admin's "Add races" form: one classic 10-minute scheduled race, with ``fields``."""
    return {
        "count": 1,
        "duration": "10:00",
        "gap": "0:00",
        "opens_before": "1:00",
        "variant": "classic",
        "mode": "scheduled",
        **fields,
    }


def test_add_races_speaks_the_forms_language() -> None:
    """An organiser saw "ends_at is in the past..." twice (the API's field name), "Added 1
    races", and the variants as codes; the message named the races unquoted and without a
    full stop ("Added 2 races: Cup #1, Cup #2")."""
    c = client_for(organiser())
    t = TournamentFactory(name="Words")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    form = _add_races_form(first_starts_at="2020-05-01 18:00", variant="draw-one")
    past = c.post(url, form)
    assert past.status_code == 200
    html = past.content.decode()
    assert html.count("The first race would be over before it is added") == 1
    assert "2020-05-01 18:10:00 UTC" in html
    assert "ends_at" not in html
    assert '<option value="draw-one" selected>Draw one</option>' in html
    done = c.post(url, {**form, "first_starts_at": f"{YEAR}-05-01 18:00"}, follow=True)
    (message,) = [str(m) for m in done.context["messages"]]
    assert message == "Added 1 race: \u201cWords #1\u201d."


@pytest.mark.parametrize(
    ("language", "names", "codes"),
    [
        (
            "en",
            ["Classic", "Draw one", "Superior", "Rainbow", "Storehouse", "One pass"],
            "The API and the CSV exports name these rules by code: Classic = classic, "
            "Draw one = draw-one, Superior = superior, Rainbow = rainbow, "
            "Storehouse = storehouse, One pass = one-pass.",
        ),
        (
            "fr",
            ["Classique", "Une carte", "Supérieur", "Arc-en-ciel", "Entrepôt", "Un seul passage"],
            "L\u2019API et les exports CSV désignent ces règles par leur code\u202f: "
            "Classique = classic, Une carte = draw-one, Supérieur = superior, "
            "Arc-en-ciel = rainbow, Entrepôt = storehouse, Un seul passage = one-pass.",
        ),
    ],
)
def test_add_races_lists_the_variants_by_name(language: str, names: list[str], codes: str) -> None:
    """The variant list read "Classic (classic)": the names only, in the admin's
    language; the codes the API and the exports use are in the field's help text."""
    c = client_for(organiser())
    url = reverse("admin:games_tournament_add_races", args=[TournamentFactory().pk])
    form = c.get(url, HTTP_ACCEPT_LANGUAGE=language).context["form"]
    variant = form.fields["variant"]
    assert [str(label) for _, label in variant.choices] == names
    assert [code for code, _ in variant.choices] == [
        "classic",
        "draw-one",
        "superior",
        "rainbow",
        "storehouse",
        "one-pass",
    ]
    assert variant.help_text == codes


def test_add_tournament_defaults_to_draft_with_the_default_points_table() -> None:
    c = client_for(organiser())
    form = c.get(reverse("admin:games_tournament_add")).context["adminform"].form
    assert form.initial["status"] == "draft"
    assert form.initial["points_table"] == DEFAULT_POINTS_TABLE
    assert [v for v, _ in form.fields["status"].choices] == ["draft", "open"]
    html = str(form["points_table"])
    assert "[10, 8, 6, 5, 4, 3, 2, 1]" in html


def test_rescore_action_warns_before_applying_the_current_rule() -> None:
    c = client_for(organiser())
    t = TournamentFactory()
    race = finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 900))
    TournamentStanding.objects.filter(tournament=t).delete()
    url = reverse("admin:games_race_changelist")
    ask = c.post(url, {"action": "rescore", "_selected_action": [str(race.pk)]})
    assert ask.status_code == 200
    text = ask.content.decode()
    assert "applies the current ranking rule (RULES.md section 6)" in text
    assert "already finished" in text
    assert "result published" in text
    assert not TournamentStanding.objects.filter(tournament=t).exists()  # nothing done yet
    done = c.post(url, {"action": "rescore", "_selected_action": [str(race.pk)], "apply": "1"})
    assert done.status_code == 302
    assert [s.player.username for s in TournamentStanding.objects.filter(tournament=t)] == [
        "ann",
        "bob",
    ]
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED


@pytest.mark.parametrize(
    ("first", "duration", "count"),
    [("9999-12-31 23:59", "5:00", 1), ("2099-12-31 23:00", "42048000:00", 100)],
)
def test_add_races_refuses_a_schedule_off_the_calendar(
    first: str, duration: str, count: int
) -> None:
    """A first start in the year 9999 overflowed into a 500 (found by an attack)."""
    c = client_for(organiser())
    t = TournamentFactory(name="Far")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    form = _add_races_form(count=count, first_starts_at=first, duration=duration)
    answer = c.post(url, form)
    assert answer.status_code == 200
    assert answer.context["form"].errors
    assert t.races.count() == 0


@pytest.mark.parametrize("field", ["duration", "gap", "opens_before", "late_join"])
@pytest.mark.parametrize(
    "typed",
    [
        "\u0663",  # Arabic-Indic 3: str.isdigit() took it, int() read 3
        "\uff13:00",  # fullwidth 3
        "1:\u0663\u0660",
        "\u00b2",  # superscript 2: isdigit() but not int(): a 500
        "9" * 5000,  # past int()'s digit limit: a 500
        "9" * 30,  # past timedelta: an OverflowError, a 500
        "1" + "0" * 9 + ":00:00",  # 10 digits in a part
        "1:" + "0" * 10,
    ],
)
def test_add_races_takes_ascii_digits_only_and_at_most_nine_a_part(field: str, typed: str) -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Digits")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    form = _add_races_form(first_starts_at=f"{YEAR}-01-01 10:00", **{field: typed})
    answer = c.post(url, form)
    assert answer.status_code == 200
    assert list(answer.context["form"].errors) == [field]
    assert t.races.count() == 0


@pytest.mark.parametrize("typed", ["999999999", "999999999:00", "999999999:59:59"])
def test_add_races_nine_digits_are_never_a_500(typed: str) -> None:
    """Nine digits a part are taken by the field; the schedule then says what it thinks
    (a race too long, a start off the calendar) or adds the race (a long gap after the
    only race)."""
    c = client_for(organiser())
    t = TournamentFactory(name="Long")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    for field in ("duration", "gap", "opens_before", "late_join"):
        form = _add_races_form(first_starts_at=f"{YEAR}-01-01 10:00", **{field: typed})
        answer = c.post(url, form)
        assert answer.status_code in (200, 302), field
        if answer.status_code == 200:
            assert answer.context["form"].errors, field


@pytest.mark.parametrize(
    ("mode", "late_join", "expected"),
    [
        ("scheduled", "", 0),  # the mode's default: joining closes at the start
        ("window", "", None),  # the mode's default: open until the race ends
        ("window", "0:00", 0),  # asked for: closes when the window opens
        ("scheduled", "2:30", 150),
    ],
)
def test_add_races_leaves_late_join_to_the_mode_unless_given(
    mode: str, late_join: str, expected: int | None
) -> None:
    """A walkthrough switched Mode to Window and kept the form's 0:00: its window race
    closed joining when the window opened.  The field now starts empty, the mode's
    default."""
    c = client_for(organiser())
    t = TournamentFactory(name="Modes")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    page = c.get(url).content.decode()
    assert re.search(r'<input type="text" name="late_join"(?![^>]*value=)', page)
    # A time limit for the window races only: a scheduled race's is its span (another
    # one is refused, as the API refuses it).
    form = _add_races_form(
        first_starts_at=f"{YEAR}-05-01 18:00",
        mode=mode,
        late_join=late_join,
        time_limit_s=60 if mode == "window" else "",
    )
    assert c.post(url, form).status_code == 302
    race = t.races.get()
    assert (race.mode, race.late_join_s) == (mode, expected)


@pytest.mark.parametrize(
    "view",
    [
        "admin:games_tournament_add_races",
        "admin:games_tournament_standings_csv",
        "admin:games_tournament_races_csv",
        "admin:games_race_standings_csv",
    ],
)
@pytest.mark.parametrize(
    "object_id", ["not-a-uuid", "12345", "00000000-0000-0000-0000-000000000000"]
)
def test_the_admins_own_views_answer_404_for_an_id_that_is_no_row(
    view: str, object_id: str
) -> None:
    """An id that is not a UUID (a typed or cut URL) is a 404 like the admin's change
    pages, not a 500; a well-formed UUID of no row is a 404 too."""
    c = client_for(organiser())
    assert c.get(reverse(view, args=[object_id])).status_code == 404
    assert c.post(reverse(view, args=[object_id]), {"count": 1}).status_code == 404
