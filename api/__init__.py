"""The HTTP layer: DRF views, serializers, permissions, the problem+json error handler."""
