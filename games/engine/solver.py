"""A perfect-information ("thoughtful") Canfield solver: ``won`` / ``lost`` / ``unknown``.

Usage::

    from games.engine import new_game
    from games.engine.solver import solve

    result = solve(new_game("classic", seed="7"), max_nodes=2_000_000, max_seconds=10)
    result.result   # "won" | "lost" | "unknown"
    result.moves    # winning line from the given position, canonical notation (RULES.md 5)

Every card is known to the solver (face-down reserve cards and the stock order
included), so ``won`` means "winnable by a player who could see everything".
It works for every preset and option of RULES.md 4.

Two implementations of one search: this module's Python code and the C core
``games/engine/_solver.c`` (built by the package install from ``setup.py``
when a C compiler is present; ``optional``, so an install without one still
works).  :func:`solve` uses the C core when it is built (``engine`` argument or
``CANFIELD_SOLVER`` environment variable: ``auto`` / ``c`` / ``python``).  The
C core follows the same steps in the same order, so with a node budget both
give the same verdict, node count and winning line (tests/engine/test_solver_c.py
checks this; with a time budget the C core simply gets further); its table
stores every key in full (no hash-collision can prune a new position), its
depth-first search uses an explicit stack, and a memory cap (``max_bytes``)
gives ``unknown`` like the node and time budgets.  Every win of either is
replayed with the engine before :func:`solve` returns it.

The search
==========

Depth-first search over positions with a transposition table (a set of the
canonical keys of every position reached).  This is graph reachability: each
position reachable from the root is expanded at most once, and a winning
position (52 cards home, RULES.md 3.9) is found iff one is reachable, so the
answer ``lost`` is given only when every reachable position was expanded
without a budget cut-off.  Cycles (a card moved back and forth between piles,
or back to where it came from after an auto-fill) are simply positions already
in the table; no move is ever forbidden because it "undoes" an earlier one.

Internal representation (all immutable, so children share structure):

* ``nr``: cards still in the reserve; the reserve is the fixed ``bytes``
  ``R`` (bottom to top) and its top is ``R[nr - 1]`` (RULES.md 3.5: the reserve
  is never refilled, so a count is enough).
* ``found``: the four foundation counts packed 4 bits each
  (``(found >> 4 * suit) & 15``); a card of relative rank
  ``(rank - base) % 13 == count`` is the next one of its suit (RULES.md 3.2).
* ``piles``: four ``bytes``, bottom to top, in their real order t1..t4.
* ``talon``: stock and waste as one ``bytes`` in draw order: the waste bottom
  to top, then the stock from its next card on; ``w`` is the waste length, so
  the waste top is ``talon[w - 1]``.  ``draw`` is ``w = min(w + draw, len)``;
  ``redeal`` is ``w = 0`` (the cards come back in the same order, RULES.md 3.6).
* ``rl``: redeals left, ``-1`` when unlimited.

Canonical key (``bytes``): ``nr``, ``w``, ``rl`` (0 when unlimited), the
talon, and the four piles **sorted**.  The foundations are not in the key: they
hold exactly the cards that are nowhere else.  The key ignores tableau pile
order because no rule tells the piles apart (every rule of RULES.md 3-4 treats
t1..t4 alike), so positions that differ by a permutation of the piles are
won or lost together.  Moves are still generated from the real piles, so the
move list names the real t1..t4.

Search steps (one node = one position, after safe foundation moves):

1. *Stock and waste as a set of reachable cards.*  Draws and redeals change
   only the stock and waste, and no other move's legality depends on them
   (except that the waste top is a source).  So in any winning line every
   ``draw``/``redeal`` can be postponed until just before the next move that
   plays a waste card, and those after the last waste play can be dropped.
   A search step therefore plays "draw/redeal to waste position ``p``, then
   play the waste top": one step per reachable waste card, with the concrete
   ``draw``/``redeal`` sequence emitted in the move list.  Reachable
   positions: the current waste top; ``w + k*draw`` (capped at the talon
   length) in the current pass; after one redeal (if one is left),
   ``k*draw`` (capped).  Further redeals reach no new position.  A position
   reachable both without and with a redeal is taken without: the two
   resulting positions are equal except that the first has more redeals
   left, and a position with more redeals left can play every line the other
   can (dominance).  With unlimited redeals the count is not in the key, and
   two positions that differ only in ``w`` have the same children when they
   reach the same set of waste positions, so the key writes ``w = 0``
   whenever ``w``'s set equals that of a fresh pass: always for draw 1, and
   for ``w`` a multiple of the draw or ``w`` = talon length otherwise (from
   there one redeal leads to the fresh pass, and the fresh pass reaches
   ``w`` itself).
2. *Safe foundation moves* are played at once and not branched on (see
   below).  All other foundation moves are ordinary search moves, tried first.
3. Move order, best first.  Order never changes a verdict (every child is
   still tried), only how soon a win is found.  Five classes, each in the
   order the moves are generated: (4) the reserve top home or onto the
   tableau; (3) moves that empty a tableau pile that the reserve then
   auto-fills (the top card of a one-card pile home, a whole pile onto
   another); (2) other tableau cards home; (1) the other tableau-to-tableau
   moves, then waste to tableau; (0) waste cards home.  Playing every
   foundation move first (the order before this one) commits cards home that
   a win still needs as build targets; on classic seeds 0..999 with 10 s per
   deal (one search per deal, no restarts) this order and the C core's
   present table left 28 deals undecided, the old order and table 43.

   Move order 4, the *heuristic order*, ranks the children of a node by the
   position each one leads to (before its safe moves): score
   ``8 * (2 * cards home - reserve cards - 2 * waste cards)``, highest first,
   ties in the standard class order above (with the moves of each class
   shuffled when the search has a shuffle seed); a search with a shuffle seed
   also adds a jitter drawn from ``0..64`` to each score (so a restart may prefer a child
   up to four waste cards worse).  It is still only an order of the children.
   The waste term carries it: with draw 1 and no redeal (``rainbow``) a card
   taken from deep in the stock buries every card drawn past it under the
   waste, to come back only in reverse order, and a line that keeps the waste
   short wins far more often
   (rainbow seeds 0..59, one search of 2 million positions each: 26 of the 60
   deals won when the waste is the only term, 3 when only cards home and
   reserve count, 26 with this score; the standard order with restarts and 10
   million positions won 14).
4. Duplicate moves that give the same position up to pile order are
   generated once: a whole pile moved onto an empty pile (a pure permutation
   of the piles: nothing is auto-filled, because a pile can only be empty
   when the reserve is empty or auto-fill is off), and a card put on an
   empty pile is tried on the first empty pile only.

Restarts
========

A depth-first search that commits early to a bad line must exhaust the whole
subtree under it before trying anything else, and on a few deals that
subtree has tens of millions of positions while a win sits in another branch.
So :func:`solve` does not spend its whole budget on one search: the first
search (standard order, no shuffle) gets 40% of the budget (5% when the
heuristic restarts below run, so that they come almost at once).  If it ends
undecided it is *paused*, not dropped, and restarts follow; restart ``k = 1,
2, ...`` (both kinds below counted together) shuffles the moves of each class
with an xorshift64 generator seeded with ``k`` times ``0x9E3779B97F4A7C15``,
and gets at most what is left of the restarts' share:

* first, when no redeal is left (``rainbow``, ``one-pass``, any game whose
  redeals are used up), the *heuristic restarts* ("probes"): the ``j``-th
  runs move order 4 (step 3, with its jitter) with ``0.02% * 1.02 ** (j - 1)``
  of the budget, until the probes have spent 30% of it together (of each
  budget that is set: nodes, seconds);
* then, in what is left of the restarts' share (nothing once the probes have
  had their 30%), the *class-order restarts*: the ``m``-th runs move order ``m % 4``
  (1: foundation moves first, 2: foundation moves last, 3: a class per move
  category drawn at random, 0: the standard order) with
  ``2% * 1.3 ** (m - 1)`` of the budget.

When the restarts of both kinds have spent 30% of the budget, the first
search *goes on* where it stopped, with all that is left (so 70% in all).
Going on is exact: the search keeps its table and stack while paused, and a
search run in slices takes the same steps as one search with the sum of the
slices' node budgets (C core and Python alike; ``_OneSearch``).  It is what
proves the losses whose position space is larger than the first slice: a
``lost`` needs one search that expands the whole space, and before this every
restart started again from nothing, so a lost deal whose space held more than
40% of the budget's positions stayed undecided whatever the budget left.
Measured with 10 million positions per deal, against the schedule without
going on (first search 40%, restarts the other 60%), on the deals of seeds
0..999 that the first 40% did not decide: Solvitaire strict decided 7 more
and none fewer (of 38 such deals), the Wolter
rules 9 more and 2 fewer (won by late restarts before), superior 4 fewer
(late restart wins; its losses are proved in a few hundred positions),
draw-one 1 fewer; classic the same (873 won, 122 lost, the same 5
deals undecided); rainbow seeds 0..59 as many (40 won, 2 lost).

The paused first search keeps its memory while the restarts run, so each
restart's memory cap is the cap less what the first search holds (no restart
when nothing is left): the tables and stacks of :func:`solve` stay within
``max_bytes`` (less a few tens of kilobytes of fixed structures).
A restart stopped by the C core's memory cap ends the restarts (another
order would fill the same room) and the first search goes on; the first
search stopped by the cap ends :func:`solve` (undecided).  Shares are counted
in the positions the searches report (a search that runs out reports one more
than it expanded; the first search counts the position it paused on once) and
in wall time.  Everything is deterministic for a given node budget without a time
budget.

No restart changes what a search proves: each one is the complete search
above with another order of the children (step 3), and order never prunes a
child, so each can answer ``won`` (replayed) or ``lost`` (its whole space
expanded) on its own.  Restarts only cost a lost deal the part of their share
(30%) that the first search cannot reuse: what they prove lost it skips
("Dead sets" below).  The measured effect on classic
(docs/winnability.md): 28 undecided deals of seeds 0..999 with one search per
deal, 11 with restarts over orders 0..2, 5 with order 3 added.  The schedule
(40%, 2%, 1.3, four orders, and the 30% after which the first search goes
on) was chosen by trying a few settings on those same seeds and the
other rule sets' seeds 0..999; it is a speed setting, never a rule or a
verdict.

The probes are many short dives rather than a few long searches: a rainbow
deal that the heuristic order wins at all it mostly wins within a few hundred
positions, or after a jitter sends an early choice another way.  On rainbow
seeds 0..59 with 10 million positions per deal: 16 decided with the class-order
restarts only, 42 with the probes (30%) before them (``manage.py solve
--variant rainbow --seeds 0-59 --budget-seconds 0 --budget-nodes 10000000``).
The alternatives were compared in an experimental build whose ties fell in
generation order, unshuffled (43 deals for this schedule there): order 4 for
the first search and probes in place of every class-order restart decided 44
rainbow deals but cost ``superior`` 15 of seeds 0..199 (176 decided against
191), so the probes got 30% and the class-order restarts the rest.  Since the
first search goes on after 30% of restarts, the probes are all the restarts a
rule set without redeals gets (rainbow seeds 0..59 at 10 million positions:
42 deals decided, 40 won and 2 lost, as many as with the class-order
restarts after the probes).  Most rainbow deals that the probes win they
win within a few hundred thousand positions of the first probe, so with the
first slice at 40% they waited for it: with 5%, rainbow seeds 0..59 at 10
million positions gave the same 41 won and 2 lost (17 undecided), seeds
60..199 88 won, 2 lost, 50 undecided against 86, 2 and 52, and 26% fewer
positions in all (550 million against 738; one setting tried).  The first
search still has 70% of the budget in all, so it proves the same losses.  Probes
run only when no redeal is left, where the waste term of the score stands for
a real cost (cards buried for the rest of the game): with redeals they cost
deals (seeds 0..999 at 10 s: classic 7 undecided instead of 5, draw-one 10
instead of 7), and without them the schedule of every rule set with redeals is
the one before the probes, step for step.  These settings too were chosen on
the seeds they were measured on.

Dead sets
=========

A search that ends undecided has still proved positions lost, and the
searches of one :func:`solve` share them.  Every search runs Tarjan's strongly
connected components algorithm along its depth-first search (the same steps,
only bookkeeping: a visit number for each position in its table, a low link
for each position on its path, and Tarjan's stack of the positions reached
whose component is not yet complete).  When a position is left with every
child tried and its low link is its own number, it and every position above
it on Tarjan's stack form a *complete* component: every position reachable
from them has been expanded and is in this component or in a complete one
found before (or is dead, below), and none was a win (a win ends the search).
So each of them is lost, whatever order or budget found it: a position's
children depend on the position alone (steps 1-4 and the safe moves are
decided position by position, and a key stands for positions that are won or
lost together), so every search of one position explores one graph.  These
positions are *dead*.

* Each restart skips every position that is dead in the paused first search
  (``refer``): it neither expands it nor enters it in its own table, and
  Tarjan's algorithm treats it as complete.
* When a restart ends undecided, its dead positions go into the first
  search's table (``import_dead``), marked dead there, so later restarts skip
  them too and the first search, when it goes on, never expands them.

A ``lost`` of any search then still means that every position reachable from
the root was expanded by it or proved lost by another search; wins are
unchanged (replayed).  Restarts thus cost a lost deal only the positions that
are open (on a path) when a search pauses: on strict seed 5 the schedule with
16,000 positions proves the loss in 7,220 against 11,991 with each search
alone and 7,190 for one search, and on the Solvitaire strict deals of seeds
0..999 left undecided at 10 s by the schedule before this, with 12 million
positions each, 12 were proved lost instead of 8 (one search alone: 12).

Being *finished* (left with every child tried) is not enough, which is why
the low links are kept: a child that was on the path when it was reached was
skipped, and the path may still lead to a win the paused search had not
reached (``a -> x -> a`` and ``a -> win``, with ``x`` tried first: ``x`` is
finished, and won).  tests/engine/test_solver.py checks, with complete plain
searches from the positions, that a paused search's complete components are
lost and that positions it finished outside them are won.  The bookkeeping
costs a bit per position and four bytes per open one, and the visit numbers:
the C core keeps each in the top half of its key's last word, which the
presets' keys leave free (145 of 192 bits for classic, 198 of 256 for
rainbow, ``make_key``), so a table holds as many positions with dead sets as
without (a key that fills its words, a pile that is no chain, gets a word
more per slot).  With the number in a word of its own, dead sets made each
position 26% slower (0.74 of the positions per second on Solvitaire strict
deals 141, 626, 907 and 980 at 7 million positions each), with it in the key
12% (0.88; Wolter rules 0.85, rainbow 0.90; ``benchmarks/solver_dead_sets.py``,
docs/winnability.md).

Restricted game first
=====================

In a game without auto-fill whose empty piles take any card (``superior``,
RULES.md 4), the reserve's top may fill an empty pile at any time.  So every
line of the same position *with* auto-fill (RULES.md 3.7) is a line of this
game once each auto-fill is written as its own move, the reserve top onto
the pile that just emptied (``_lift_restricted_line``): after every lifted
move the two games hold the same cards in the same places.  That restricted
game is much smaller (while the reserve lasts a space takes one card, never
a choice), so when a budget is set and restarts are on, :func:`solve` first
runs the whole schedule above on it, with ``_RESTRICTED_SHARE`` (25%) of each
budget: a win there is lifted, replayed by the engine in the real game and
returned.  A loss there proves nothing (the real game may still win by
putting another card in a space), so the real game's own schedule then runs
with what is left.  Only positions the restricted game can have qualify: no
empty pile while the reserve holds cards (``_restricted_game``); the cost is
the share a lost deal's restricted game spends undecided.

Measured on the 55 ``superior`` deals of seeds 0..999 that 2 million positions
leave undecided, with 10 million positions per deal: 12 won, 1 lost, 42
undecided without the restricted game; 28 won, 1 lost, 26 undecided with it
(25% and 40% gave the same, 15% one deal fewer).  25 of the 55 are won in the
restricted game (within 10 million positions on their own), mostly within
one or two million.  The ``any-run`` rule sets have a restricted game too
(``top-or-whole`` moves are ``any-run`` moves); on the Wolter rules' 63 deals
of seeds 0..999 undecided at 2 million positions it decided fewer (10 won, 22
lost, against 11 and 24 without), so it is not used.

Safe automatic foundation moves (conservative)
==============================================

Card ``c`` (suit ``s``) that is next on its foundation is played home without
branching when **all** of:

(a) every card ``d`` that the build rule lets go on ``c`` in the tableau
    (``fits(d, c)``: rank one lower with wrapping, colour / suit per
    ``build``, and never when ``c`` has the base rank under
    ``tableau_wrap: base-relative``, RULES.md 3.3 and 4) is already on its
    foundation, **or** is the next card of its foundation with every card
    ``e`` that fits on ``d`` already home, this second clause only when every
    tableau pile is a *chain* (each card fits on the one under it: true of
    every dealt game, and every move keeps it).  Under ``build: any-suit`` that is:
    ``c``'s foundation is at most one card ahead of the lowest one; under
    alternate colours: the two foundations of the other colour hold the cards
    of rank ``c - 2``, and each holds ``c - 1`` too or the other foundation of
    ``c``'s colour holds ``c - 2``.  Note that under ``modulo`` wrapping a
    base-rank card accepts the cards of rank ``base - 1``, which go home
    last, so base-rank cards are practically never safe there; and
(b) by source:

    * tableau: the pile holds at least one card under ``c``, or no auto-fill
      can happen (``autofill`` off, or the reserve is empty);
    * reserve: ``autofill`` is off, or ``c`` is the last reserve card;
    * waste: only when ``draw`` is 1.

Why no win is lost.  Let ``L`` be a winning line from position ``S`` and
``S'`` the position after ``c>f``.  First the case where every ``d`` of (a)
is home.  Build ``L'`` from ``L`` by deleting every
move of ``c`` alone (to a pile or home) and carrying ``c`` invisibly in every
run it is part of.  By (a), no card can ever be placed on ``c`` (foundations
never give cards back), so in ``L`` ``c`` is always the top of its pile and
never the target of a move; deleting it leaves every other move's source
card, target card, and run bottom unchanged, and foundation moves of later
cards of suit ``s`` are legal since ``c`` is already home.  What (b) guards
is the *auto-fill* (RULES.md 3.7), which would otherwise differ between
``L`` and ``L'``: from a pile with cards under ``c``, taking ``c`` empties
nothing; from a one-card pile, ``S'`` has an empty pile where ``L`` keeps
``[c]``, which is harmless only if nothing is auto-filled into it (``L'``
simply leaves it unused, an empty pile makes no move illegal).  Taking the
reserve top changes which card the next auto-fill brings, unless auto-fill is
off or the reserve becomes empty (then ``L``'s auto-fill of ``c`` into a pile
corresponds to that pile staying empty in ``L'``).  For the waste with draw 1,
removing ``c`` keeps the order of the other talon cards: ``L'`` replays
``L``'s draws except the one that turns ``c`` (and a redeal of a waste that
holds only ``c``), so every waste top of ``L`` other than ``c`` is a waste top
of ``L'`` with no more redeals used.  With draw 3 removing a waste card
regroups the later draws, so waste cards are never auto-played then.
Conversely ``S'`` is reachable from ``S``, so ``S`` is won iff ``S'`` is.

A ``d`` that is not home but next (its foundation can hold nothing more
without ``d``, so it stays next until ``d`` goes home) may be put on ``c`` in
``L``.  ``L'`` plays ``d`` home instead, at that same move and from the same
source (so the source pile, reserve or waste changes exactly as in ``L``,
auto-fill included), and deletes every later move of ``d``.  Nothing can ever
be placed on ``d``, because every ``e`` that fits on it is home, and nothing
lies on it in ``S`` (in a chain only an ``e`` could), so in ``L`` ``d`` is
always the top of whatever pile it is on, it goes onto ``c`` alone, and a run
holding it has ``d`` on top: deleting it (with ``c`` under it) leaves every
other move's source card, target card and run bottom unchanged, and a later
``d>f`` of ``L`` is already done.  A pile that ``L`` gives ``d`` alone (``d``
moved to an empty pile) stays empty in ``L'``; that pile was empty in ``L``
too, which happens only when nothing can be auto-filled into it (auto-fill
off, or the reserve empty; the reserve is never refilled), so in ``L'`` it
stays empty and an empty pile makes no move illegal.  Each foundation of ``L'`` holds at least
the cards of ``L``'s at every step, so ``L``'s foundation moves stay legal.
Written with ``fits``, the condition holds for every ``build`` and
``tableau_wrap``.  tests/engine/test_solver.py checks it against the plain
exhaustive search on positions where this second clause plays a card home,
and on two won positions that a looser rule calls lost: one whose piles are
not chains, one where ``d`` is a card short of next.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Final

from .cards import RANK_OF, SUIT_OF
from .moves import MOVE_NAMES
from .state import GameState, fit_table

_csolver: ModuleType | None
try:  # the C core, built by the package install when a compiler is present (setup.py)
    from . import _solver as _csolver
except ImportError:  # pragma: no cover - depends on the install
    _csolver = None

WON: Final = "won"
LOST: Final = "lost"
UNKNOWN: Final = "unknown"

_TOP_OR_WHOLE, _WHOLE_PILE, _ANY_RUN = 0, 1, 2
_MODES: Final = {"top-or-whole": _TOP_OR_WHOLE, "whole-pile": _WHOLE_PILE, "any-run": _ANY_RUN}
_CHECK_EVERY: Final = 2048
#: Engines for :func:`solve`: ``auto`` (C when built, else Python), ``c``, ``python``.
ENGINES: Final = ("auto", "c", "python")
#: Environment variable that chooses the engine when ``solve`` is not told.
ENGINE_ENV: Final = "CANFIELD_SOLVER"
#: Default memory cap of the C core's tables and stacks (bytes), for all the searches
#: of one :func:`solve` together (the paused first search and a restart).
DEFAULT_MAX_BYTES: Final = 1 << 30
_DRAW: Final = "draw"
_REDEAL: Final = "redeal"

#: A child: (moves to reach it, nr, found, piles, talon, w, rl).
_Child = tuple[tuple[str, ...], int, int, tuple[bytes, bytes, bytes, bytes], bytes, int, int]
#: A position of the search: (nr, found, piles, talon, w, rl).
_Position = tuple[int, int, tuple[bytes, bytes, bytes, bytes], bytes, int, int]

# Move categories and their class under each move order (module doc, step 3;
# the same table as ORDER_CLASS in _solver.c).
_CAT_RF, _CAT_RT, _CAT_TF_FILL, _CAT_TF, _CAT_TT_FILL, _CAT_TT, _CAT_WT, _CAT_WF = range(8)
_ORDER_CLASS: Final = (
    # RF RT TFf TF TTf TT WT WF
    (4, 4, 3, 2, 3, 1, 1, 0),  # 0: standard
    (4, 2, 3, 3, 1, 1, 0, 3),  # 1: foundation moves first
    (4, 4, 3, 0, 3, 1, 1, 0),  # 2: foundation moves last
)
#: Move order 3: a class table drawn from the shuffle seed (``_Search``).
_RANDOM_ORDER: Final = 3
_ORDERS: Final = 4
#: Move order 4: children by their heuristic score (module doc, "Move order"; ``heuristic``
#: in _solver.c), ties in the standard class order (shuffled within classes with a shuffle
#: seed); with a shuffle seed, plus a jitter drawn from ``0.._HEURISTIC_JITTER``.
_HEURISTIC_ORDER: Final = 4
_HEURISTIC_JITTER: Final = 64
#: Restart schedule (module doc, "Restarts"): the first, deterministic search gets
#: ``_FIRST_SHARE`` of the budget (``_FIRST_SHARE_BEFORE_PROBES`` when heuristic
#: restarts run).  Then the heuristic restarts: the ``j``-th gets
#: ``_PROBE_SHARE * _PROBE_GROWTH ** (j - 1)`` of it, with move order 4, until they
#: have spent ``_PROBES_SHARE`` of it together.  Then the class-order restarts: the
#: ``m``-th gets ``_RESTART_SHARE * _RESTART_GROWTH ** (m - 1)``, with move order
#: ``m % 4``.  Each gets at most what is left of ``_RESTARTS_SHARE``; then the first
#: search goes on with all the rest.  Restart ``k`` (counting both kinds from 1) has
#: shuffle seed ``k * _GOLDEN``.
_FIRST_SHARE: Final = 0.4
#: The first search's first slice when heuristic restarts run (no redeal left): they
#: come almost at once, and the first search goes on after them as before.
_FIRST_SHARE_BEFORE_PROBES: Final = 0.05
_PROBE_SHARE: Final = 0.0002
_PROBE_GROWTH: Final = 1.02
_PROBES_SHARE: Final = 0.3
_RESTART_SHARE: Final = 0.02
_RESTART_GROWTH: Final = 1.3
#: The restarts of both kinds stop when they have spent this share of the budget; the
#: first search then goes on where it stopped, with all that is left.
_RESTARTS_SHARE: Final = 0.3
#: Share of the budget (nodes and seconds) of the search of the restricted game, before
#: the real game's searches (module doc, "Restricted game first"; ``_restricted_game``).
_RESTRICTED_SHARE: Final = 0.25
#: The searches of one ``solve`` keep Tarjan's bookkeeping and share the positions they
#: prove lost (module doc, "Dead sets").  A speed setting, never a verdict: False gives
#: the schedule before dead sets (each search alone), which the tests compare with.
_DEAD_SETS = True
_GOLDEN: Final = 0x9E3779B97F4A7C15
#: Restart slices stop growing after this many steps (no float overflow, ever).
_MAX_GROWTH_STEPS: Final = 100
_MAX_PROBE_GROWTH_STEPS: Final = 1000
_MASK64: Final = (1 << 64) - 1


class _XorShift:
    """xorshift64 and a Fisher-Yates shuffle: the same sequence as ``next_random`` in C."""

    def __init__(self, seed: int) -> None:
        self.x = seed & _MASK64

    def next(self) -> int:
        x = self.x
        x ^= (x << 13) & _MASK64
        x ^= x >> 7
        x ^= (x << 17) & _MASK64
        self.x = x
        return x

    def shuffle(self, items: list[_Child]) -> None:
        for i in range(len(items), 1, -1):
            j = self.next() % i
            items[i - 1], items[j] = items[j], items[i - 1]


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``result``: ``"won"`` (``moves`` is a winning line from the given position,
    checked by replaying it with the engine to 52 cards home), ``"lost"``
    (every reachable position was searched: no win exists) or ``"unknown"``
    (the node or time budget ran out first; ``moves`` is empty).
    ``nodes``: positions expanded; ``seconds``: wall time spent.
    """

    result: str
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


