"""API views that belong to no domain resource (health)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ProblemSerializer, problem_response
from api.query import ApiView
from canfield_site import health


class HealthView(ApiView):
    """``GET /api/v1/health``: are the database, the task broker and the cache reachable?"""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Service health",
        description=(
            "Checks every dependency the service uses: the database (`SELECT 1`), the Celery "
            "broker (a connection to Redis, or to the SQLite file of the embedded default) and "
            "the shared cache (a Redis PING). `broker_mode` names the broker transport: "
            "`redis`, or `sqlite` for the embedded default's broker file (a Celery worker with "
            "beat, started by `python3 dev.py serve`, consumes it); `in-process` when tasks run "
            "eagerly inside the web process (`CELERY_TASK_ALWAYS_EAGER=true`). `cache_mode` is "
            "`local` (a per-process cache, no server) or `redis`. While the cache is down "
            "players are not affected (each process falls back to a local cache) but health "
            "answers 503 naming `cache`. `sweeper` is `late` when a race ended more than "
            "ten race sweeps (at least a minute) ago and is still not closed (`races_overdue` "
            "counts them), or when the sweeper, having run on a worker before, has not run "
            "for that long (`last_sweep_at`, with no race due): no Celery worker or no beat "
            "runs, or closing keeps failing. It "
            "does not fail the check (this process is fine; races close at the next sweep "
            "once the worker and beat run again): alert on it. No authentication."
        ),
        responses={
            200: inline_serializer(
                "Health",
                {
                    "status": serializers.ChoiceField(choices=["ok"]),
                    "database": serializers.CharField(help_text="`ok`"),
                    "broker": serializers.CharField(help_text="`ok`"),
                    "broker_mode": serializers.CharField(
                        help_text="the transport: `redis`, `sqlite` (embedded default) or "
                        "`in-process` (eager tasks)"
                    ),
                    "cache": serializers.CharField(help_text="`ok`"),
                    "cache_mode": serializers.CharField(help_text="`local` or `redis`"),
                    "sweeper": serializers.ChoiceField(
                        choices=["ok", "late"],
                        help_text="`late`: races past their end are not being closed",
                    ),
                    "last_sweep_at": serializers.DateTimeField(
                        allow_null=True,
                        help_text="when a worker last ran the race sweeper; `null`: never "
                        "recorded (no worker has run it on this database, or tasks run "
                        "eagerly)",
                    ),
                    "races_overdue": serializers.IntegerField(
                        min_value=0,
                        help_text="races still open more than ten sweeps (at least 60 s) "
                        "after their end",
                    ),
                },
            ),
            503: OpenApiResponse(
                ProblemSerializer,
                description="code `service_unavailable`; `database`, `broker` and `cache` say "
                "which failed (`ok` or `error`); `detail` names the failed ones.",
            ),
        },
    )
    def get(self, request: Request) -> Response:
        """Report ``ok``/``error`` for the database, the broker and the cache, and whether
        the race sweeper keeps up (:func:`canfield_site.health.sweeper_check`)."""
        db = health.database_check()
        broker = health.broker_check()
        cache = health.cache_check()
        checks = {
            "database": "ok" if db.ok else "error",
            "broker": "ok" if broker.ok else "error",
            "cache": "ok" if cache.ok else "error",
        }
        if db.ok and broker.ok and cache.ok:
            sweeper = health.sweeper_check()
            last_sweep = health.last_sweep_at()
            overdue = int(sweeper.detail) if sweeper.detail.isdigit() else 0
            return Response(
                {
                    "status": "ok",
                    **checks,
                    "broker_mode": broker.detail,
                    "cache_mode": cache.detail,
                    "sweeper": "ok" if sweeper.ok else "late",
                    "races_overdue": overdue,
                    "last_sweep_at": last_sweep.isoformat().replace("+00:00", "Z")
                    if last_sweep
                    else None,
                }
            )
        failed = [name for name, value in checks.items() if value != "ok"]
        return problem_response(
            status=503,
            code="service_unavailable",
            detail=f"Unavailable: {', '.join(failed)}.",
            instance=request.get_full_path(),
            extra=checks,
        )
