"""Django settings, read from the environment (django-environ).

The **embedded default** needs no server: with nothing configured the service runs
on SQLite (``db.sqlite3`` beside ``manage.py``), executes Celery tasks in-process
(``CELERY_TASK_ALWAYS_EAGER``) and runs with ``DEBUG`` on for 127.0.0.1/localhost.

With ``DATABASE_URL`` it uses that database (PostgreSQL goes through psycopg 3);
with ``REDIS_URL`` or ``CELERY_BROKER_URL`` Celery talks to that broker and tasks
are no longer eager. ``DEBUG`` defaults to on only while ``DATABASE_URL`` is unset;
with ``DEBUG`` off the settings refuse to load (``ImproperlyConfigured``) unless
``SECRET_KEY`` is a real secret and ``ALLOWED_HOSTS`` is set.

Every variable is listed, with its meaning, in ``.env.example`` and the README.
"""

from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from api.problem_codes import problem_codes_markdown

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if env.bool("DJANGO_READ_DOT_ENV_FILE", default=False):
    env.read_env(str(BASE_DIR / ".env"))

# ------------------------------------------------------------------ core / security
INSECURE_DEV_SECRET_KEY = "django-insecure-dev-only-canfield-key-never-use-in-production"  # noqa: S105

_DATABASE_URL_SET = bool(env.str("DATABASE_URL", default=""))
DEBUG: bool = env.bool("DEBUG", default=not _DATABASE_URL_SET)

SECRET_KEY: str = env.str("SECRET_KEY", default=INSECURE_DEV_SECRET_KEY)
ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])


def _secret_key_is_real(key: str) -> bool:
    """Return whether ``key`` is fit for production (Django's own W009 criteria)."""
    return (
        key != INSECURE_DEV_SECRET_KEY
        and not key.startswith("django-insecure")
        and len(key) >= 50
        and len(set(key)) >= 5
    )


if not DEBUG:
    if not _secret_key_is_real(SECRET_KEY):
        raise ImproperlyConfigured(
            "DEBUG is off but SECRET_KEY is missing or weak: set SECRET_KEY to at least 50 "
            "random characters (python3 -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or set DEBUG=true for local development."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "DEBUG is off but ALLOWED_HOSTS is empty: set ALLOWED_HOSTS to a comma-separated "
            "list of the host names this service answers to."
        )
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# ------------------------------------------------------------------ applications
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "games",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "canfield_site.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "canfield_site.urls"
WSGI_APPLICATION = "canfield_site.wsgi.application"
ASGI_APPLICATION = "canfield_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ------------------------------------------------------------------ database
DATABASES: dict[str, dict[str, Any]] = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent clients of the embedded default: take the write lock when a
    # transaction begins (a deferred one that later writes fails at once with
    # "database is locked") and wait up to 20 s for it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ------------------------------------------------------------------ auth, i18n, static
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Django's own "django" logger would print a second copy of each record.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

# ------------------------------------------------------------------ Django REST framework
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.problem_exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Scoped throttles (per user, or per IP when anonymous); a 429 carries Retry-After.
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "moves": env.str("THROTTLE_MOVES", default="20/s"),
        "games": env.str("THROTTLE_GAMES", default="120/min"),
        "auth": env.str("THROTTLE_AUTH", default="30/min"),
    },
}

# Largest request body accepted, in bytes; larger is 413 payload_too_large.
DATA_UPLOAD_MAX_MEMORY_SIZE: int = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=64 * 1024)

# Throttle counters must be shared by every web process: Redis when configured.
CACHE_URL: str = env.str("CACHE_URL", default="")
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Per-process token -> user cache (api/authentication.py).
    "auth_tokens": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "auth-tokens",
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}
# Seconds a web process trusts a token it has looked up (0: look up on every request).
AUTH_TOKEN_CACHE_SECONDS: int = env.int("AUTH_TOKEN_CACHE_SECONDS", default=30)
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Canfield race server API",
    "DESCRIPTION": (
        "Players race on identical seeded deals of Canfield solitaire. Every move goes "
        "through this API and is checked against the rules engine; races are timed by the "
        "server and scored by background workers. Errors are RFC 9457 "
        "`application/problem+json` documents with a stable snake_case `code`:\n\n"
        + problem_codes_markdown()
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc assets from the drf-spectacular-sidecar package: the docs
    # pages work without reaching a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # The event streams are plain async views: this hook documents them (text/event-stream).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.streams_schema.add_stream_paths",
    ],
}

# Base of the RFC 9457 "type" URI; the problem's code is appended.
PROBLEM_TYPE_BASE: str = env.str("PROBLEM_TYPE_BASE", default="urn:canfield:problem:")

# ------------------------------------------------------------------ Celery
# Every task in this project must be idempotent: tasks are acknowledged late and
# re-queued when a worker dies, and Redis redelivers after the visibility timeout.
# An empty value (``CELERY_BROKER_URL=`` in a copied .env.example) means "not set".
REDIS_URL: str = env.str("REDIS_URL", default="")
CELERY_BROKER_URL: str = env.str("CELERY_BROKER_URL", default="") or REDIS_URL
_eager = env.str("CELERY_TASK_ALWAYS_EAGER", default="").strip()
CELERY_TASK_ALWAYS_EAGER: bool = (
    env.bool("CELERY_TASK_ALWAYS_EAGER") if _eager else not CELERY_BROKER_URL
)
if not CELERY_BROKER_URL:
    # In-process mode: nothing leaves the process, no server is needed.
    CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND: str = env.str("CELERY_RESULT_BACKEND", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "cache+memory://"
)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_TASK_TIME_LIMIT: int = env.int("CELERY_TASK_TIME_LIMIT", default=120)
CELERY_TASK_SOFT_TIME_LIMIT: int = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=90)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    # Must exceed the longest ETA/countdown we schedule; the design keeps ETAs as hints.
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    "socket_connect_timeout": 5,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 5}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Solver budgets (games/services/solutions.py): seconds per seed drawn for a deal proven
# winnable, seeds drawn at most, and seconds for a finished game's solution.
WINNABLE_BUDGET_SECONDS: float = env.float("WINNABLE_BUDGET_SECONDS", default=2.0)
WINNABLE_ATTEMPTS: int = env.int("WINNABLE_ATTEMPTS", default=20)
SOLVER_BUDGET_SECONDS: float = env.float("SOLVER_BUDGET_SECONDS", default=5.0)
# Seconds between two runs of the race sweeper (closes and scores due races).
RACE_SWEEP_SECONDS: float = env.float("RACE_SWEEP_SECONDS", default=2.0)
# Live events (api/streams.py, games/live/): Redis pub/sub when REDIS_URL is set, else an
# in-process broker.  Channel/key prefix, open streams per user (or per address when
# anonymous), seconds between heartbeat comments.
LIVE_REDIS_URL: str = REDIS_URL
LIVE_CHANNEL_PREFIX: str = env.str("LIVE_CHANNEL_PREFIX", default="canfield")
LIVE_STREAMS_PER_USER: int = env.int("LIVE_STREAMS_PER_USER", default=8)
LIVE_HEARTBEAT_SECONDS: float = env.float("LIVE_HEARTBEAT_SECONDS", default=15.0)
CELERY_BEAT_SCHEDULE: dict[str, Any] = {
    "race-sweeper": {
        "task": "games.race_sweep",
        "schedule": RACE_SWEEP_SECONDS,
        "options": {"expires": RACE_SWEEP_SECONDS * 5},
    }
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
