"""Readable winning lines: a sound post-pass that shortens a solver's line.

The solver (:mod:`games.engine.solver`) returns the first winning line its
depth-first search finds.  Such a line wins, but it can wander: a card put on
one pile and then on another with nothing built on it in between
(``9S>t1 ... 9S>t2 ... 9S>t1``), a stretch of play that comes back to a
position it already had, a pass through the stock that plays nothing.
:func:`tidy_line` removes that without ever giving up the win.

Three rewrites, repeated until none changes the line (at most 8 rounds):

1. **Cycle cut.**  Replay the line and key every position it reaches (the
   reserve, the four tableau piles as a multiset, the foundations, the stock,
   the waste).  If the position after move ``j`` equals the position after
   move ``i < j`` (redeals used aside), moves ``i+1 .. j`` are dropped and the
   destinations ``t1..t4`` of the later moves are renamed to the piles that
   hold the same cards at ``i``.  From position ``i`` the rest of the line is
   then playable: no rule tells the tableau piles apart (RULES.md 3-4), no
   move's legality depends on the redeal count except ``redeal`` itself, and
   position ``i`` has at least as many redeals left (redeals used only grow,
   RULES.md 3.6).  This removes round trips of a card or of whole piles and
   stock passes that play nothing.
2. **Pointless-move deletion.**  For each move that puts a card on a tableau
   pile (``<card>>t<n>``), try the line without it; when that fails, also
   without the next move of the same card (a move that a later move undoes
   or redirects).  A candidate is kept only if every remaining move is legal
   and the line still ends with 52 cards home; the check replays from the
   position before the deleted move and stops early as soon as the new line
   is in exactly the position the old line had after the same move, since
   from there both lines play the same moves from the same position.
3. **Shortcuts.**  From each position, every sequence of at most ``depth``
   (default 2) legal moves is tried; when one reaches, up to pile order, a
   position that the line reaches only more moves later, the stretch between
   is replaced by that sequence (destinations renamed as in 1).  This finds
   detours that are not plain round trips, such as a card moved twice where
   one move would do.

Why the result is sound: every kept candidate was replayed by the engine
(``GameState.play``, the same rules as a player's game) until it either
rejoined the old line in an identical position or reached 52 cards home; and
the returned line is replayed once more from the start to 52 cards home
before it is returned (``AssertionError`` otherwise: a bug, never a silently
wrong line).  Move notation names the card, not the source pile (RULES.md 5),
so dropping a move leaves every later move's text meaningful.

Cost: the cycle cut is linear in the line length; each deletion attempt
replays at most the rest of the line and usually only the few moves until the
lines rejoin.  ``max_plays`` bounds the total number of engine moves spent;
when it runs out the best line so far is returned (still a verified win).
"""

from __future__ import annotations

from typing import Any, Final

from .state import GameState

#: Default bound on engine moves replayed by :func:`tidy_line` (about 1-2 s of CPU).
DEFAULT_MAX_PLAYS: Final = 200_000
_PASSES: Final = 8


def _position(state: GameState) -> tuple[Any, ...]:
    """The position up to pile order, without the redeal count: what the cycle cut compares."""
    return (
        tuple(state.reserve),
        tuple(sorted(tuple(p) for p in state.tableau)),
        tuple(state.found),
        tuple(state.stock),
        tuple(state.waste),
    )


def _exact(state: GameState) -> tuple[Any, ...]:
    """The whole position, piles in their real order (what a rejoin compares)."""
    return (_position(state), tuple(tuple(p) for p in state.tableau), state.redeals_used)


def _pile_renaming(later: GameState, earlier: GameState) -> dict[str, str]:
    """``{"tN": "tM"}``: pile N of ``later`` holds what pile M of ``earlier`` holds.

    The two positions are equal up to pile order; equal piles (empty ones) are
    paired in order.
    """
    free = list(range(4))
    rename: dict[str, str] = {}
    for n, pile in enumerate(later.tableau):
        m = next(m for m in free if earlier.tableau[m] == pile)
        free.remove(m)
        rename[f"t{n + 1}"] = f"t{m + 1}"
    return rename


