"""Throttles that know the client's address only from declared proxies.

DRF's own ``get_ident`` believes ``X-Forwarded-For`` whenever ``NUM_PROXIES`` is unset,
so a client sending a new header on every request was a new client each time.  Every
throttle of this API takes the address from :func:`canfield_site.security.client_address`
(``TRUSTED_PROXY_COUNT``), counted as the login lockout counts it
(:func:`canfield_site.security.lockout_address`: an IPv6 client by its /64, which its
host may roam freely, so changing address inside it no longer made a new client).
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling

from canfield_site.security import lockout_address


class ClientAddressMixin:
    """Mix into any DRF throttle: anonymous clients are told apart by :func:`lockout_address`."""

    def get_ident(self, request: Any) -> str:
        """The client's address as the lockout counts it (``TRUSTED_PROXY_COUNT`` decides
        which address; an IPv6 one stands for its /64): ``"198.51.100.7"``,
        ``"2001:db8:1:2::"``; ``""`` when unknown."""
        return lockout_address(request)


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle):
    """DRF's scoped throttle (per user, or per client address when anonymous)."""