#: What ``_Search._enter`` did with a position.
_PAUSED, _WIN, _ENTERED = object(), object(), object()


def c_available() -> bool:
    """True when the C core (``games/engine/_solver.c``) was built and imports."""
    return _csolver is not None


#: ``fits[c * 52 + t] == 1`` when card ``c`` may be built on tableau card ``t``: the
#: engine's own table (RULES.md 3.3 and 4), so solver and engine cannot disagree.
build_fits = fit_table


class _Search:
    """One search: the fixed data of the problem, the table, counters and the current path."""

    def __init__(
        self,
        state: GameState,
        safe_auto: bool,
        order: int = 0,
        shuffle: int = 0,
        dead_sets: bool = False,
    ) -> None:
        rules = state.rules
        base = state.base
        self.base = base
        self.R = bytes(state.reserve)
        self.draw = rules.draw
        self.autofill = rules.autofill
        self.empty_any = rules.empty_pile == "any"
        self.mode = _MODES[rules.tableau_moves]
        self.fits = build_fits(rules.build, rules.tableau_wrap, base)
        self.rel = tuple((RANK_OF[c] - base) % 13 for c in range(52))
        self.shift = tuple(4 * SUIT_OF[c] for c in range(52))
        # acceptors[t]: the cards d that may be built on tableau card t.
        self.acceptors = tuple(
            tuple(d for d in range(52) if self.fits[d * 52 + t]) for t in range(52)
        )
        # needs[c]: (card, shift, rel) of every card d with fits(d, c): the cards that
        # condition (a) of the module doc looks at for c to be a safe foundation move.
        self.needs = tuple(
            tuple((d, self.shift[d], self.rel[d]) for d in self.acceptors[c]) for c in range(52)
        )
        # Every pile a chain (each card fits on the one under it): true of every dealt
        # game, and every move keeps it (condition (a) of the module doc relies on it).
        self.chains = all(
            self.fits[p[k] * 52 + p[k - 1]] for p in state.tableau for k in range(1, len(p))
        )
        self.safe_auto = safe_auto
        self.rng = _XorShift(shuffle) if shuffle else None
        self.scored = order == _HEURISTIC_ORDER
        if order == _RANDOM_ORDER:  # a random class per category; the reserve top home first
            if self.rng is None:
                raise ValueError("move order 3 needs a shuffle seed")
            classes = [self.rng.next() % 5 for _ in range(8)]
            classes[_CAT_RF] = 4
            self.classes: tuple[int, ...] = tuple(classes)
        else:  # order 4 breaks ties between equal scores by the standard order
            self.classes = _ORDER_CLASS[0 if self.scored else order]
        self.max_nodes: int | None = None  # budgets of the running slice (advance)
        self.deadline: float | None = None
        self.nodes = 0
        self.seen: set[bytes] = set()
        # Dead sets (module doc, "Dead sets"): Tarjan's bookkeeping, when on.  index: the
        # visit number of every key in the table; done: the keys of completed strongly
        # connected components; _tstack: the other keys reached, in visit order; and per
        # stack frame its key's visit number, its low link and its place on _tstack.
        self.dead_sets = dead_sets
        self.index: dict[bytes, int] = {}
        self._visits = 0
        self.done: set[bytes] = set()
        self._tstack: list[bytes] = []
        self._tarjan: list[list[int]] = []
        # The dead set of a paused search of the same position, whose keys this one
        # skips (never adds to its table nor expands); None: none.
        self.ref_done: set[bytes] | None = None
        self.path: list[str] = []
        self._stack: list[tuple[Iterator[_Child], int]] = []
        self._pending: tuple[_Position, int] | None = None
        self._started = False
        self._broken = False  # an exception ended a slice: the search cannot go on
        self._result: bool | None = None
        self._reach_cache: dict[tuple[int, int, int], list[tuple[int, tuple[str, ...], int]]] = {}

    # ------------------------------------------------------------------ helpers

    def key(self, nr: int, piles: tuple[bytes, ...], talon: bytes, w: int, rl: int) -> bytes:
        """Canonical position key (module doc): pile order ignored, foundations implied."""
        a, b, c, d = sorted(piles)
        if rl < 0 and w and (self.draw == 1 or w % self.draw == 0 or w == len(talon)):
            w = 0  # same reachable waste positions as a fresh pass (module doc, step 1)
        head = bytes((nr, w)) + rl.to_bytes(4, "big", signed=True)
        return b"".join((head, talon, b"\xff", a, b"\xfe", b, b"\xfe", c, b"\xfe", d))

    def reach(self, n: int, w: int, rl: int) -> list[tuple[int, tuple[str, ...], int]]:
        """Waste positions reachable by draw/redeal alone from waste length ``w`` of ``n``.

        Returns ``(position, moves, redeals_left_after)`` with ``position >= 1``
        (the waste length; its top card is ``talon[position - 1]``), each
        position once, by the route with the fewest redeals (module doc, step 1).
        """
        ck = (n, w, rl)
        hit = self._reach_cache.get(ck)
        if hit is not None:
            return hit
        draw = self.draw
        out: list[tuple[int, tuple[str, ...], int]] = []
        seen: set[int] = set()
        if w > 0:
            out.append((w, (), rl))
            seen.add(w)
        p, k = w, 0
        while p < n:
            p = min(p + draw, n)
            k += 1
            if p not in seen:
                out.append((p, (_DRAW,) * k, rl))
                seen.add(p)
        if n > 0 and rl != 0:
            prefix = (_DRAW,) * k + (_REDEAL,)
            rl2 = rl - 1 if rl > 0 else rl
            p, k2 = 0, 0
            while p < n:
                p = min(p + draw, n)
                k2 += 1
                if p not in seen:
                    out.append((p, prefix + (_DRAW,) * k2, rl2))
                    seen.add(p)
        self._reach_cache[ck] = out
        return out

    def is_safe(self, c: int, found: int) -> bool:
        """Condition (a) of the module doc for ``c`` with the foundations ``found``.

        Every card ``d`` that fits on ``c`` is home, or (when the piles are chains) is
        next on its foundation with every card that fits on ``d`` home.
        """
        for d, sh, rel in self.needs[c]:
            count = (found >> sh) & 15
            if count > rel:
                continue
            if count < rel or not self.chains or not self.all_home(d, found):
                return False
        return True

    def all_home(self, c: int, found: int) -> bool:
        """Every card that fits on ``c`` is home (``found``: the foundation counts)."""
        return all((found >> sh) & 15 > rel for _, sh, rel in self.needs[c])

    # ---------------------------------------------------------------- auto play

    def auto(
        self, nr: int, found: int, piles: list[bytes], talon: bytes, w: int
    ) -> tuple[list[str], int, int, bytes, int]:
        """Play safe foundation moves until none is left (module doc); updates ``piles`` in place.

        Returns ``(moves, nr, found, talon, w)``.
        """
        moves: list[str] = []
        rel, shift, R = self.rel, self.shift, self.R
        autofill = self.autofill
        changed = True
        while changed:
            changed = False
            if nr:
                c = R[nr - 1]
                sh = shift[c]
                if (
                    (found >> sh) & 15 == rel[c]
                    and (not autofill or nr == 1)
                    and self.is_safe(c, found)
                ):
                    found += 1 << sh
                    nr -= 1
                    moves.append(MOVE_NAMES[c][0])
                    changed = True
            for i in range(4):
                p = piles[i]
                if p:
                    c = p[-1]
                    sh = shift[c]
                    if (
                        (found >> sh) & 15 == rel[c]
                        and (len(p) > 1 or not autofill or not nr)
                        and self.is_safe(c, found)
                    ):
                        found += 1 << sh
                        piles[i] = p[:-1]
                        moves.append(MOVE_NAMES[c][0])
                        changed = True
            if w and self.draw == 1:
                c = talon[w - 1]
                sh = shift[c]
                if (found >> sh) & 15 == rel[c] and self.is_safe(c, found):
                    found += 1 << sh
                    talon = talon[: w - 1] + talon[w:]
                    w -= 1
                    moves.append(MOVE_NAMES[c][0])
                    changed = True
        return moves, nr, found, talon, w

    # ----------------------------------------------------------------- children

    def children(
        self,
        nr: int,
        found: int,
        piles: tuple[bytes, bytes, bytes, bytes],
        talon: bytes,
        w: int,
        rl: int,
    ) -> Iterator[_Child]:
        """Every search step from a position, best first (module doc, steps 1-4)."""
        R, rel, shift = self.R, self.rel, self.shift
        autofill = self.autofill
        can_fill = not autofill or nr == 0
        names = MOVE_NAMES
        acceptors = self.acceptors
        tops = [p[-1] if p else -1 for p in piles]
        empty = -1
        # wanted[d]: the piles whose top card accepts card d (RULES.md 3.3).
        wanted: dict[int, list[int]] = {}
        for j in range(4):
            t = tops[j]
            if t < 0:
                if empty < 0:
                    empty = j
                continue
            for d in acceptors[t]:
                hit = wanted.get(d)
                if hit is None:
                    wanted[d] = [j]
                else:
                    hit.append(j)
        nothing: list[int] = []
        reach = self.reach(len(talon), w, rl)

        def pop_pile(rest: bytes, nr: int) -> tuple[bytes, int]:
            if not rest and autofill and nr:
                return R[nr - 1 : nr], nr - 1
            return rest, nr

        # Every move with its category, in the C core's generation order; then
        # ordered by class (module doc, step 3).
        reserve_home: list[tuple[int, _Child]] = []  # RF
        reserve_builds: list[tuple[int, _Child]] = []  # RT
        tableau_home: list[tuple[int, _Child]] = []  # TF_FILL / TF
        waste_home: list[tuple[int, _Child]] = []  # WF
        fills: list[tuple[int, _Child]] = []  # TT_FILL
        builds: list[tuple[int, _Child]] = []  # TT
        waste_builds: list[tuple[int, _Child]] = []  # WT
        if nr:
            c = R[nr - 1]
            sh = shift[c]
            if (found >> sh) & 15 == rel[c]:
                child: _Child = (names[c][0],), nr - 1, found + (1 << sh), piles, talon, w, rl
                reserve_home.append((_CAT_RF, child))
        for i in range(4):
            c = tops[i]
            if c >= 0:
                sh = shift[c]
                if (found >> sh) & 15 == rel[c]:
                    rest, nr2 = pop_pile(piles[i][:-1], nr)
                    ps = list(piles)
                    ps[i] = rest
                    child = (names[c][0],), nr2, found + (1 << sh), _t4(ps), talon, w, rl
                    tableau_home.append((_CAT_TF_FILL if nr2 < nr else _CAT_TF, child))
        for pos, pre, rl2 in reach:
            c = talon[pos - 1]
            sh = shift[c]
            if (found >> sh) & 15 == rel[c]:
                rest_talon = talon[: pos - 1] + talon[pos:]
                child = (*pre, names[c][0]), nr, found + (1 << sh), piles, rest_talon, pos - 1, rl2
                waste_home.append((_CAT_WF, child))
        # reserve to tableau
        if nr:
            c = R[nr - 1]
            cb = R[nr - 1 : nr]
            js = wanted.get(c, nothing)
            if empty >= 0 and not autofill and self.empty_any:
                js = [*js, empty]
            for j in js:
                ps = list(piles)
                ps[j] = piles[j] + cb
                child = (names[c][j + 1],), nr - 1, found, _t4(ps), talon, w, rl
                reserve_builds.append((_CAT_RT, child))
        # tableau to tableau: the moves that empty a pile and so bring a reserve
        # card out by auto-fill are fills, the others builds
        mode = self.mode
        fill_tab = empty >= 0 and can_fill and self.empty_any
        for i in range(4):
            p = piles[i]
            n = len(p)
            if not n:
                continue
            if mode == _ANY_RUN:
                idxs: range | tuple[int, ...] = range(n - 1, -1, -1)
            elif mode == _TOP_OR_WHOLE and n > 1:
                idxs = (n - 1, 0)
            else:
                idxs = (0,)
            for k in idxs:
                c = p[k]
                js = wanted.get(c, nothing)
                if fill_tab and k > 0:
                    js = [*js, empty]
                for j in js:
                    if j == i:
                        continue
                    rest, nr2 = pop_pile(p[:k], nr)
                    ps = list(piles)
                    ps[i] = rest
                    ps[j] = piles[j] + p[k:]
                    child = (names[c][j + 1],), nr2, found, _t4(ps), talon, w, rl
                    if nr2 < nr:
                        fills.append((_CAT_TT_FILL, child))
                    else:
                        builds.append((_CAT_TT, child))
        # waste to tableau
        fill_waste = empty >= 0 and can_fill
        for pos, pre, rl2 in reach:
            c = talon[pos - 1]
            js = wanted.get(c, nothing)
            if fill_waste:
                js = [*js, empty]
            if not js:
                continue
            rest_talon = talon[: pos - 1] + talon[pos:]
            cb = talon[pos - 1 : pos]
            for j in js:
                ps = list(piles)
                ps[j] = piles[j] + cb
                child = (*pre, names[c][j + 1]), nr, found, _t4(ps), rest_talon, pos - 1, rl2
                waste_builds.append((_CAT_WT, child))
        generated = [
            *reserve_home,
            *tableau_home,
            *waste_home,
            *reserve_builds,
            *fills,
            *builds,
            *waste_builds,
        ]
        classes = self.classes
        rng = self.rng
        ordered: list[_Child] = []
        for cls in range(4, -1, -1):
            group = [child for cat, child in generated if classes[cat] == cls]
            if rng is not None:
                rng.shuffle(group)  # all classes now, as the C core does on entering the node
            ordered.extend(group)
        if self.scored:
            ordered = self.by_score(ordered)
        yield from ordered

    def by_score(self, children: list[_Child]) -> list[_Child]:
        """Move order 4: ``children`` sorted by score, highest first, stable (module doc).

        Score of a child: ``8 * (2 * cards home - reserve cards - 2 * waste cards)``,
        plus, when the search shuffles, a jitter in ``0..64`` drawn in the given order
        (the same draws as ``heuristic`` in _solver.c).
        """
        rng = self.rng
        scores = []
        for _moves, nr, found, _piles, _talon, w, _rl in children:
            home = (found & 15) + ((found >> 4) & 15) + ((found >> 8) & 15) + (found >> 12)
            score = 8 * (2 * home - nr - 2 * w)
            if rng is not None:
                score += rng.next() % (_HEURISTIC_JITTER + 1)
            scores.append(score)
        ranked = sorted(range(len(children)), key=lambda i: -scores[i])
        return [children[i] for i in ranked]

    # ---------------------------------------------------------------------- dfs

    def start(
        self,
        nr: int,
        found: int,
        piles: tuple[bytes, bytes, bytes, bytes],
        talon: bytes,
        w: int,
        rl: int,
    ) -> None:
        """Set the search's root: its key in the table, to be entered by :meth:`advance`."""
        k = self.key(nr, piles, talon, w, rl)
        self.seen.add(k)
        if self.dead_sets:
            self._reached(k)
        self._pending = ((nr, found, piles, talon, w, rl), 0)

    def _reached(self, k: bytes) -> None:
        """Number a key just added to the table and put it on Tarjan's stack (dead sets on)."""
        self._visits += 1
        self.index[k] = self._visits
        self._tstack.append(k)

    def _low(self, k: bytes) -> None:
        """A child already in the table: the running frame's low link takes its number,
        unless its component is complete (dead sets on)."""
        if k not in self.done:
            frame = self._tarjan[-1]
            frame[1] = min(frame[1], self.index[k])

    def _leave(self) -> None:
        """The running frame is finished: pop its component if it is complete, else pass
        its low link to its parent (Tarjan; dead sets on)."""
        idx, low, tpos = self._tarjan.pop()
        if low == idx:
            tstack = self._tstack
            self.done.update(tstack[tpos:])
            del tstack[tpos:]
        elif self._tarjan:
            parent = self._tarjan[-1]
            parent[1] = min(parent[1], low)

    def import_dead(self, keys: Iterable[bytes]) -> None:
        """Add keys of positions proved lost (another search's dead set) to the table.

        A position in the table is never expanded again, and a dead position's
        whole reachable space holds no win, so the verdicts stay exact (module doc,
        "Dead sets").  With dead sets on, the keys count as completed components.
        """
        self.seen.update(keys)
        if self.dead_sets:
            self.done.update(keys)

    def advance(self, more_nodes: int | None, seconds: float | None) -> bool | None:
        """Run the depth-first search for at most ``more_nodes`` more positions and ``seconds``.

        Returns True (won, ``self.path`` the line), False (lost: the whole reachable
        space expanded) or None (a budget ran out).  A search that ran out is paused
        on the position it was about to expand, counted in ``nodes``; advancing it
        again enters that position (counted once) and goes on, so a search advanced
        in slices takes the steps of one search with the sum of the slices' budgets,
        as the C core's ``advance``.  ``None`` budgets: no limit.  Raises
        ``RuntimeError`` when an exception (Ctrl-C) ended an earlier slice.
        """
        if self._result is not None:
            return self._result
        if self._broken:
            raise RuntimeError("this search was interrupted and cannot go on")
        self._broken = True  # until this slice ends normally (an exception leaves it set)
        outcome = self._advance(more_nodes, seconds)
        self._broken = False
        return outcome

    def _advance(self, more_nodes: int | None, seconds: float | None) -> bool | None:
        expanded = self.nodes - 1 if self._started else 0
        self.max_nodes = None if more_nodes is None else expanded + more_nodes
        self.deadline = None if seconds is None else time.monotonic() + seconds
        pending = self._pending
        assert pending is not None
        if self._started:
            self.nodes -= 1  # the paused position is entered (and counted) again
        self._started = True
        entered = self._enter(*pending)
        if entered is not _ENTERED:
            return self._finish(entered)
        stack = self._stack
        path = self.path
        seen = self.seen
        key = self.key
        dead_sets = self.dead_sets
        ref_done = self.ref_done
        while stack:
            children, mark = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                del path[mark:]
                if dead_sets:
                    self._leave()
                continue
            moves, cnr, cfound, cpiles, ctalon, cw, crl = child
            k = key(cnr, cpiles, ctalon, cw, crl)
            if k in seen:
                if dead_sets:
                    self._low(k)
                continue
            if ref_done is not None and k in ref_done:
                continue
            seen.add(k)
            if dead_sets:
                self._reached(k)
            n = len(path)
            path.extend(moves)
            entered = self._enter((cnr, cfound, cpiles, ctalon, cw, crl), n)
            if entered is not _ENTERED:
                return self._finish(entered)
        self._result = False
        return False

    def _finish(self, entered: object) -> bool | None:
        if entered is _PAUSED:
            return None
        self._result = True
        return True

    def _enter(self, position: _Position, mark: int) -> object:
        """Count and expand a position: ``_PAUSED`` (a budget ran out), ``_WIN`` or ``_ENTERED``.

        ``mark``: the path length before the moves that led here (restored when the
        position's children are exhausted).
        """
        self.nodes += 1
        nodes = self.nodes
        if (self.max_nodes is not None and nodes > self.max_nodes) or (
            nodes % _CHECK_EVERY == 0
            and self.deadline is not None
            and time.monotonic() > self.deadline
        ):
            self._pending = (position, mark)
            return _PAUSED
        nr, found, piles, talon, w, rl = position
        if self.safe_auto:
            ps = list(piles)
            auto_moves, nr, found, talon, w = self.auto(nr, found, ps, talon, w)
            if auto_moves:
                self.path.extend(auto_moves)
                piles = _t4(ps)
        if not nr and not talon and not (piles[0] or piles[1] or piles[2] or piles[3]):
            return _WIN
        self._stack.append((iter(self.children(nr, found, piles, talon, w, rl)), mark))
        if self.dead_sets:  # the position's key is the last one numbered
            idx = self._visits
            self._tarjan.append([idx, idx, len(self._tstack) - 1])
        return _ENTERED


