"""Shared pieces of the organisers' admin: the seed guard and the service-call wrapper.

Fairness rule: a race's seed and its deal's deck never appear in the admin
until the race is finished (no Deal or Game admin; the race pages show the
seed through :func:`seed_shown` only; no search field reaches the seed).
Every write goes through a service (``games.services``), which owns the
validation and the locks; a service refusal becomes a form error or a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest

from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from games.services.errors import ServiceError

if TYPE_CHECKING:  # the stubs' generics; plain classes at run time (no django-stubs-ext)
    _ModelForm_Tournament = forms.ModelForm[Tournament]
    _TabularInline_TournamentStanding_Tournament = admin.TabularInline[
        TournamentStanding, Tournament
    ]
    _TabularInline_Race_Tournament = admin.TabularInline[Race, Tournament]
    _TabularInline_TournamentEntrant_Tournament = admin.TabularInline[TournamentEntrant, Tournament]
    _ModelAdmin_Tournament = admin.ModelAdmin[Tournament]
    _ModelAdmin_TournamentStanding = admin.ModelAdmin[TournamentStanding]
    _ModelAdmin_TournamentEntrant = admin.ModelAdmin[TournamentEntrant]
    _TabularInline_RaceEntry_Race = admin.TabularInline[RaceEntry, Race]
    _ModelAdmin_Race = admin.ModelAdmin[Race]
    _ModelAdmin_RaceEntry = admin.ModelAdmin[RaceEntry]
else:
    _ModelForm_Tournament = forms.ModelForm
    _TabularInline_TournamentStanding_Tournament = admin.TabularInline
    _TabularInline_Race_Tournament = admin.TabularInline
    _TabularInline_TournamentEntrant_Tournament = admin.TabularInline
    _ModelAdmin_Tournament = admin.ModelAdmin
    _ModelAdmin_TournamentStanding = admin.ModelAdmin
    _ModelAdmin_TournamentEntrant = admin.ModelAdmin
    _TabularInline_RaceEntry_Race = admin.TabularInline
    _ModelAdmin_Race = admin.ModelAdmin
    _ModelAdmin_RaceEntry = admin.ModelAdmin

SEED_HIDDEN = "hidden until the race is finished"


def seed_shown(race: Race) -> str:
    """The race's seed once it is finished; a placeholder before."""
    return (race.deal.seed or "") if race.status == Race.Status.FINISHED else SEED_HIDDEN


def run_service(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, obj: Any, fn: Any
) -> bool:
    """Run one service call for ``obj``; a service refusal becomes an error message."""
    try:
        fn()
    except ServiceError as exc:
        model_admin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
        return False
    return True
