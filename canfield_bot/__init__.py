"""Bot players for the Canfield race server: they race over the public REST API only.

Run five bots in a race from the command line::

    python -m canfield_bot --base-url http://127.0.0.1:8000 --race <race id> --bots 5

Each bot registers (or logs in), joins the race, waits for the start, then plays
its own game move by move through ``POST /api/v1/games/{id}/moves`` with
``expected_move_number``, until it wins, gets stuck (it resigns), or the race
closes.  The bots see exactly what a human player sees: the game view, never a
hidden card.

Writing your own bot
--------------------

A strategy is one small function: it receives the game view (the JSON of
``GET /api/v1/games/{id}``) and returns one of ``view["legal_moves"]``, or
``None`` when it has nothing useful left::

    def greedy(view: dict) -> str | None:
        moves = view["legal_moves"]
        home = [m for m in moves if m.endswith(">f")]
        return (home or moves or [None])[0]

    python -m canfield_bot --base-url ... --race ID --strategy mymodule:greedy

A strategy that needs memory (to avoid undoing its own moves, say) is a class
whose instances are callables; the bot makes one instance per game.  See
:class:`canfield_bot.strategy.DefaultStrategy` (the default) for the priorities it
uses and :func:`canfield_bot.strategy.position_key` for a hash of the visible table.

From Python, :class:`CanfieldClient` is the API client (retries 429 after
``Retry-After``, backs off on 5xx, handles ``409 stale_move_number``) and
:class:`Bot` plays a race with it::

    async with CanfieldClient("http://127.0.0.1:8000") as client:
        await client.register_or_login("alice", "a long password")
        result = await Bot(client, race_id, strategy=greedy, think=0.5).run()

:func:`run_bots` runs several bots concurrently with asyncio.
"""

from canfield_bot.bot import Bot, BotResult, run_bots
from canfield_bot.client import ApiError, CanfieldClient, MoveResult
from canfield_bot.strategy import DefaultStrategy, Strategy, first_legal, position_key

__all__ = [
    "ApiError",
    "Bot",
    "BotResult",
    "CanfieldClient",
    "DefaultStrategy",
    "MoveResult",
    "Strategy",
    "first_legal",
    "position_key",
    "run_bots",
]