def _t4(ps: list[bytes]) -> tuple[bytes, bytes, bytes, bytes]:
    return (ps[0], ps[1], ps[2], ps[3])


def solve(
    state: GameState,
    *,
    max_nodes: int | None = 5_000_000,
    max_seconds: float | None = 60.0,
    safe_auto: bool = True,
    engine: str | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    restarts: bool = True,
    keep_tables: bool = False,
) -> SolveResult:
    """Decide whether ``state`` can be won, with every card known.

    ``max_nodes``: positions expanded at most, over all searches (``None``: no
    limit); ``max_seconds``: wall-clock seconds at most (``None``: no limit).
    ``safe_auto=False`` turns the safe foundation moves off (for tests of their
    soundness; slower).  ``state`` is not modified.

    ``restarts`` (module doc, "Restarts"): when a budget is set, the first
    search gets 40% of it (5% when no redeal is left) and, if it ends
    undecided, complete searches with other move orders and shuffled moves
    share the next 30%, each with a growing slice (short heuristic-order
    searches first when no redeal is left); then the first search goes on
    where it stopped with the rest.
    Every one of them is a complete search, so any of them may answer
    ``won`` or ``lost``; they share the positions they prove lost, so a
    restart skips what the paused first search proved lost and the first
    search what the restarts proved lost (module doc, "Dead sets").  In a
    game without auto-fill whose spaces take any card (``superior``), the
    same position with auto-fill is searched first, with 25% of the budget;
    its wins are lifted to this game (module doc, "Restricted game first").
    ``restarts=False``: one search with the whole budget.

    ``engine``: ``"c"`` (the C core, ``games/engine/_solver.c``; ``RuntimeError``
    when it was not built), ``"python"`` (the search in this module) or
    ``"auto"`` (C when built, else Python); ``None`` reads the environment
    variable ``CANFIELD_SOLVER`` (default ``auto``).  Both run the same search
    with the same move order, so they give the same verdicts, node counts and
    lines.  ``max_bytes``: memory cap of the C core's tables and stacks, for
    the paused first search and a restart together (``None``: no cap; the
    Python search has none); reaching it ends that search undecided.

    The C core keeps freed tables in the process for reuse (cleared, not
    faulted in again: about 10% faster on a batch), counted against the cap of
    any search whose table grows; ``keep_tables=False`` gives them back to the
    system when this call returns, ``True`` keeps them for the next call (the
    batch's worker processes: less than twice the largest table stays held).

    Returns a :class:`SolveResult`: ``won`` with a winning line that has been
    replayed with the engine to 52 cards home (a failed replay raises
    ``AssertionError``: a solver bug, never a silent wrong answer), ``lost``
    when the whole reachable space was searched, ``unknown`` when the budget
    ran out.  An ended game (resigned, timed out) has no moves: it is ``lost``
    unless already won.
    """
    try:
        return _solve(state, max_nodes, max_seconds, safe_auto, engine, max_bytes, restarts)
    finally:  # every search of that call is freed by now (its tables are kept)
        if not keep_tables:
            release_tables()


