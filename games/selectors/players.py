"""Read selectors for a player's page: their race entries (RULES.md 6, 7).

Nothing here returns a card or a running race's seed; results of a race
(rank, cards home) appear once it is finished.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.models import RaceEntry
from games.selectors.races import of_draft_tournament


def player_race_entries(*, player: Any, limit: int = 50) -> QuerySet[RaceEntry]:
    """The player's race entries, newest race first, with race (and deal) loaded.

    Races of draft tournaments are left out (they are the organisers' until published);
    cancelled races are listed (their pages say they were cancelled).
    """
    return (
        RaceEntry.objects.filter(player=player)
        .exclude(of_draft_tournament("race__"))
        .select_related("race", "race__deal")
        .order_by("-race__starts_at")[:limit]
    )
