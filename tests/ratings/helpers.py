# mypy: disable-error-code="no-untyped-call, misc"
"""Helpers for the rating tests: races played to a result, and the library's own folding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from games.models import PlayerRating, Race, RaceEntry, RatingChange
from tests.tournaments.factories import Result, finished_race

__all__ = ["Result", "expected_fold", "ratings", "race_of", "ranks_of", "history"]


def race_of(*results: Result, **kw: Any) -> Race:
    """A finished race (no tournament) played with ``results``; not rated yet."""
    return finished_race(None, *results, **kw)


def ranks_of(race: Race) -> dict[str, int]:
    """``username -> rank`` of the race's ranked, not disqualified entries (as scoring stored)."""
    return {
        e.player.username: e.rank
        for e in RaceEntry.objects.filter(race=race, rank__isnull=False, disqualified=False)
        .select_related("player")
        .order_by("rank")
    }


def expected_fold(races: Sequence[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    """``username -> (mu, sigma, races)`` from the openskill library, race after race."""
    model = PlackettLuce()
    state: dict[str, tuple[float, float, int]] = {}
    for ranks in races:
        if len(ranks) < 2:
            continue
        names = list(ranks)
        teams = [
            [model.rating(mu=state[n][0], sigma=state[n][1])] if n in state else [model.rating()]
            for n in names
        ]
        rated = model.rate(teams, ranks=[float(ranks[n]) for n in names])
        for n, team in zip(names, rated, strict=True):
            state[n] = (team[0].mu, team[0].sigma, state.get(n, (0, 0, 0))[2] + 1)
    return state


def ratings(pool_key: str = "classic") -> dict[str, tuple[float, float, int]]:
    """``username -> (mu, sigma, games_rated)`` stored for the pool."""
    return {
        r.player.username: (r.mu, r.sigma, r.games_rated)
        for r in PlayerRating.objects.filter(pool__key=pool_key).select_related("player")
    }


def history() -> list[tuple[Any, ...]]:
    """Every history row's values, in a stable order (to compare two runs)."""
    return list(
        RatingChange.objects.order_by("race_ends_at", "race_id", "player_id").values_list(
            "race_id",
            "player_id",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "rating_before",
            "rating_after",
            "games_rated",
        )
    )
