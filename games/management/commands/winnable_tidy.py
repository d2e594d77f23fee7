"""``manage.py winnable_tidy``: shorten the winning lines of deals pooled unshortened.

Deals pooled before the pool's fill shortened each line (``WinnableDeal.tidied_at``
empty) keep the solver's first line; a draw deals it as it is, and the solution page
shows it.  This shortens each one, outside any request, as the fill does now
(:func:`games.services.winnable_pool.winnable_line_tidy`: ``tidy_line``, then the line
replayed by the engine to 52 cards home before it is stored).  Idempotent: a line
shortened once is marked and never taken again, so the command may be stopped and run
again.  Example::

    python manage.py winnable_tidy --dry-run     # shorten and check, store nothing
    python manage.py winnable_tidy               # store; prints the time per line
"""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.tidy import DEFAULT_MAX_PLAYS
from games.services.winnable_pool import winnable_line_tidy, winnable_untidied_ids


class Command(BaseCommand):
    """Shorten every pooled winning line never shortened; print what it did and the time
    per line (median and maximum seconds); exit status 1 when a stored line does not win."""

    help = "Shorten the winning lines of pooled winnable deals that were never shortened."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--dry-run``, ``--limit``, ``--max-plays``, ``--no-progress``."""
        parser.add_argument(
            "--dry-run", action="store_true", help="shorten and check each line; store nothing"
        )
        parser.add_argument(
            "--limit", type=int, default=None, help="at most this many lines (oldest first)"
        )
        parser.add_argument(
            "--max-plays",
            type=int,
            default=DEFAULT_MAX_PLAYS,
            help="engine moves to spend per line at most (default %(default)s, as the fill)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        """Shorten the lines (see the module docstring)."""
        if opts["limit"] is not None and opts["limit"] < 0:
            raise CommandError("--limit must be 0 or more")
        if opts["max_plays"] < 1:
            raise CommandError("--max-plays must be 1 or more")
        ids = winnable_untidied_ids()
        pending = len(ids)
        if opts["limit"] is not None:
            ids = ids[: opts["limit"]]
        bar: Any = None
        if not opts["no_progress"]:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            bar = tqdm(total=len(ids), unit="line", file=self.stderr._out)
        counts: Counter[str] = Counter()
        seconds: list[float] = []
        removed = before_total = 0
        for deal_id in ids:
            done = winnable_line_tidy(
                deal_id=deal_id, dry_run=opts["dry_run"], max_plays=opts["max_plays"]
            )
            counts[done.result] += 1
            if done.result in ("shortened", "kept", "dry_run", "taken"):
                seconds.append(done.seconds)  # the work was done, stored or not
            if done.result in ("shortened", "kept", "dry_run"):
                # Stored (or, in a dry run, what would be): a line taken meanwhile kept
                # the line it was dealt, so none of its moves were removed.
                removed += done.before - done.after
                before_total += done.before
            if done.result == "broken":
                self.stderr.write(f"winnable deal {deal_id}: {done.detail}")
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"{done.result} {done.before}->{done.after}")
        if bar is not None:
            bar.close()
        said = ", ".join(f"{n} {result}" for result, n in sorted(counts.items())) or "nothing"
        mode = " (dry run: nothing stored)" if opts["dry_run"] else ""
        taken = f"{len(ids)} of {pending}" if len(ids) < pending else f"{len(ids)}"
        self.stdout.write(f"{taken} pooled lines never shortened: {said}{mode}")
        if seconds:
            share = removed / before_total if before_total else 0.0
            moves = (
                f"moves removed: {removed} of {before_total} ({share:.0%}); "
                if before_total
                else ""
            )
            self.stdout.write(
                f"{moves}seconds per line: median {statistics.median(seconds):.3f}, max "
                f"{max(seconds):.3f}, total {sum(seconds):.1f}"
            )
        if counts["broken"]:
            raise CommandError(f"{counts['broken']} pooled line(s) do not win: left alone")
