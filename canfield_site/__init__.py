"""Project package: settings, URLs, the Celery app, WSGI/ASGI entry points.

The Celery app is imported here so that ``@shared_task`` binds to it whenever
Django starts (web, worker, beat or tests).
"""

from canfield_site.celery import app as celery_app

__all__ = ("celery_app",)
