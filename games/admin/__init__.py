"""The organisers' admin, one module per model (README "Tournaments").

Importing this package registers every model admin and names the site.  Every
write goes through a service (``games.services``); custom actions are logged
with ``LogEntry``; see :mod:`games.admin.common` for the fairness rule on seeds.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from canfield_site.security import admin_password_change
from games.admin import (  # noqa: F401 - imported to register the model admins
    race,
    race_entry,
    ratings,
    tournament,
    tournament_entrant,
    tournament_standing,
    users,
)
from games.admin.common import SEED_HIDDEN, seed_shown
from games.admin.login import AdminLoginForm

#: Shown in the admin's header, page titles and index.
admin.site.site_header = _("Canfield race server: organisers")
admin.site.site_title = _("Canfield organisers")
admin.site.index_title = _("Tournaments, races and players")
#: "View site" leads to the web lobby at the site root.
admin.site.site_url = "/"
# The old password counts in the login lockout (canfield_site.security).
admin.site.password_change = admin_password_change  # type: ignore[method-assign]
#: Its refusal says the username is matched in any case, the password exactly.
admin.site.login_form = AdminLoginForm
#: No app list beside every page: the race and entry lists need the width (a 1280 px
#: screen cut their last columns off); the index and the breadcrumbs lead everywhere.
admin.site.enable_nav_sidebar = False

__all__ = ["SEED_HIDDEN", "seed_shown"]
