"""Hypothesis set-up for the engine tests.

The engine's property tests use :data:`tests.engine.strategies.ENGINE_SETTINGS`
(quick by default).  ``HYPOTHESIS_PROFILE=ci`` loads the ``ci`` profile
registered here and makes those tests search several times harder.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
if os.environ.get("HYPOTHESIS_PROFILE") == "ci":
    settings.load_profile("ci")
