# mypy: disable-error-code="no-untyped-call, misc"
"""Leaderboard pages, ratings on the player page and rating changes on the results page:
every figure checked against the openskill library's own computation of hand-made
finished races; a running race's seed never reaches these pages."""

from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta
from typing import Any

import pytest

from games.models import PlayerRating, Race, RaceEntry
from games.rating_model import PROVISIONAL_RACES
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_join
from games.services.ratings import race_rate, race_set_rated
from tests.factories import make_user
from tests.ratings.helpers import Result, expected_fold, race_of, ranks_of
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from web.templatetags.web_tags import signed

pytestmark = pytest.mark.django_db


def display(mu: float, sigma: float) -> int:
    """The display rating the README documents: round(1000 + 20 (mu - 3 sigma))."""
    return round(1000 + 20 * (mu - 3 * sigma))


def _text(cell: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", cell.replace("<br>", " "))).split())


def rows_of(page: str) -> list[list[str]]:
    """The cells' text of every body row of the page's tables."""
    out = []
    for body in re.findall(r"<tbody>(.*?)</tbody>", page, re.S):
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            out.append([_text(c) for c in cells])
    return out


def rated(*results: Result, **kw: Any) -> Any:
    race = race_of(*results, **kw)
    assert race_rate(race_id=race.id) == "rated"
    return race


def test_signed_change() -> None:
    assert [signed(12), signed(0), signed(-5), signed(None)] == ["+12", "0", "\u22125", ""]


def test_leaderboards_name_pools_in_words() -> None:
    rated(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cyd", 20, 1000))
    rated(Result("dee", 30, 1000), Result("eve", 20, 1000), options={"redeals": 2}, name="R2")
    page = PageClient().get("/leaderboards/").content.decode()
    assert '<a href="/leaderboards/">Leaderboards</a>' in page  # the header nav
    rows = rows_of(page)
    assert rows[0][0].startswith("Classic Classic Canfield: draw three")
    assert rows[0][1:] == ["3", "1"]
    assert rows[1][0].startswith("Classic (changed: 2 redeals.)")
    assert rows[1][1:] == ["2", "1"]
    assert 'href="/leaderboards/classic/"' in page
    assert 'href="/leaderboards/classic.redeals-2/"' in page
    for accessible in ("<caption>", 'scope="row"', 'scope="col"'):
        assert accessible in page


def test_pool_leaderboard_values_match_openskill() -> None:
    first = [Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cyd", 20, 1000)]
    second = [Result("cyd", 45, 1000), Result("ann", 30, 1000), Result("bob", 30, 1000)]
    r1, r2 = rated(*first), rated(*second)
    expected = expected_fold([ranks_of(r1), ranks_of(r2)])
    want = sorted(
        ((n, display(mu, s), g) for n, (mu, s, g) in expected.items()),
        key=lambda x: -x[1],
    )
    page = PageClient().get("/leaderboards/classic/").content.decode()
    got = rows_of(page)
    assert [r[1] for r in got] == [n for n, _, _ in want]
    assert [r[0] for r in got] == ["1", "2", "3"]
    for row, (_name, rating, games) in zip(got, want, strict=True):
        assert row[2] == f"{rating} provisional"  # 2 rated races < PROVISIONAL_RACES
        assert row[3] == str(games) == "2"
    assert PROVISIONAL_RACES > 2
    assert "Players, best first" in page
    assert "Next page" not in page
    assert "Previous page" not in page
    hidden = PageClient().get("/leaderboards/classic/?provisional=false").content.decode()
    assert rows_of(hidden) == []
    # Everyone is provisional: the page says why the list is empty.
    assert (
        f"Nobody has played {PROVISIONAL_RACES} rated races in this pool yet, so every "
        "rating here is still provisional." in hidden
    )


def test_pool_leaderboard_pages_follow_the_keyset_order(monkeypatch: Any) -> None:
    import web.views.ratings as views

    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    rated(*(Result(f"p{i}", 10 + 5 * i, 1000) for i in range(5)))
    rated(Result("x1", 30, 1000), Result("x2", 30, 1000))  # equal ratings: player id decides
    client = PageClient()
    url, seen, pages = "/leaderboards/classic/", [], []
    while url:
        page = client.get(url).content.decode()
        pages.append(page)
        seen += rows_of(page)
        nxt = re.search(r'href="(\?[^"]+)" rel="next"', page)
        url = "/leaderboards/classic/" + html_lib.unescape(nxt.group(1)) if nxt else ""
    expected = list(
        PlayerRating.objects.filter(pool__key="classic")
        .order_by("-ordinal", "player_id")
        .values_list("player__username", "rating")
    )
    assert [(r[1], int(r[2].split()[0])) for r in seen] == expected
    # Equal display ratings share a place (1, 1, 3): one more than the ratings above.
    ratings = [rating for _, rating in expected]
    assert [r[0] for r in seen] == [str(1 + sum(x > y for x in ratings)) for y in ratings]
    assert len(pages) == 4
    assert 'rel="prev"' not in pages[0]
    assert all('rel="prev"' in p for p in pages[1:])
    back = re.search(r'href="(\?[^"]+)" rel="prev"', pages[1])
    assert back is not None
    again = client.get("/leaderboards/classic/" + html_lib.unescape(back.group(1)))
    assert rows_of(again.content.decode()) == rows_of(pages[0])
    bad = client.get("/leaderboards/classic/?cursor=not-a-cursor")
    assert bad.status_code == 400
    assert rows_of(bad.content.decode()) == rows_of(pages[0])
    assert client.get("/leaderboards/nosuchpool/").status_code == 404


def test_player_page_ratings_and_recent_races(pages: PageClient, player: Any) -> None:
    r1 = rated(Result(player, 40, 1000), Result("bob", 30, 1000), Result("cyd", 20, 1000))
    r2 = rated(Result("bob", 45, 1000), Result(player, 30, 1000), name="Second race")
    (mu1, s1, _), (mu2, s2, games) = (
        expected_fold([ranks_of(r1)])["ada"],
        expected_fold([ranks_of(r1), ranks_of(r2)])["ada"],
    )
    bob = expected_fold([ranks_of(r1), ranks_of(r2)])["bob"]
    early = r2.ends_at - timedelta(minutes=7)
    Race.objects.filter(id=r2.id).update(closed_at=early)
    page = pages.get("/players/ada/").content.decode()
    rows = rows_of(page)
    ratings = rows[0]
    assert ratings[0].startswith("Classic")
    assert ratings[1] == f"{display(mu2, s2)} provisional"
    assert ratings[2] == ("1" if display(mu2, s2) > display(bob[0], bob[1]) else "2")
    assert ratings[3] == str(games) == "2"
    newest, oldest = rows[1], rows[2]
    assert newest[0] == "Second race"
    assert newest[3] == "2 of 2"
    assert newest[4] == f"{display(mu1, s1)} → {display(mu2, s2)}"
    assert newest[5] == signed(display(mu2, s2) - display(mu1, s1))
    assert oldest[3] == "1 of 3"
    assert oldest[4] == f"1000 → {display(mu1, s1)}"
    assert oldest[5] == signed(display(mu1, s1) - 1000)
    # "Ended" is when the race was closed: a walkthrough read a time still in the
    # future for a race that had ended early (every player finished).
    assert newest[1] == f"{early:%Y-%m-%d %H:%M} UTC"
    history = pages.get("/api/v1/players/ada/history").json()["results"]
    assert [row["closed_at"] is not None for row in history] == [True, True]
    assert f'href="/races/{r2.id}/results"' in page
    assert 'href="/leaderboards/classic/"' in page
    nobody = PageClient().get(f"/players/{make_user(username='new').username}/").content.decode()
    assert "No rated race yet." in nobody


def test_results_page_shows_each_entrys_rating_change() -> None:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cyd", 20, 1000))
    client = PageClient()
    pending = client.get(f"/races/{race.id}/results").content.decode()
    assert 'data-rating-status="pending"' in pending
    assert [r[7] for r in rows_of(pending)] == ["being rated"] * 3
    cyd = RaceEntry.objects.get(race=race, player__username="cyd")
    race_entry_disqualify(entry_id=cyd.id, reason="test")
    assert race_rate(race_id=race.id) == "rated"
    expected = expected_fold([ranks_of(race)])
    assert set(expected) == {"ann", "bob"}
    page = client.get(f"/races/{race.id}/results").content.decode()
    cells = {r[1]: r[7] for r in rows_of(page)}
    for name, (mu, s, _) in expected.items():
        assert cells[name] == f"{display(mu, s)} ({signed(display(mu, s) - 1000)})"
    assert cells["cyd"] == "unrated"
    assert "Rated: 2 entries counted on the leaderboard Classic." in " ".join(
        html_lib.unescape(re.sub(r"<[^>]+>", "", page)).split()
    )


def test_results_page_says_when_a_race_is_unrated() -> None:
    alone = race_of(Result("ann", 40, 1000))
    race_rate(race_id=alone.id)
    page = PageClient().get(f"/races/{alone.id}/results").content.decode()
    assert "Unrated: fewer than two ranked entries" in page
    assert [r[7] for r in rows_of(page)] == ["unrated"]
    marked = race_of(Result("bob", 40, 1000), Result("cyd", 30, 1000))
    race_set_rated(race_id=marked.id, rated=False)
    race_rate(race_id=marked.id)
    page = PageClient().get(f"/races/{marked.id}/results").content.decode()
    assert "Unrated: the organisers marked this race unrated" in page
    assert [r[7] for r in rows_of(page)] == ["unrated", "unrated"]
    assert PlayerRating.objects.count() == 0


def test_rating_pages_never_carry_a_running_races_seed(pages: PageClient, player: Any) -> None:
    rated(Result(player, 40, 1000), Result("bob", 30, 1000))
    live = running_race(name="Live race")
    race_join(race_id=live.id, player=player)
    seed = live.deal.seed
    assert seed
    for url in ("/leaderboards/", "/leaderboards/classic/", "/players/ada/", "/players/bob/"):
        body = pages.get(url).content.decode()
        assert seed not in body, url
        assert live.commitment not in body or url == "/players/ada/", url


def test_leaderboard_in_french() -> None:
    rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    client = PageClient()
    page = client.get("/leaderboards/classic/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in page
    assert "<h1>Classement des joueurs\u202f: Classique</h1>" in page
    assert '<span class="badge">provisoire</span>' in page
    assert "Masquer les joueurs provisoires" in page
    assert "Leaderboard:" not in page
