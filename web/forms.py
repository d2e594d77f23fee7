"""Forms of the pages: sign up, practice game, move (the same input as the API)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS
from games.services.accounts import username_validate
from games.words import USERNAME_HELP
from web.board import variant_label

#: A failed login (Django's said "Note that both fields may be case-sensitive", but the
#: username is matched in any case: ``canfield_site.security.UsernameAnyCaseBackend``).
INVALID_LOGIN = _(
    "Please enter a correct username and password. The username may be typed in any case; "
    "the password is case-sensitive."
)


class LoginForm(AuthenticationForm):
    """Django's login form, whose refusal says what is true here: the username in any
    case, the password exactly (:data:`INVALID_LOGIN`)."""

    error_messages = {**AuthenticationForm.error_messages, "invalid_login": INVALID_LOGIN}


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """Django's account creation form, with the API's username rules: ASCII letters,
    digits and ``@.+-_`` only (no look-alike letters from other scripts in public
    standings), not dots alone, unique regardless of case.  The account is created by the
    ``user_register`` service (see :func:`web.views.accounts.signup`)."""

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username",)
        help_texts = {"username": USERNAME_HELP}

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        try:
            username_validate(username)
        except ValidationError as exc:
            if exc.code == "dots_only":  # in this app's catalogue, so the page translates it
                raise forms.ValidationError(
                    _("A username cannot be made of dots only."), code="dots_only"
                ) from None
            raise
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This username is taken."), code="username_taken")
        return username


def _preset_choices() -> list[tuple[str, str]]:
    return [(name, variant_label(name)) for name in PRESETS]


class PracticeForm(forms.Form):
    """Start a practice game: a preset, optional overrides, a seed or a random deal."""

    variant = forms.ChoiceField(label=_("Variant"), choices=_preset_choices, initial="classic")
    draw = forms.TypedChoiceField(
        label=_("Cards per draw"),
        choices=[("", _("as the variant says")), ("1", "1"), ("3", "3")],
        required=False,
        coerce=int,
        empty_value=None,
    )
    redeals = forms.ChoiceField(
        label=_("Redeals"),
        choices=[
            ("", _("as the variant says")),
            ("unlimited", _("unlimited")),
            ("0", "0"),
            ("1", "1"),
            ("2", "2"),
            ("3", "3"),
        ],
        required=False,
    )
    seed = forms.CharField(
        label=_("Seed (empty: a random deal)"),
        max_length=64,
        required=False,
        help_text=_("1 to 64 letters, digits, '-' or '_'; a game number such as 12345."),
    )

    winnable = forms.BooleanField(
        label=_("A deal the solver proves winnable (leave the seed empty)"),
        required=False,
        label_suffix="",  # a box's label follows it: no colon
    )

    def options(self) -> dict[str, Any]:
        """The option overrides chosen (the API's ``options``)."""
        out: dict[str, Any] = {}
        if self.cleaned_data.get("draw"):
            out["draw"] = self.cleaned_data["draw"]
        redeals = self.cleaned_data.get("redeals")
        if redeals == "unlimited":
            out["redeals"] = None
        elif redeals:
            out["redeals"] = int(redeals)
        return out


class MoveForm(forms.Form):
    """A move as the API takes it: ``move`` (RULES.md 5 notation) and ``expected_move_number``.

    A field sent twice never reaches a form (:mod:`web.middleware`)."""

    move = forms.CharField(label=_("Move"), max_length=16)
    expected_move_number = forms.IntegerField(min_value=0, required=False)


class ExpectedForm(forms.Form):
    """Undo and resign carry the move number the page showed."""

    expected_move_number = forms.IntegerField(min_value=0, required=False)