def release_tables() -> int:
    """Give back the freed tables the C core keeps in this process; the bytes given back.

    :func:`solve` does this itself unless called with ``keep_tables=True``; 0 when
    the C core is not built or nothing was kept.
    """
    return _csolver.release_tables() if _csolver is not None else 0


def _solve(
    state: GameState,
    max_nodes: int | None,
    max_seconds: float | None,
    safe_auto: bool,
    engine: str | None,
    max_bytes: int | None,
    restarts: bool,
) -> SolveResult:
    """:func:`solve` with every argument given; the freed tables stay kept."""
    start = time.monotonic()
    use_c = _use_c(engine)
    if state.cards_home == 52:
        return SolveResult(WON, [], 0, time.monotonic() - start)
    if state.ended is not None:
        return SolveResult(LOST, [], 0, time.monotonic() - start)
    if not restarts or (max_nodes is None and max_seconds is None):
        verdict, moves, nodes, _memory = _search_once(
            state, use_c, max_nodes, max_seconds, safe_auto, max_bytes, 0, 0
        )
        if verdict == WON:
            verify_win(state, moves)
        return SolveResult(verdict, moves, nodes, time.monotonic() - start)
    restricted = _restricted_game(state)
    spent_restricted = 0  # positions of the restricted game's searches
    sub_nodes = None if max_nodes is None else int(max_nodes * _RESTRICTED_SHARE)
    if restricted is not None and (sub_nodes is None or sub_nodes > 0):  # 0: no room, skip it
        sub = _solve(
            restricted,
            sub_nodes,
            None if max_seconds is None else max_seconds * _RESTRICTED_SHARE,
            safe_auto,
            engine,
            max_bytes,
            restarts,
        )
        spent_restricted = sub.nodes
        if sub.result == WON:
            moves = _lift_restricted_line(state, restricted, sub.moves)
            verify_win(state, moves)
            return SolveResult(WON, moves, sub.nodes, time.monotonic() - start)
        # lost or unknown there proves nothing here: the real game gets what is left
        if max_nodes is not None:
            max_nodes -= sub.nodes
            if max_nodes <= 0:  # a budget of a few positions: none left
                return SolveResult(UNKNOWN, [], sub.nodes, time.monotonic() - start)
        if max_seconds is not None:
            max_seconds = max(0.0, max_seconds - (time.monotonic() - start))
    begin = time.monotonic()  # the real game's budget counts from here
    total = 0  # positions of the real game's searches
    k = 0  # searches so far
    probes = restarts_done = 0  # heuristic and class-order restarts so far
    probe = state.redeals_left == 0  # heuristic restarts only when no redeal is left
    first_share = _FIRST_SHARE_BEFORE_PROBES if probe else _FIRST_SHARE
    probe_nodes, probe_seconds = 0, 0.0
    restart_nodes, restart_seconds = 0, 0.0  # spent by the restarts of both kinds
    first = _OneSearch(state, use_c, safe_auto, max_bytes, 0, 0, _DEAD_SETS)
    resumed = False  # the first search goes on with what the restarts left
    shared_done = False  # the first search's dead set is no longer kept (end_dead_sets)
    while True:
        restart_cap_nodes: int | None = None
        restart_cap_seconds: float | None = None
        if k == 0:
            order, share = 0, first_share
        elif not resumed:
            if max_nodes is not None:
                restart_cap_nodes = int(max_nodes * _RESTARTS_SHARE) - restart_nodes
            if max_seconds is not None:
                restart_cap_seconds = max_seconds * _RESTARTS_SHARE - restart_seconds
            resumed = (restart_cap_nodes is not None and restart_cap_nodes <= 0) or (
                restart_cap_seconds is not None and restart_cap_seconds <= 0
            )
        if k == 0 or resumed:
            search, share = first, (first_share if k == 0 else 1.0)
            order = 0
            if resumed and _DEAD_SETS and not shared_done:  # no restart reads it again
                first.end_dead_sets()
                shared_done = True
        elif probe and _probing(max_nodes, max_seconds, probe_nodes, probe_seconds):
            probes += 1
            order = _HEURISTIC_ORDER
            share = _PROBE_SHARE * _PROBE_GROWTH ** min(probes - 1, _MAX_PROBE_GROWTH_STEPS)
        else:
            restarts_done += 1
            order = restarts_done % _ORDERS
            share = _RESTART_SHARE * _RESTART_GROWTH ** min(restarts_done - 1, _MAX_GROWTH_STEPS)
        cap_nodes = cap_seconds = None
        if max_nodes is not None:
            left_nodes = max_nodes - total
            if left_nodes <= 0:
                break
            cap_nodes = min(left_nodes, max(1, int(max_nodes * share)))
            if restart_cap_nodes is not None and not resumed:
                cap_nodes = min(cap_nodes, restart_cap_nodes)
        if max_seconds is not None:
            left_seconds = max_seconds - (time.monotonic() - begin)
            if left_seconds <= 0:
                break
            cap_seconds = min(left_seconds, max_seconds * share)
            if restart_cap_seconds is not None and not resumed:
                cap_seconds = min(cap_seconds, restart_cap_seconds)
        if k and not resumed:
            search = first  # the last restart's memory is freed before the next takes any
            room = max_bytes  # the C core's cap (a negative one: none; Python has none)
            if use_c and max_bytes is not None and max_bytes >= 0:
                room = max_bytes - first.bytes
                if room <= 0:
                    resumed = True  # no memory for a restart beside the paused first search
                    k += 1
                    continue
            shuffle = (k * _GOLDEN) & _MASK64
            ref = first if _DEAD_SETS else None  # it skips what the first search proved lost
            search = _OneSearch(state, use_c, safe_auto, room, order, shuffle, _DEAD_SETS, ref)
        began = time.monotonic()
        verdict, moves, nodes, out_of_memory = search.advance(cap_nodes, cap_seconds)
        spent = time.monotonic() - began
        total += nodes
        if search is not first:
            restart_nodes += nodes
            restart_seconds += spent
            if order == _HEURISTIC_ORDER:
                probe_nodes += nodes
                probe_seconds += spent
            if _DEAD_SETS and verdict == UNKNOWN:  # what it proved lost, the first search skips
                first.import_dead(search)
        if out_of_memory:
            if search is first:
                break  # the first search's table is full: undecided
            resumed = True  # the restarts' room is used up: back to the first search
        elif verdict != UNKNOWN:
            if verdict == WON:
                verify_win(state, moves)
            return SolveResult(verdict, moves, spent_restricted + total, time.monotonic() - start)
        k += 1
    return SolveResult(UNKNOWN, [], spent_restricted + total, time.monotonic() - start)


