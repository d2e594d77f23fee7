"""The admin's login form, worded as the pages' (``web.forms.LoginForm``)."""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.utils.translation import gettext_lazy as _

#: A failed staff login: the username in any case, the password exactly
#: (``canfield_site.security.UsernameAnyCaseBackend``).
INVALID_STAFF_LOGIN = _(
    "Please enter the correct username and password for a staff account. The username may "
    "be typed in any case; the password is case-sensitive."
)


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's login form (``admin.site.login_form``), worded as ``web.forms.LoginForm``."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_login": INVALID_STAFF_LOGIN,
    }
