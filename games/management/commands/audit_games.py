"""``manage.py audit_games``: check that every stored snapshot equals its replay."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.audit import games_audit


class Command(BaseCommand):
    """Replays every game from its deal and live moves and compares with the snapshot.

    Exit status 1 (CommandError) when any game differs; prints each problem.
    """

    help = "Check that every stored game snapshot equals the replay of its deal and moves."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch-size", type=int, default=500)

    def handle(self, *args: Any, **options: Any) -> None:
        checked = bad = 0
        for _game, problem in games_audit(batch_size=options["batch_size"]):
            checked += 1
            if problem is not None:
                bad += 1
                self.stderr.write(f"{problem.game_id}: {problem.detail}")
        self.stdout.write(f"checked {checked} games: {checked - bad} match, {bad} differ")
        if bad:
            raise CommandError(f"{bad} game snapshot(s) differ from their replay")