def _probing(max_nodes: int | None, max_seconds: float | None, nodes: int, seconds: float) -> bool:
    """Whether :func:`solve` still runs heuristic restarts (module doc, "Restarts").

    True until they have spent ``_PROBES_SHARE`` of a budget that is set
    (``nodes`` positions, ``seconds`` of wall time so far).
    """
    if max_nodes is not None and nodes >= _PROBES_SHARE * max_nodes:
        return False
    return max_seconds is None or seconds < _PROBES_SHARE * max_seconds


def _restricted_game(state: GameState) -> GameState | None:
    """The restricted game searched before ``state``'s own (module doc, "Restricted game first").

    For a game without auto-fill whose empty piles take any card (``superior``,
    RULES.md 4): the same position with auto-fill on (RULES.md 3.7), when the
    position is one such a game can have (no empty pile while the reserve holds
    cards); ``None`` for every other game and position.  The position is
    copied (``GameState.copy``), ``state`` is not modified.
    """
    rules = state.rules
    if rules.autofill or rules.empty_pile != "any" or state.ended is not None:
        return None
    if state.reserve and not all(state.tableau):
        return None
    return state.copy(replace(rules, autofill=True))


def _lift_restricted_line(state: GameState, restricted: GameState, moves: list[str]) -> list[str]:
    """The restricted game's line ``moves`` lifted to ``state``'s game (module doc).

    See "Restricted game first" in the module doc.  Replays ``moves`` on
    copies of both positions and, after every move that auto-fills a pile in
    the restricted game, plays that card (the reserve's top) onto the same
    pile explicitly: without auto-fill the reserve top may fill any empty pile
    (RULES.md 4).  Returns the lifted line (``moves`` with those fills
    inserted).  Raises the engine's ``IllegalMoveError`` if a move is refused
    (a solver bug, never expected).
    """
    real, sub = state.copy(), restricted.copy()
    out: list[str] = []
    for move in moves:
        real.play(move)
        sub.play(move)
        out.append(move)
        for j in range(4):
            if sub.tableau[j] and not real.tableau[j]:  # sub auto-filled pile j
                fill = MOVE_NAMES[real.reserve[-1]][j + 1]
                real.play(fill)
                out.append(fill)
    return out


