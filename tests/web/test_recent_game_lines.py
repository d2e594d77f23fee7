# mypy: disable-error-code="no-untyped-call"
"""The lobby's "My recent games" and the player page's practice games tell two games
started the same second apart: each line names its deal's base rank (public: the first
foundation's card is dealt face up, RULES.md 2.2 and 7), and the start reads as a
relative time whose full date sits in the ``<time>`` element's ``datetime`` and
``title`` (no long date in the text).

The pages' clock is stopped (:func:`clock`): how long ago a game started is measured from
it, never from the wall clock, so each line's words are asserted whole."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.engine.cards import CARD_NAMES
from games.models import Game
from games.selectors.games import deal_base_rank
from games.services.games import game_start
from tests.factories import create_user
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

#: The time in this module: what ``timezone.now`` answers the views, services and
#: selectors, and the lines' "started 3 hours ago" (``web_tags.since``).
NOW = datetime(2026, 12, 5, 7, 20, 17, tzinfo=UTC)
STARTED = NOW - timedelta(hours=3, minutes=3)  # 04:17:17 UTC


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """``timezone.now`` stopped at :data:`NOW` for the test."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


def _deck(base_card: str) -> list[str]:
    """A deck whose first foundation card ``D[13]`` is ``base_card``."""
    rest = [c for c in CARD_NAMES if c != base_card]
    return [*rest[:13], base_card, *rest[13:]]


def _two_games_the_same_second() -> tuple[object, list[Game]]:
    ann = create_user("ann")
    games = [game_start(player=ann, deck=_deck(card)) for card in ("QH", "3C")]
    Game.objects.filter(player=ann).update(started_at=STARTED)
    return ann, games


def _lines(html: str) -> list[str]:
    return re.findall(r"<small>(.*?)</small>", html, re.S)


@pytest.mark.parametrize("page", ["/", "/players/ann/"])
def test_each_line_names_its_base_rank_and_keeps_the_date_in_the_time_element(page: str) -> None:
    ann, _ = _two_games_the_same_second()
    html = PageClient(ann).get(page).content.decode()
    lines = [line for line in _lines(html) if "base rank:" in line]
    assert len(lines) == 2
    assert sorted(re.search(r"base rank: (\w+)", line)[1] for line in lines) == ["queen", "three"]  # type: ignore[index]
    for line in lines:
        assert (
            '<time datetime="2026-12-05T04:17:17+00:00" title="2026-12-05 04:17:17 UTC" '
            "data-local-title>started " in line
        )
        assert "UTC</time>" not in line  # the date is no longer printed in the line
        assert line.endswith("data-local-title>started 3\xa0hours ago</time>"), line


def test_the_base_rank_is_translated() -> None:
    ann, _ = _two_games_the_same_second()
    for lang, words in (
        ("fr", ("rang de base\u202f: dame", "rang de base\u202f: trois")),
        ("es", ("rango base: reina", "rango base: tres")),
        ("de", ("Grundrang: Dame", "Grundrang: Drei")),
    ):
        html = PageClient(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        for word in words:
            assert word in html, (lang, word)


def test_the_base_rank_is_the_dealt_card_or_the_fixed_rank() -> None:
    ann = create_user("ann")
    dealt = game_start(player=ann, deck=_deck("TD"))
    storehouse = game_start(player=ann, variant="storehouse", seed="base-rank")
    assert deal_base_rank(dealt.deal) == "T"
    assert deal_base_rank(storehouse.deal) == "2"
    html = PageClient(ann).get("/").content.decode()
    assert "base rank: ten" in html
    assert "base rank: two" in html
    assert "base-rank" not in html  # the seed is never shown


def test_a_race_game_before_its_start_names_no_base_rank() -> None:
    """The base card ``D[13]`` is dealt face up at the race's start, not before: until
    then the deal is hidden (``GET /api/v1/games/<id>`` answers ``race_not_started``), so
    the lobby's line of an entrant's game waiting for the start names no base rank; from
    the start on it does (RULES.md 7)."""
    from games.models import Race
    from games.selectors.games import game_base_rank
    from games.services.races import race_create, race_join
    from web.board import RANK_NAMES

    ann = create_user("ann")
    org = create_user("org", staff=True)
    now = NOW
    race = race_create(
        created_by=org,
        name="Later",
        opens_at=now,
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=15),
    )
    game = race_join(race_id=race.id, player=ann).entry.game
    assert game is not None
    rank = deal_base_rank(game.deal)
    word = str(RANK_NAMES[rank])
    assert game_base_rank(game, now=now) is None
    assert game_base_rank(game, now=race.starts_at) == rank
    html = PageClient(ann).get("/").content.decode()
    (line,) = [line for line in _lines(html) if "card home" in line]
    assert "not started yet" in line
    assert "base rank" not in line
    # Once started, the same line names it.
    Race.objects.filter(id=race.id).update(
        opens_at=now - timedelta(seconds=2), starts_at=now - timedelta(seconds=1)
    )
    Game.objects.filter(id=game.id).update(started_at=now - timedelta(seconds=1))
    html = PageClient(ann).get("/").content.decode()
    (line,) = [line for line in _lines(html) if "card home" in line]
    assert "not started yet" not in line
    assert f"base rank: {word}" in line


