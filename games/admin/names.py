"""The admin's titles and buttons with each model's name and its article.

Django builds them from one pattern per language around the model's name ("Add
%(name)s", "Select %s to change", "Add another %(verbose_name)s"), which its French
catalogue makes read "Ajouter tournoi", "Sélectionnez l'objet course à changer",
"Ajouter un objet Participant au tournoi supplémentaire": French (and Spanish) want
the article, whose gender only the name knows.  Here each model of the organisers'
admin has its name with its article (:data:`A_NAME`, "a race": "une course", "una
carrera", German "Rennen"), put into our own patterns (:data:`ADD`,
:data:`SELECT_TO_CHANGE`, :data:`SELECT_TO_VIEW`): "Ajouter une course", "Choisissez
une course à modifier".  :class:`NamedObjectsAdmin` uses them on the list's title and
its Add button (``admin/<app>/change_list_object_tools.html``), the add page's title
and breadcrumbs (``admin/<app>/change_form.html``) and the inlines' "add another" link.
A model without an entry keeps Django's words.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    _ModelAdmin_Any = admin.ModelAdmin[Any]
else:
    _ModelAdmin_Any = admin.ModelAdmin

#: Each model's name with its (indefinite) article, by model label (lower case); the
#: message context says what the translation is for (a literal, for makemessages).
A_NAME = {
    "games.tournament": pgettext_lazy("with its article", "a tournament"),
    "games.tournamententrant": pgettext_lazy("with its article", "a tournament entrant"),
    "games.tournamentstanding": pgettext_lazy("with its article", "a tournament standing"),
    "games.race": pgettext_lazy("with its article", "a race"),
    "games.raceentry": pgettext_lazy("with its article", "a race entry"),
    "games.ratingpool": pgettext_lazy("with its article", "a rating pool"),
    "games.playerrating": pgettext_lazy("with its article", "a player rating"),
    "games.racerating": pgettext_lazy("with its article", "a race rating"),
    "games.ratingchange": pgettext_lazy("with its article", "a rating change"),
    "auth.user": pgettext_lazy("with its article", "a user"),
    "auth.group": pgettext_lazy("with its article", "a group"),
}

#: The Add button, the add page's title and an inline's "add another" link.
ADD = _("Add %(a_name)s")
#: The list's title for those who may change the rows ...
SELECT_TO_CHANGE = _("Select %(a_name)s to change")
#: ... and for those who may only view them.
SELECT_TO_VIEW = _("Select %(a_name)s to view")


def a_name(model: type[Model]) -> Any:
    """The model's name with its article (lazy), or ``None`` for a model with none."""
    return A_NAME.get(model._meta.label_lower)


def add_words(model: type[Model]) -> str | None:
    """``"Add a race"`` in the active language (capitalised), or ``None`` (Django's)."""
    name = a_name(model)
    return None if name is None else capfirst(str(ADD) % {"a_name": name})


class _NamedInlineFormSet(helpers.InlineAdminFormSet):
    """An inline whose "add another" link says :data:`ADD` with the model's name."""

    def inline_formset_data(self) -> str:
        data = json.loads(super().inline_formset_data())
        data["options"]["addText"] = add_words(self.opts.model)
        return json.dumps(data)


class NamedObjectsAdmin(_ModelAdmin_Any):
    """A model admin whose list title, Add button, add page title and inlines' "add
    another" link name the model with its article (module documentation)."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        name = a_name(self.model)
        if name is not None:
            pattern = SELECT_TO_CHANGE if self.has_change_permission(request) else SELECT_TO_VIEW
            extra_context = {
                "title": capfirst(str(pattern) % {"a_name": name}),
                "add_words": add_words(self.model),
                **(extra_context or {}),
            }
        return super().changelist_view(request, extra_context)

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        words = add_words(self.model)
        if words is not None:
            extra_context = {"title": words, "add_words": words, **(extra_context or {})}
        return super().add_view(request, form_url, extra_context)

    def get_inline_formsets(self, *args: Any, **kwargs: Any) -> Any:
        formsets = super().get_inline_formsets(*args, **kwargs)
        for formset in formsets:
            if a_name(formset.opts.model) is not None:
                formset.__class__ = _NamedInlineFormSet
        return formsets
