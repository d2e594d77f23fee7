"""The race page's live fragment (``/races/<id>/live``, what the page's poll and race
stream swap in) carries every part of the page that follows the race's phase: the facts
("The race": its end or "Ended early", the commitment's words, the seed) as well as
"Now" and the standings; the seed only once the race is over (RULES.md 7)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Race
from games.services.races import race_close
from tests.tournaments.factories import Result, play, running_race

pytestmark = pytest.mark.django_db


def test_the_live_fragment_has_the_race_facts_and_the_seed_only_once_over() -> None:
    race = running_race(name="Fragment")
    entry = play(race, Result("zed", home=5, ms=3000))
    Race.objects.filter(id=race.id).update(late_join_s=30)  # joining closed 30 s in
    seed = race.deal.seed
    assert seed is not None
    assert entry.game_id is not None
    live = Client().get(f"/races/{race.id}/live").content.decode()
    assert '<h2 id="live-h">Now</h2>' in live
    assert '<h2 id="about-h">The race</h2>' in live
    assert "or earlier: once joining has closed and every player has finished" in live
    assert "the seed is revealed when the race is over" in live
    assert seed not in live
    assert "data-seed" not in live
    # Every player finished: the race ends early.
    Game.objects.filter(id=entry.game_id).update(status=Game.Status.RESIGNED)
    assert race_close(race_id=race.id) == "finished"
    live = Client().get(f"/races/{race.id}/live").content.decode()
    assert '<h2 id="live-h">Outcome</h2>' in live
    assert "or earlier" not in live
    assert "Ended early" in live
    assert "every player had finished" in live
    assert f'<code class="wrap" data-seed>{seed}</code>' in live