def _redeals_left(state: GameState) -> int:
    """``state.redeals_left`` as the search counts it (``rl``): ``-1`` when unlimited."""
    left = state.redeals_left
    return -1 if left is None else left


def _root_position(state: GameState) -> _Position:
    """``state`` as the Python search's root position ``(nr, found, piles, talon, w, rl)``."""
    found = 0
    for s in range(4):
        found |= state.found[s] << (4 * s)
    return (
        len(state.reserve),
        found,
        _t4([bytes(p) for p in state.tableau]),
        bytes(state.waste + state.stock[::-1]),
        len(state.waste),
        _redeals_left(state),
    )


def _c_arguments(
    state: GameState,
    safe_auto: bool,
    max_bytes: int | None,
    order: int,
    shuffle: int,
    dead_sets: bool = False,
) -> tuple[Any, ...]:
    """The positional arguments of the C core's ``begin`` for ``state`` (see ``_solver.pyi``).

    A ``None`` memory cap becomes the C core's ``-1`` (no cap).
    """
    rules = state.rules
    return (
        bytes(state.reserve),
        _t4([bytes(p) for p in state.tableau]),
        bytes(state.waste + state.stock[::-1]),
        len(state.waste),
        _redeals_left(state),
        bytes(state.found),
        build_fits(rules.build, rules.tableau_wrap, state.base),
        state.base,
        rules.draw,
        int(rules.autofill),
        int(rules.empty_pile == "any"),
        _MODES[rules.tableau_moves],
        int(safe_auto),
        -1 if max_bytes is None else max_bytes,
        order,
        shuffle,
        dead_sets,
    )


