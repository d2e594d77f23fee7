"""Throttles that know the client's address only from declared proxies.

DRF's own ``get_ident`` believes ``X-Forwarded-For`` whenever ``NUM_PROXIES`` is unset,
so a client sending a new header on every request was a new client each time.  Every
throttle of this API takes the address from :func:`canfield_site.security.client_address`
(``TRUSTED_PROXY_COUNT``), the same function the login lockout uses.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling

from canfield_site.security import client_address


class ClientAddressMixin:
    """Mix into any DRF throttle: anonymous clients are told apart by :func:`client_address`."""

    def get_ident(self, request: Any) -> str:
        """The client address of ``request`` (``TRUSTED_PROXY_COUNT`` decides)."""
        return client_address(request)


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle):
    """DRF's scoped throttle (per user, or per client address when anonymous)."""
