"""The rating mathematics: OpenSkill's Plackett-Luce model (the ``openskill`` package).

Pure Python with no Django import, so a benchmark or a notebook can use it alone.

* A player's skill in a pool is a Gaussian belief ``(mu, sigma)``; a newcomer
  starts at the model's prior, ``mu = 25``, ``sigma = 25/3``.
* A finished race is one free-for-all match: each ranked entry is a team of one,
  ranked by its race rank (RULES.md 6; tied entries share a rank and the model
  treats them as a draw between them).
* The display rating is the conservative estimate ``mu - 3 sigma`` (the
  library's ``ordinal``), scaled: ``display = round(1000 + 20 * (mu - 3 sigma))``.
  A newcomer shows 1,000 and one point of ``mu`` is 20 display points.  In a
  simulation of 500 players of spread-out skill over 2,000 ten-player races
  (about 40 each) the ratings ended between about 0 and 2,200, the median
  player near 1,120 (``sigma`` shrinks slowly in large free-for-all races, so
  the conservative estimate rises slowly too).

Cost.  The library's ``PlackettLuce.rate`` sums over every pair of teams
(``_sum_q``, ``_a`` and ``_compute`` are each O(n^2) for n entries): 0.28 s for
1,000 entries, about 28 s for 10,000 on this machine.  Races up to
:data:`LIBRARY_MAX_ENTRIES` entries are rated by the library itself.  Larger
races use :func:`_rate_linear`, the same formulas with the pairwise sums
regrouped by rank into prefix and suffix sums (O(n log n)); the tests check it
against the library's own results to 1e-9.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from openskill.models import PlackettLuce

#: The model with the library's default parameters: mu 25, sigma 25/3, beta 25/6,
#: kappa 0.0001, tau 25/300 (the dynamics term added to sigma before each race).
MODEL: Final = PlackettLuce()

#: Display rating = DISPLAY_OFFSET + DISPLAY_SCALE * (mu - 3 sigma), rounded.
DISPLAY_SCALE: Final = 20.0
DISPLAY_OFFSET: Final = 1000.0
#: A player is provisional until this many rated races in the pool.
PROVISIONAL_RACES: Final = 5
#: Races with more ranked entries than this are rated by :func:`_rate_linear`.
LIBRARY_MAX_ENTRIES: Final = 1000


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill belief: mean ``mu`` and standard deviation ``sigma`` (model units)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (the library's ``ordinal()``)."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal(z=3.0))

    @property
    def display(self) -> int:
        """The display rating: ``round(1000 + 20 * (mu - 3 sigma))``."""
        return display_rating(self.mu, self.sigma)


#: A newcomer's skill (the model's prior).
INITIAL: Final = Skill(MODEL.mu, MODEL.sigma)


def display_rating(mu: float, sigma: float) -> int:
    """The display rating of ``(mu, sigma)``: ``round(1000 + 20 * (mu - 3 sigma))``."""
    ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal(
        z=3.0, alpha=DISPLAY_SCALE, target=DISPLAY_OFFSET
    )
    return round(ordinal)


def rate_race(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The skills after one race: ``skills[i]`` finished at ``ranks[i]`` (1 is best).

    Equal ranks are ties.  Needs at least two entries (``ValueError``
    otherwise).  Up to :data:`LIBRARY_MAX_ENTRIES` entries this is
    ``PlackettLuce().rate([[r] for r in skills], ranks=ranks)``; above, the
    equivalent O(n log n) form.  Returns the new skills in the input order.
    """
    if len(skills) != len(ranks):
        raise ValueError("one rank per skill")
    if len(skills) < 2:
        raise ValueError("a race is rated with at least two ranked entries")
    if len(skills) > LIBRARY_MAX_ENTRIES:
        return _rate_linear(skills, ranks)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]


def _rate_linear(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """``PlackettLuce.rate`` for teams of one, regrouped to O(n log n).

    The library's update of entry ``i`` (Weng and Lin, Algorithm 4, with the
    library's defaults: weights 1, gamma = sigma_i / c, no margin, no
    ``limit_sigma``; its tie-averaging step leaves ``mu`` unchanged in 6.x) is::

        s_i'^2 = s_i^2 + tau^2               c^2 = sum_j (s_j'^2 + beta^2)
        e_i = exp(mu_i / c)                  S_g = sum of e_j over ranks >= g
        omega_i = s_i'^2 / c * (1 / A_i - e_i * sum_{g <= r_i} 1 / S_g)
        delta_i = s_i'^3 / c^3 * (e_i * sum_{g <= r_i} 1 / S_g - e_i^2 * sum_{g <= r_i} 1 / S_g^2)
        mu_i'   = mu_i + omega_i             sigma_i' = s_i' * sqrt(max(1 - delta_i, kappa))

    where ``A_i`` is the number of entries tied at ``r_i`` and ``g`` runs over the
    distinct ranks.  The library sums over every pair ``(i, q)``; summing the
    ``A_g`` equal terms of a rank group first gives the prefix sums above.
    """
    tau2 = MODEL.tau * MODEL.tau
    beta2 = MODEL.beta * MODEL.beta
    s2 = [s.sigma * s.sigma + tau2 for s in skills]
    c = math.sqrt(sum(v + beta2 for v in s2))
    e = [math.exp(s.mu / c) for s in skills]
    groups = sorted(set(ranks))
    index = {g: k for k, g in enumerate(groups)}
    size = [0] * len(groups)
    total = [0.0] * len(groups)
    for r, ei in zip(ranks, e, strict=True):
        size[index[r]] += 1
        total[index[r]] += ei
    # S_g: sum of e over the entries ranked at g or worse (a suffix sum).
    suffix = list(accumulate(reversed(total)))[::-1]
    inv1 = list(accumulate(1.0 / sg for sg in suffix))
    inv2 = list(accumulate(1.0 / (sg * sg) for sg in suffix))
    out = []
    for skill, r, ei, v in zip(skills, ranks, e, s2, strict=True):
        k = index[r]
        omega = (1.0 / size[k] - ei * inv1[k]) * v / c
        delta = (ei * inv1[k] - ei * ei * inv2[k]) * v / (c * c) * (math.sqrt(v) / c)
        sigma = math.sqrt(v) * math.sqrt(max(1.0 - delta, MODEL.kappa))
        out.append(Skill(skill.mu + omega, sigma))
    return out
