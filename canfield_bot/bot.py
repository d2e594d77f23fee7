"""A bot: joins a race, waits for the start, plays its game through the API until it ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from canfield_bot.client import ApiError, CanfieldClient
from canfield_bot.strategy import DefaultStrategy, Strategy

log = logging.getLogger("canfield_bot")

#: Refusals after which the bot stops playing its game: over, closed, disqualified, or
#: at the server's ``GAME_MOVE_LIMIT`` (``move_limit_reached``: no move is taken again;
#: the game is then resigned under ``on_stuck="resign"``, as a stuck game is).
_OVER_CODES = {"race_closed", "game_over", "disqualified", "move_limit_reached"}

#: ``on_progress(event, result, info)``: what a bot reports as it goes, once each:
#: ``"joined"`` (``info``: the join answer, with ``starts_at``), ``"waiting"`` (the race
#: has not started; ``info``: ``{"starts_at": ISO 8601 or None}``), ``"started"``
#: (``info``: the game view) and ``"ended"`` (``info``: ``{}``; ``result`` says how).
Progress = Callable[[str, "BotResult", dict[str, Any]], None]


@dataclass
class BotResult:
    """What a bot did: moves accepted (``history``, in order), refused (by code), how it ended."""

    username: str
    game_id: str | None = None
    moves: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)
    ended: str = ""
    cards_home: int = 0
    status: str = ""
    #: The latest standings the race stream sent (its first 100 lines: the bot's own
    #: line, in a larger race, is ``CanfieldClient.standings(race, limit=0)``), and how
    #: many snapshots came.
    standings: list[dict[str, Any]] = field(default_factory=list)
    live_events: int = 0


class Bot:
    """Plays one race for one account, using only what the API shows.

    ``strategy``: a :data:`Strategy` callable, or a class whose instances are
    strategies (one per game); default :class:`DefaultStrategy`.  ``think``:
    mean seconds to wait before each move; ``jitter`` spreads each wait uniformly
    over ``think * (1 - jitter) .. think * (1 + jitter)`` (0: exactly ``think``),
    as people do, so many bots do not move in lockstep.  ``on_stuck``: what to do
    when the strategy returns ``None``, or the game is blocked with its last move still
    undoable (``undo_allowed``: not over for its race, RULES.md 3.9; the bot never
    undoes), or the server takes no more of its moves (``409 move_limit_reached``, its
    ``GAME_MOVE_LIMIT``): ``"resign"`` (default; ends it, so the race may close early),
    ``"stop"``, or
    ``"cycle"`` (keep drawing and redealing while the rules allow, as a player
    waiting out the clock would; load tests use it to keep their pace).

    ``follow`` (default on): the bot follows the race's event stream
    (``GET /races/{id}/events``): it calls ``POST /start`` once the stream says the
    race is running (no start polling), and keeps the latest standings in
    ``result.standings`` (the stream's first 100 lines; ``on_standings(rows)`` is called
    with each snapshot).  When
    the stream is unavailable (503: Redis down, or a WSGI server) it falls back to
    polling ``POST /start``.

    ``on_progress``: a :data:`Progress` callback, told when the bot joins, waits for
    the start, starts its game and ends it (never per move).
    """

    def __init__(
        self,
        client: CanfieldClient,
        race_id: str,
        *,
        strategy: Strategy | type | None = None,
        think: float = 0.0,
        jitter: float = 0.0,
        on_stuck: str = "resign",
        seed: int | None = None,
        follow: bool = True,
        on_standings: Callable[[list[dict[str, Any]]], None] | None = None,
        on_progress: Progress | None = None,
    ) -> None:
        if on_stuck not in ("resign", "stop", "cycle"):
            raise ValueError(f"on_stuck is resign, stop or cycle, not {on_stuck!r}")
        if not 0 <= jitter <= 1:
            raise ValueError("jitter is a fraction from 0 to 1")
        self.client = client
        self.race_id = race_id
        chosen = DefaultStrategy if strategy is None else strategy
        self.strategy: Strategy = chosen() if isinstance(chosen, type) else chosen
        self.think = think
        self.jitter = jitter
        self.rng = random.Random(seed)  # noqa: S311 - pacing, not secrets
        self.on_stuck = on_stuck
        self.result = BotResult(username=client.username or "?")
        self.follow = follow
        self.on_standings = on_standings
        self.on_progress = on_progress
        self._started = asyncio.Event()
        self._starts_at: str | None = None
        self._reported: set[str] = set()

    def _report(self, event: str, info: dict[str, Any]) -> None:
        """Tell ``on_progress`` about ``event``, once per bot."""
        if self.on_progress is not None and event not in self._reported:
            self._reported.add(event)
            self.on_progress(event, self.result, info)

    def _waiting(self) -> None:
        self._report("waiting", {"starts_at": self._starts_at})

    async def _follow(self) -> None:
        """Read the race stream: note the start, keep the standings; end with the stream."""
        try:
            async for ev in self.client.events(f"races/{self.race_id}/events"):
                phase = ev.data.get("phase") or (ev.data.get("race") or {}).get("phase")
                if phase not in (None, "upcoming", "open"):
                    self._started.set()
                elif phase is not None:
                    self._waiting()
                if ev.event in ("snapshot", "standings") and "standings" in ev.data:
                    self.result.standings = ev.data["standings"]
                    self.result.live_events += 1
                    if self.on_standings is not None:
                        self.on_standings(ev.data["standings"])
        except (ApiError, httpx.HTTPError) as exc:
            log.info("race stream unavailable (%s): polling instead", exc)
        finally:
            self._started.set()  # a stream that ended: fall back to polling the start

    async def run(self) -> BotResult:
        """Join, wait for the start, play until the game ends or the race closes."""
        joined = await self.client.join(self.race_id)
        self._starts_at = joined.get("starts_at")
        self._report("joined", joined)
        follower = asyncio.create_task(self._follow()) if self.follow else None
        try:
            if follower is not None:
                await self._started.wait()
            view = await self.client.start(self.race_id, on_not_started=self._waiting)
            self._report("started", view)
            result = await self._play(view)
            self._report("ended", {})
            return result
        finally:
            if follower is not None:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await follower

    async def _resign(self, game_id: str) -> dict[str, Any] | None:
        """Resign ``game_id`` and return the game view after it (``result.ended``: its
        status, ``"resigned"``, or ``"blocked"`` for a blocked game its race settled
        first); ``None`` when the server refused with one of :data:`_OVER_CODES` (the race
        closed or the game ended first: counted in ``result.refused``, and
        ``result.ended`` is the code).  Other refusals raise :class:`ApiError`."""
        result = self.result
        try:
            view = await self.client.resign(game_id)
        except ApiError as exc:
            if exc.code not in _OVER_CODES:
                raise
            result.refused[exc.code] = result.refused.get(exc.code, 0) + 1
            result.ended = exc.code
            return None
        result.ended = str(view.get("status"))
        return view

    async def _play(self, view: dict[str, Any]) -> BotResult:
        result = self.result
        result.game_id = game_id = str(view["id"])
        while True:
            result.cards_home = int(view.get("cards_home") or 0)
            result.status = str(view.get("status"))
            # A blocked game whose last move may still be taken back (undo_allowed;
            # RULES.md 3.9) is not over for its race: the race cannot close early until
            # the bot's deadline.  The bot never undoes, so it is stuck: "resign" ends it
            # for good (its place does not change, RULES.md 6).
            undoable_block = view.get("status") == "blocked" and bool(view.get("undo_allowed"))
            if view.get("status") != "playing" and not (
                undoable_block and self.on_stuck == "resign"
            ):
                result.ended = result.ended or result.status
                return result
            move = None if undoable_block else self.strategy(view)
            if move is None and self.on_stuck == "cycle":
                stock = [m for m in view.get("legal_moves") or [] if m in ("draw", "redeal")]
                move = stock[0] if stock else None
            if move is None:
                if self.on_stuck == "resign":
                    resigned = await self._resign(game_id)
                    if resigned is None:
                        return result
                    view = resigned
                    if undoable_block and view.get("undo_allowed"):
                        return result  # never ask again for what was not done
                    continue
                result.ended = "stuck"
                return result
            if self.think:
                spread = self.think * self.jitter
                await asyncio.sleep(self.think + self.rng.uniform(-spread, spread))
            outcome = await self.client.play(game_id, move, int(view["move_number"]))
            if outcome.accepted:
                # ``replayed`` too: the server stored this very request before, but its
                # answer was lost and the client sent it again; the move is still this
                # bot's, on the server once, and the bot had not counted it yet.
                result.moves += 1
                result.history.append(outcome.move or move)
            else:
                code = outcome.code or "?"
                result.refused[code] = result.refused.get(code, 0) + 1
                if code in _OVER_CODES:
                    result.ended = code
                    if outcome.view is not None:
                        result.cards_home = int(outcome.view.get("cards_home") or 0)
                        result.status = str(outcome.view.get("status"))
                    if code == "move_limit_reached" and self.on_stuck == "resign":
                        # Stuck for good (no move is taken again): resigned as a stuck
                        # game is, so that its race may close early; left playing, it
                        # kept the race open until the bot's deadline.
                        resigned = await self._resign(game_id)
                        if resigned is not None:
                            result.status = str(resigned.get("status"))
                            result.cards_home = int(resigned.get("cards_home") or 0)
                    return result
                if sum(result.refused.values()) > 50:
                    raise ApiError(409, code, {"detail": "too many refused moves"})
            if outcome.view is None:
                view = await self.client.game(game_id)
            else:
                view = outcome.view


async def run_bots(
    base_url: str,
    race_id: str,
    usernames: list[str],
    password: str,
    *,
    strategy: Strategy | type | None = None,
    strategies: list[Strategy | type] | None = None,
    think: float = 0.0,
    jitter: float = 0.0,
    on_stuck: str = "resign",
    client_options: dict[str, Any] | None = None,
    on_progress: Progress | None = None,
) -> list[BotResult | BaseException]:
    """Run one bot per username concurrently (asyncio); errors are returned, not raised.

    ``strategies``: one per username (a callable, or a class made once per game).
    Otherwise every bot plays ``strategy``; without either each bot gets a
    :class:`DefaultStrategy` whose ties are broken by its own seed (its position in
    ``usernames``).  ``on_progress``: given to every :class:`Bot`.
    """
    if strategies is not None and len(strategies) != len(usernames):
        raise ValueError("give one strategy per username")

    async def one(index: int, username: str) -> BotResult:
        async with CanfieldClient(base_url, **(client_options or {})) as client:
            await client.register_or_login(username, password)
            if strategies is not None:
                chosen = strategies[index]
            else:
                chosen = DefaultStrategy(seed=index) if strategy is None else strategy
            bot = Bot(
                client,
                race_id,
                strategy=chosen,
                think=think,
                jitter=jitter,
                on_stuck=on_stuck,
                seed=index,
                on_progress=on_progress,
            )
            try:
                return await bot.run()
            except ApiError as exc:
                # The server's answer (the race is over, no such race, ...): one line, as
                # the command's FAILED line says it; a traceback told a bot author nothing
                # more and looked like a crash of the client.
                log.error("bot %s failed: %s", username, exc)
                raise
            except Exception:
                log.exception("bot %s failed", username)
                raise

    return list(
        await asyncio.gather(*(one(i, u) for i, u in enumerate(usernames)), return_exceptions=True)
    )