def _renamed(move: str, rename: dict[str, str]) -> str:
    card, sep, dest = move.partition(">")
    return f"{card}>{rename.get(dest, dest)}" if sep else move


class _Spent(Exception):
    """The play budget ran out."""


class _Tidier:
    def __init__(self, start: GameState, max_plays: int) -> None:
        self.start = start
        self.plays_left = max_plays

    def play(self, state: GameState, move: str) -> None:
        if self.plays_left <= 0:
            raise _Spent
        self.plays_left -= 1
        state.play(move)

    def states(self, moves: list[str]) -> list[GameState]:
        """Positions before move 0, after move 0, ..., after the last move (copies)."""
        state = self.start.copy()
        out = [state.copy()]
        for move in moves:
            self.play(state, move)
            out.append(state.copy())
        return out

    def cut_cycles(self, moves: list[str]) -> list[str]:
        """Rewrite 1: jump from a position to the last later position equal to it.

        Positions are compared up to the order of the tableau piles; the moves
        after the jump have their destinations ``t1..t4`` renamed so that they
        act on the same piles as before.
        """
        while True:
            states = self.states(moves)
            last: dict[tuple[Any, ...], int] = {}
            for index, state in enumerate(states):
                last[_position(state)] = index
            for i, state in enumerate(states):
                j = last[_position(state)]
                if j > i:
                    rename = _pile_renaming(states[j], state)
                    moves = moves[:i] + [_renamed(m, rename) for m in moves[j:]]
                    break
            else:
                return moves

    def shortcut(self, moves: list[str], depth: int) -> list[str]:
        """Rewrite 3: replace a stretch of the line by a shorter one found by a small search.

        From each position, every sequence of at most ``depth`` legal moves is
        tried; when one reaches (up to pile order) a position that the line only
        reaches more moves later, the stretch is replaced by it and the moves after
        it have their destinations renamed.  Stops early (with a winning line) when
        the play budget runs out.
        """
        try:
            states = self.states(moves)
            last = {_position(state): index for index, state in enumerate(states)}
            i = 0
            while i < len(moves):
                found = self._search_from(states[i], last, i, depth)
                if found is None:
                    i += 1
                    continue
                seq, j, reached = found
                rename = _pile_renaming(states[j], reached)
                moves = moves[:i] + seq + [_renamed(m, rename) for m in moves[j:]]
                states = self.states(moves)
                last = {_position(state): index for index, state in enumerate(states)}
        except _Spent:
            pass
        return moves

    def _search_from(
        self, start: GameState, last: dict[tuple[Any, ...], int], i: int, depth: int
    ) -> tuple[list[str], int, GameState] | None:
        """The best shortcut from ``start`` (line index ``i``) within ``depth`` moves."""
        best: tuple[list[str], int, GameState] | None = None
        frontier: list[tuple[list[str], GameState]] = [([], start)]
        for d in range(1, depth + 1):
            following: list[tuple[list[str], GameState]] = []
            for seq, state in frontier:
                for move in state.legal_moves():
                    child = state.copy()
                    self.play(child, move)
                    j = last.get(_position(child))
                    if (
                        j is not None
                        and j - i > d
                        and (best is None or j - i - d > best[1] - i - len(best[0]))
                    ):
                        best = ([*seq, move], j, child)
                    following.append(([*seq, move], child))
            frontier = following
        return best

    def try_without(
        self, moves: list[str], states: list[GameState], drop: tuple[int, ...]
    ) -> tuple[list[str], int] | None:
        """The line without the moves at ``drop`` (ascending), if it still wins; else None.

        Returns ``(line, rejoin)``: ``rejoin`` is the index in the old ``states`` of
        the position where the new line rejoined the old one (``len(moves)`` when it
        only reached 52 cards home at the end).
        """
        first = drop[0]
        state = states[first].copy()
        kept = [m for i, m in enumerate(moves) if i not in drop]
        old_index = first  # index in ``moves`` of the next move to play
        try:
            while old_index < len(moves):
                if old_index in drop:
                    old_index += 1
                    continue
                self.play(state, moves[old_index])
                old_index += 1
                if old_index > drop[-1] and _exact(state) == _exact(states[old_index]):
                    return kept, old_index  # same position, same moves after it
        except ValueError:  # MoveError, IllegalMoveError, GameOverError
            return None
        return (kept, len(moves)) if state.cards_home == 52 else None

    def splice(
        self, states: list[GameState], moves: list[str], first: int, rejoin: int, dropped: int
    ) -> list[GameState]:
        """The positions of the new line ``moves`` after a deletion at ``first``.

        Positions before ``first`` and from the rejoin on are the old ones (shifted).
        """
        state = states[first].copy()
        middle = []
        for move in moves[first : rejoin - dropped]:
            self.play(state, move)
            middle.append(state.copy())
        return states[: first + 1] + middle + states[rejoin + 1 :]

    def delete_pointless(self, moves: list[str]) -> list[str]:
        """Rewrite 2: drop card-to-tableau moves that the line does not need.

        Returns the shortest line reached; stops early (still a winning line) when
        the play budget runs out.
        """
        try:
            states = self.states(moves)
            k = 0
            while k < len(moves):
                card, sep, dest = moves[k].partition(">")
                if sep and dest.startswith("t"):
                    drop: tuple[int, ...] = (k,)
                    found = self.try_without(moves, states, drop)
                    if found is None:
                        later = next(
                            (
                                i
                                for i in range(k + 1, len(moves))
                                if moves[i].startswith(card + ">")
                            ),
                            None,
                        )
                        if later is not None:
                            drop = (k, later)
                            found = self.try_without(moves, states, drop)
                    if found is not None:
                        shorter, rejoin = found
                        old = moves
                        moves = shorter
                        if rejoin >= len(old):
                            states = self.states(moves)
                        else:
                            states = self.splice(states, moves, k, rejoin, len(drop))
                        continue  # the move now at index k is new: try it too
                k += 1
        except _Spent:
            pass
        return moves


