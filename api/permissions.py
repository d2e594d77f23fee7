"""DRF permission classes over the one organiser permission model (``games.permissions``)."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from games.permissions import REQUIRED, OrganiserAction, may_organise


class IsOrganiser(BasePermission):
    """Allows an organiser action to accounts holding its model permissions.

    ``IsOrganiser(OrganiserAction.CREATE_RACE)``; the permissions each action needs are
    ``games.permissions.REQUIRED``.  ``is_staff`` grants nothing.  Refusal: 401
    ``not_authenticated`` without credentials, else 403 ``permission_denied``.
    """

    def __init__(self, action: OrganiserAction) -> None:
        self.action = action
        self.message = (
            "Only organisers may do this (it needs the permissions "
            + ", ".join(REQUIRED[action])
            + ")."
        )

    def has_permission(self, request: Request, view: Any) -> bool:
        return may_organise(request.user, self.action)
