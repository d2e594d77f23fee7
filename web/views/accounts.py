"""Accounts: sign up, log in, log out, change password (Django's auth views and forms).

Log in is Django's :class:`~django.contrib.auth.views.LoginView`, whose form calls
``authenticate(request=...)``, so a login throttle (django-axes) plugs in unchanged.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from canfield_site.middleware import methods_only
from canfield_site.security import LockoutPasswordChangeView
from games.services.accounts import user_register
from games.services.errors import UsernameTaken
from web.forms import LoginForm, SignUpForm
from web.middleware import reads_query
from web.throttling import throttled


@reads_query("next")
@throttled("auth")
def signup(request: HttpRequest) -> HttpResponse:
    """``GET/POST /accounts/signup/``: create an account, log in, go to ``next`` or the lobby."""
    if request.user.is_authenticated:
        return redirect("web:lobby")
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST":
        form = SignUpForm(request.POST)
        user = None
        if form.is_valid():
            try:
                user = user_register(
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
            except UsernameTaken:  # a concurrent sign-up took the name first
                form.add_error("username", _("This username is taken."))
        if user is not None:
            login(request, user, backend="canfield_site.security.UsernameAnyCaseBackend")
            messages.success(
                request,
                _("Welcome, %(name)s: your account is ready, and you are logged in.")
                % {"name": user.get_username()},
            )
            if nxt and url_has_allowed_host_and_scheme(
                nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            ):
                return redirect(nxt)
            return redirect("web:lobby")
    else:
        form = SignUpForm()
    return render(request, "web/accounts/signup.html", {"form": form, "next": nxt})


login_view = reads_query("next")(
    throttled("auth")(
        auth_views.LoginView.as_view(
            template_name="web/accounts/login.html",
            authentication_form=LoginForm,
            redirect_authenticated_user=True,
            next_page=reverse_lazy("web:lobby"),
        )
    )
)
_logout = auth_views.LogoutView.as_view(next_page=reverse_lazy("web:lobby"))


@reads_query("next")  # Django's LogoutView reads ``next`` from a post's query too
def logout_view(request: HttpRequest) -> HttpResponseBase:
    """``POST /accounts/logout/``: log out, to the lobby.  ``GET`` (a typed or bookmarked
    address; Django's view answered a blank 405): a page asking to confirm with a Log out
    button (the POST), or the lobby for a visitor who is not logged in.  Other methods:
    405."""
    if request.method == "GET":
        if not request.user.is_authenticated:
            return redirect("web:lobby")
        return render(request, "web/accounts/logout.html")
    return _logout(request)


# The old password is checked here too: the same "auth" budget as the API's
# POST /auth/password (an attack guessed 35 passwords in a row through this page).
password_change = throttled("auth")(
    LockoutPasswordChangeView.as_view(
        template_name="web/accounts/password_change_form.html",
        success_url=reverse_lazy("web:password_change_done"),
    )
)
# GET only (the methods Django's view answers): a POST is 405 before the CSRF check.
password_change_done = methods_only("GET", "HEAD", "OPTIONS")(
    auth_views.PasswordChangeDoneView.as_view(
        template_name="web/accounts/password_change_done.html"
    )
)