@pytest.mark.parametrize(
    ("lang", "before", "after"),
    [
        ("en", "starts 5\xa0minutes from now", "started a second ago"),
        ("fr", "commence dans 5\xa0minutes", "commencée il y a une\xa0seconde"),
        ("es", "empieza dentro de 5 minutos", "empezada hace un segundo"),
        ("de", "beginnt in 5 Minuten", "begonnen vor einer Sekunde"),
    ],
)
def test_a_race_game_before_its_start_says_when_it_starts(
    lang: str, before: str, after: str
) -> None:
    """A race game waiting for its start reads "starts in 5 minutes", where it read
    "started in 5 minutes" ("begonnen in 5 Minuten"): its ``started_at`` is the race's
    start, still to come. From the start on the line says "started" (a second ago: the
    race started a second before the stopped clock).  Spanish says "dentro de 5 minutos"
    (our catalogue, :mod:`web.django_words`), where Django's words read "empieza
    5 minutos a partir de ahora"."""
    from games.models import Race
    from games.services.races import race_create, race_join

    ann = create_user("ann")
    org = create_user("org", staff=True)
    now = NOW
    race = race_create(
        created_by=org,
        name="Later",
        opens_at=now,
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=15),
    )
    game = race_join(race_id=race.id, player=ann).entry.game
    assert game is not None
    html = PageClient(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    (line,) = [line for line in _lines(html) if "<time" in line]
    assert line.endswith(f"data-local-title>{before}</time>"), line
    Race.objects.filter(id=race.id).update(
        opens_at=now - timedelta(seconds=2), starts_at=now - timedelta(seconds=1)
    )
    Game.objects.filter(id=game.id).update(started_at=now - timedelta(seconds=1))
    html = PageClient(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    (line,) = [line for line in _lines(html) if "<time" in line]
    assert line.endswith(f"data-local-title>{after}</time>"), line


@pytest.mark.parametrize(
    ("when", "words"),
    [
        (NOW, "now"),
        (NOW - timedelta(seconds=59), "59\xa0seconds ago"),
        (NOW - timedelta(minutes=1), "a minute ago"),
        (NOW - timedelta(hours=1, minutes=59), "an hour ago"),
        (NOW - timedelta(days=2, hours=3), "2\xa0days, 3\xa0hours ago"),
        (NOW + timedelta(seconds=1), "a second from now"),
        (NOW + timedelta(hours=2), "2\xa0hours from now"),
        (NOW + timedelta(days=1, minutes=5), "1\xa0day from now"),
    ],
)
def test_since_counts_from_the_clock_the_pages_read(when: datetime, words: str) -> None:
    """As Django's ``naturaltime`` words it, from ``timezone.now`` (:data:`NOW` here)."""
    from django.utils import translation

    from web.templatetags.web_tags import since

    with translation.override("en"):
        assert since(when) == words
    assert since("not a date") == "not a date"


#: ``since`` in each language, a day or more ahead and ago and under a day ahead: Django's
#: Spanish said "2 días, 3 horas desde ahora" and "5 minutos a partir de ahora", its German
#: "2 Tage, 3 Stunden von jetzt an" and "2 Tage, 3 Stunden her" (and "1 Tage her"); our
#: catalogue words them again (:mod:`web.django_words`).
SINCE_WORDS = {
    "fr": {
        "ahead": "dans 5\xa0minutes",
        "days_ahead": "dans 2\xa0jours, 3\xa0heures",
        "days_ago": "il y a 2\xa0jours, 3\xa0heures",
        "a_day_ago": "il y a 1\xa0jour",
    },
    "es": {
        "ahead": "dentro de 5 minutos",
        "days_ahead": "dentro de 2\xa0días, 3\xa0horas",
        "days_ago": "hace 2\xa0días, 3\xa0horas",
        "a_day_ago": "hace 1\xa0día",
    },
    "de": {
        "ahead": "in 5 Minuten",
        "days_ahead": "in 2\xa0Tagen, 3\xa0Stunden",
        "days_ago": "vor 2\xa0Tagen, 3\xa0Stunden",
        "a_day_ago": "vor 1\xa0Tag",
    },
}


@pytest.mark.parametrize("lang", list(SINCE_WORDS))
def test_since_reads_naturally_in_every_language(lang: str) -> None:
    from django.utils import translation

    from web.templatetags.web_tags import since

    when = {
        "ahead": NOW + timedelta(minutes=5),
        "days_ahead": NOW + timedelta(days=2, hours=3),
        "days_ago": NOW - timedelta(days=2, hours=3),
        "a_day_ago": NOW - timedelta(days=1, minutes=5),
    }
    with translation.override(lang):
        assert {key: since(at) for key, at in when.items()} == SINCE_WORDS[lang]