def tidy_line(
    state: GameState,
    moves: list[str],
    *,
    max_plays: int | None = DEFAULT_MAX_PLAYS,
    depth: int = 2,
) -> list[str]:
    """Shorten a winning line from ``state`` without losing the win (see the module doc).

    ``moves``: a line in move notation (RULES.md 5) that wins from ``state``
    (52 cards home).  Returns a line, never longer, that also wins from
    ``state``, in canonical notation.  ``max_plays``: engine moves to spend at
    most (``None``: no bound).  ``state`` is not modified.

    Raises ``AssertionError`` when the given line does not win from ``state``
    (a caller's bug) or when the result would not (a bug here).
    """
    tidier = _Tidier(state, max_plays if max_plays is not None else 1 << 62)
    canonical: list[str] = []
    check = state.copy()
    for number, move in enumerate(moves, 1):
        try:
            canonical.append(check.play(move))
        except ValueError as exc:
            raise AssertionError(f"line refused at move {number} ({move}): {exc}") from exc
    if check.cards_home != 52:
        raise AssertionError(f"line ends with {check.cards_home} cards home, not 52")
    best = canonical
    for _ in range(_PASSES):
        before = len(best)
        try:
            best = tidier.cut_cycles(best)
        except _Spent:
            break  # ``best`` is always a complete, checked line
        best = tidier.delete_pointless(best)
        best = tidier.shortcut(best, depth)
        if len(best) == before or tidier.plays_left <= 0:
            break
    final = state.copy()
    for move in best:
        final.play(move)
    if final.cards_home != 52:  # pragma: no cover - would be a bug in the rewrites
        raise AssertionError("tidied line does not win")
    return best