class _OneSearch:
    """One complete search of ``state`` (C core or Python), run in slices by :meth:`advance`.

    ``order``: move order 0..4 (``_ORDER_CLASS``, 3: drawn at random, 4: heuristic);
    ``shuffle``: 0, or the seed of the shuffle within each class (and of order 3's
    class table, and of order 4's score jitter).  ``max_bytes``: the C core's memory
    cap for this search (``None``: none).  ``dead_sets``: keep the bookkeeping that
    lets another search of the same position take this one's positions proved lost
    (:meth:`import_dead`; module doc, "Dead sets").  ``ref``: a paused search of the
    same position and engine, both with dead sets, whose positions proved lost this
    one skips (it must not advance while this one runs).  Raises ``ValueError`` for
    order 3 without a shuffle seed, or a ``ref`` without dead sets or of the other
    engine.
    """

    def __init__(
        self,
        state: GameState,
        use_c: bool,
        safe_auto: bool,
        max_bytes: int | None,
        order: int,
        shuffle: int,
        dead_sets: bool = False,
        ref: _OneSearch | None = None,
    ) -> None:
        self.nodes = 0  # positions counted so far, over all slices
        self.bytes = 0  # memory the C core's search holds (table and stacks)
        self._handle: Any = None
        self._search: _Search | None = None
        self._ref = ref  # kept alive while this search may read its table
        if use_c:
            assert _csolver is not None
            self._handle = _csolver.begin(
                *_c_arguments(state, safe_auto, max_bytes, order, shuffle, dead_sets)
            )
            if ref is not None:
                if ref._handle is None:
                    raise ValueError("a reference search of another engine")
                _csolver.refer(self._handle, ref._handle)
            return
        search = _Search(state, safe_auto, order, shuffle, dead_sets)
        if ref is not None:
            if ref._search is None or not (dead_sets and ref._search.dead_sets):
                raise ValueError("refer needs two searches of one engine with dead sets")
            search.ref_done = ref._search.done
        search.start(*_root_position(state))
        self._search = search

    def advance(
        self, max_nodes: int | None, max_seconds: float | None
    ) -> tuple[str, list[str], int, bool]:
        """Go on for at most ``max_nodes`` positions and ``max_seconds`` (``None``: no limit).

        Returns ``(verdict, moves, nodes, out_of_memory)``: ``nodes`` counted in this
        slice (a search that runs out counts the position it was about to expand,
        once over all slices); ``out_of_memory`` when the C core's memory cap ended
        the search (``unknown``, final).  The moves are not yet verified.
        """
        before = self.nodes
        if self._handle is not None:
            assert _csolver is not None
            verdict, moves, nodes, reason, held = _csolver.advance(
                self._handle,
                -1 if max_nodes is None else max_nodes,
                -1.0 if max_seconds is None else max_seconds,
            )
            self.nodes, self.bytes = nodes, held
            return verdict, list(moves), nodes - before, reason == "memory"
        search = self._search
        assert search is not None
        won = search.advance(max_nodes, max_seconds)
        self.nodes = search.nodes
        counted = self.nodes - before
        if won is None:
            return UNKNOWN, [], counted, False
        if won:
            return WON, list(search.path), counted, False
        return LOST, [], counted, False

    def end_dead_sets(self) -> None:
        """Stop the dead sets' bookkeeping when nothing will read this search's again.

        Its steps do not change; it can no longer be a ``source`` of
        :meth:`import_dead` nor the ``ref`` of another search.
        """
        if self._handle is not None:
            assert _csolver is not None
            _csolver.end_dead_sets(self._handle)
        elif self._search is not None:
            self._search.dead_sets = False

    def import_dead(self, source: _OneSearch) -> int:
        """Take every position ``source`` proved lost into this search's table.

        ``source``: a search of the same position and engine, begun with
        ``dead_sets``.  Its positions in complete strongly connected components
        (module doc, "Dead sets") are never expanded by this search.  Returns how
        many were new here (the C core stops early at its memory cap).  Raises
        ``ValueError`` when ``source`` has no dead sets or another engine.
        """
        if self._handle is not None and source._handle is not None:
            assert _csolver is not None
            return int(_csolver.import_dead(self._handle, source._handle))
        search, other = self._search, source._search
        if search is None or other is None or not other.dead_sets:
            raise ValueError(
                "import_dead needs two searches of one engine, the source with dead sets"
            )
        before = len(search.seen)
        search.import_dead(other.done)
        return len(search.seen) - before


