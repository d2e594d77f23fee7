"""The organisers' admin, one module per model (README "Tournaments").

Importing this package registers every model admin.  Custom actions go through
the services and are logged with ``LogEntry``; see :mod:`games.admin.common` for
the fairness rule on seeds.
"""

from games.admin import (  # noqa: F401 - imported to register the model admins
    race,
    race_entry,
    tournament,
    tournament_entrant,
    tournament_standing,
)
from games.admin.common import SEED_HIDDEN, seed_shown

__all__ = ["SEED_HIDDEN", "seed_shown"]
