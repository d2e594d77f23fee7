"""Token authentication with a short per-process cache of token -> user.

Every API call authenticates; without a cache that is one database round trip
per request, the largest single cost of a move after the move itself.  The
cache is Django's local-memory cache (alias ``auth_tokens``), so each web
process keeps its own copy for ``AUTH_TOKEN_CACHE_SECONDS`` (0 turns it off).
A token deleted in this process is forgotten at once; one deleted elsewhere,
or a deactivated user, is refused at the latest that many seconds later.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import caches
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


class CachedTokenAuthentication(TokenAuthentication):
    """DRF token authentication (``Authorization: Token <key>``) with a per-process cache."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        ttl = settings.AUTH_TOKEN_CACHE_SECONDS
        if ttl <= 0:
            return super().authenticate_credentials(key)
        cache = caches["auth_tokens"]
        hit = cache.get(key)
        if isinstance(hit, tuple) and isinstance(hit[0], User):
            return hit
        user, token = super().authenticate_credentials(key)
        cache.set(key, (user, token), ttl)
        return user, token


def forget_token(key: str) -> None:
    """Drop the token ``key`` from this process's cache (after rotating or deleting it)."""
    caches["auth_tokens"].delete(key)


def forget_deleted_token(sender: type[Token], instance: Token, **kwargs: Any) -> None:
    """``post_delete`` receiver for :class:`Token` (connected in ``api.apps``)."""
    forget_token(instance.key)