def _search_once(
    state: GameState,
    use_c: bool,
    max_nodes: int | None,
    max_seconds: float | None,
    safe_auto: bool,
    max_bytes: int | None,
    order: int,
    shuffle: int,
) -> tuple[str, list[str], int, bool]:
    """One complete search within a budget: :class:`_OneSearch` advanced once.

    Returns ``(verdict, moves, nodes, out_of_memory)`` (see ``_OneSearch.advance``).
    """
    return _OneSearch(state, use_c, safe_auto, max_bytes, order, shuffle).advance(
        max_nodes, max_seconds
    )


def _use_c(engine: str | None) -> bool:
    """Whether :func:`solve` runs the C core (see its ``engine`` argument).

    Every redeal count the rules allow (at most ``MAX_REDEALS``, 1000) fits the C
    core's key (16 bits), so the choice depends on the build alone, never on the
    position.
    """
    choice = engine if engine is not None else os.environ.get(ENGINE_ENV, "auto") or "auto"
    if choice not in ENGINES:
        raise ValueError(f"unknown solver engine {choice!r}: use one of {', '.join(ENGINES)}")
    if choice == "python":
        return False
    if choice == "c":
        if _csolver is None:
            raise RuntimeError(
                "the C solver core games.engine._solver is not built "
                "(install the package with a C compiler: python3 dev.py setup)"
            )
        return True
    return _csolver is not None


def verify_win(state: GameState, moves: list[str]) -> None:
    """Replay ``moves`` on a copy of ``state`` with the engine; raise ``AssertionError`` unless won.

    Raises ``AssertionError`` (with the move number) when a move is refused or
    the line ends with fewer than 52 cards home.
    """
    game = state.copy()
    for number, move in enumerate(moves, 1):
        try:
            game.play(move)
        except ValueError as exc:
            raise AssertionError(f"solver line refused at move {number} ({move}): {exc}") from exc
    if game.cards_home != 52:
        raise AssertionError(f"solver line ends with {game.cards_home} cards home, not 52")
