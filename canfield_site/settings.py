"""Django settings, read from the environment (django-environ).

The **embedded default** needs no server: with nothing configured the service runs
on SQLite (``db.sqlite3`` beside ``manage.py``), sends Celery tasks through a broker
that is a SQLite file beside it (``db-broker.sqlite3``, see ``canfield_site/broker.py``;
``python3 dev.py serve`` runs the worker with beat) and runs with ``DEBUG`` on for
127.0.0.1/localhost.

With ``DATABASE_URL`` it uses that database (PostgreSQL goes through psycopg 3);
with ``REDIS_URL`` or ``CELERY_BROKER_URL`` Celery talks to that broker instead.
``CELERY_TASK_ALWAYS_EAGER=true`` runs tasks inside the calling process (the test
suite does so when no broker is configured). ``DEBUG`` defaults to on only while
``DATABASE_URL`` is unset; with ``DEBUG`` off the settings refuse to load
(``ImproperlyConfigured``) unless ``SECRET_KEY`` is a real secret and ``ALLOWED_HOSTS`` is set.

Every variable is listed, with its meaning, in ``.env.example`` and the README.
"""

import math
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from api.problem_codes import problem_codes_markdown
from api.rules_doc import rules_markdown
from canfield_site.broker import embedded_broker_file, embedded_broker_url
from canfield_site.cache import cache_settings

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
# Reverse proxies in front of the web server that append to X-Forwarded-For; the client
# address is the n-th entry from the right (0: the header is ignored, the socket address
# is the client). Throttles and the login lockout use it (canfield_site/security.py).
TRUSTED_PROXY_COUNT: int = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")


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
    # Production defaults are the secure ones (`manage.py check --deploy` is clean with
    # them, tests/test_deploy.py); plain local HTTP turns them off explicitly (README).
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    CSRF_COOKIE_SAMESITE = "Lax"
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_SSL_REDIRECT: bool = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Internal health probes (compose, load balancers) ask over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
    SECURE_HSTS_SECONDS: int = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS: bool = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD: bool = env.bool("SECURE_HSTS_PRELOAD", default=True)
    X_FRAME_OPTIONS = "DENY"
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
    # naturaltime's words and their translations ("3 minutes ago"), which the lists of
    # games read through web_tags.since.
    "django.contrib.humanize",
    "rest_framework",
    # django-rest-knox, named in the admin's language (api/apps.py).
    "api.apps.KnoxConfig",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "games",
    "api",
    "web",
    "django_htmx",
    "csp",
]

MIDDLEWARE = [
    # Outermost: every error under /api/ is problem+json, even Django's own (api/refusals.py).
    "api.refusals.ProblemJsonMiddleware",
    # An Accept parameter in RFC 2231 notation (x*=bogus''a) is ignored, not a 500.
    "canfield_site.middleware.readable_accept_middleware",
    # A body without Content-Length (chunked) is refused, not read as empty: 411.
    "canfield_site.middleware.length_required_middleware",
    # A body over DATA_UPLOAD_MAX_MEMORY_SIZE (files of a multipart body too) is refused: 413.
    "canfield_site.middleware.body_size_middleware",
    # A NUL character in the path or query is refused (PostgreSQL's text refuses it): 400.
    "canfield_site.middleware.nul_character_middleware",
    # A form body in a charset other than UTF-8 is refused before anything reads it: 415.
    "canfield_site.middleware.form_charset_middleware",
    # A view that lost the database is 503 with Retry-After, not 500 (problem+json under /api/).
    "canfield_site.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "canfield_site.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    # Cache-Control: private on a page answered to one client (a session, a cookie set);
    # outside the session and CSRF middleware, to see the cookies they set.
    "canfield_site.middleware.private_pages_middleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The API answers in English whatever Accept-Language asks (its codes are stable).
    "api.refusals.english_api_middleware",
    "django.middleware.common.CommonMiddleware",
    # A method the page never accepts is 405 before the CSRF check (not its 403).
    "canfield_site.middleware.method_not_allowed_middleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # A page's form post naming a field twice (confirmed=0&confirmed=1) does nothing: 400.
    "web.middleware.RepeatedFieldMiddleware",
    # Last, as django-axes requires: turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "canfield_site.urls"
CSRF_FAILURE_VIEW = "web.csrf.csrf_failure"
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
                "django.template.context_processors.i18n",
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
#: PostgreSQL connection pool per server process (psycopg_pool through Django's "pool"
#: option): at most this many connections, shared by the threads of that process.  Under
#: the ASGI server each request's sync code runs in a thread of its own, so persistent
#: connections (CONN_MAX_AGE) cannot be reused there and a pool is how connections are
#: kept.  0 (the default): no pool.  A pool excludes CONN_MAX_AGE > 0 (Django refuses both).
DATABASE_POOL_MAX_SIZE = env.int("DATABASE_POOL_MAX_SIZE", default=0)
if DATABASE_POOL_MAX_SIZE > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured(
            "DATABASE_POOL_MAX_SIZE and CONN_MAX_AGE > 0 exclude each other: "
            "set CONN_MAX_AGE=0 with a pool"
        )
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_MAX_SIZE,
        # Seconds a request waits for a free connection before it fails.
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }
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

# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "canfield_site.security.LoginLockoutBackend",
    # Django's ModelBackend, matching the username in any case (sign-up refuses one that
    # differs from a taken one only by case).
    "canfield_site.security.UsernameAnyCaseBackend",
]
# Failed logins (API token endpoint, Django's LoginView, the admin) counted per username
# and client address (an IPv6 client's /64), and per address whatever usernames they
# name; past LOGIN_FAILURE_LIMIT failures of one username from one address that username
# is locked out there, past LOGIN_ADDRESS_FAILURE_LIMIT from one address the whole
# address is, each for LOGIN_LOCKOUT_SECONDS (canfield_site/security.py: LockoutHandler).
# Lockouts: admin, "Axes". Never per username alone: five wrong passwords sent from
# anywhere locked a rival out of the race about to start. Nor the whole address at the
# username's limit: one player's typing mistakes locked out every player behind a club's
# shared address (one NAT).
AXES_FAILURE_LIMIT: int = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT: int = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
if AXES_FAILURE_LIMIT < 1 or LOGIN_ADDRESS_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    # Under the username's limit the address's would lock out first, whatever the username
    # (one player's mistakes again locking out every player behind the address); 0 locked
    # out at the first failure.
    raise ImproperlyConfigured(
        "LOGIN_FAILURE_LIMIT must be 1 or more and LOGIN_ADDRESS_FAILURE_LIMIT at least "
        "LOGIN_FAILURE_LIMIT (failed logins)."
    )
AXES_HANDLER = "canfield_site.security.LockoutHandler"
AXES_COOLOFF_TIME = timedelta(seconds=env.int("LOGIN_LOCKOUT_SECONDS", default=900))
AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]
# A successful login forgets that username's failures from that address only
# (canfield_site.security.forget_failed_logins); axes' own reset also forgot every
# failure from the address.
AXES_RESET_ON_SUCCESS = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_CLIENT_IP_CALLABLE = "canfield_site.security.lockout_address"
AXES_USERNAME_CALLABLE = "canfield_site.security.login_username"
AXES_LOCKOUT_CALLABLE = "canfield_site.security.lockout_response"
AXES_ENABLE_ACCESS_FAILURE_LOG = True
# No "AXES: BEGIN version ..." at start-up, once per process (the served log had it four
# times: web, worker, beat, ...); lockouts and failed logins are still logged, and login
# lines name only the lockout's parameters (username, address) rather than every one.
AXES_VERBOSE = False

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LANGUAGES = [("en", "English"), ("fr", "Français"), ("es", "Español"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "web" / "locale"]
LOGIN_URL = "web:login"

# Content-Security-Policy of the pages (web/): scripts and styles only from this site,
# no inline script or style, no eval.  The API (JSON; its docs pages load their own
# bundles) and the admin are left to their own defaults.
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "EXCLUDE_URL_PREFIXES": ["/api/", "/admin/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"without_traceback": {"()": "canfield_site.log_filters.WithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Django's own "django" logger would print a second copy of each record.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # A Host outside ALLOWED_HOSTS: one line (the 400 answers it), no traceback.
        "django.security.DisallowedHost": {
            "handlers": [],
            "filters": ["without_traceback"],
            "propagate": True,
        },
    },
}

# ------------------------------------------------------------------ Django REST framework
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",
        "api.authentication.SessionAuthentication",  # DRF's, refusing with csrf_failed
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.problem_exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Scoped throttles (per user, or per IP when anonymous); a 429 carries Retry-After.
    # Client addresses only from declared proxies (api/throttling.py); NUM_PROXIES makes
    # any plain DRF throttle agree with it.
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.ScopedRateThrottle"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "moves": env.str("THROTTLE_MOVES", default="20/s"),
        "games": env.str("THROTTLE_GAMES", default="120/min"),
        "auth": env.str("THROTTLE_AUTH", default="30/min"),
    },
}

# Largest request body accepted, in bytes; larger is 413 payload_too_large.
DATA_UPLOAD_MAX_MEMORY_SIZE: int = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=64 * 1024)

# Moves one game accepts in all, undone ones included (each is a stored row that an undo,
# the replay and the export read again); one more is 409 move_limit_reached.  The rules
# set no limit (RULES.md 3.6: redeals are unlimited), so a game could otherwise grow
# without end by drawing and undoing; the longest solver line over classic seeds 0..999
# is far below it.
GAME_MOVE_LIMIT: int = env.int("GAME_MOVE_LIMIT", default=10_000)
if GAME_MOVE_LIMIT < 1:
    raise ImproperlyConfigured("GAME_MOVE_LIMIT must be 1 or more (moves per game).")

# Throttle counters must be shared by every web process: Redis when configured, degrading
# to a per-process cache while Redis is down (canfield_site/cache.py).  The login attempts
# in flight (canfield_site/security.py) fall back to the database instead ("database",
# the table canfield_cache made by migrate), so the lockout holds across processes.
CACHE_URL: str = env.str("CACHE_URL", default="")
CACHES: dict[str, dict[str, Any]] = cache_settings(
    CACHE_URL, retry_seconds=env.float("CACHE_RETRY_SECONDS", default=5.0)
)
# API tokens (django-rest-knox, api/authentication.py): looked up in the database on every
# request, so a revoked token stops working at once in every process. Seconds a token
# lives (0: until revoked), and how many tokens an account keeps (the oldest goes).
AUTH_TOKEN_TTL_SECONDS: int = env.int("AUTH_TOKEN_TTL_SECONDS", default=0)
AUTH_TOKENS_PER_USER: int = env.int("AUTH_TOKENS_PER_USER", default=20)
REST_KNOX: dict[str, Any] = {
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_TTL": timedelta(seconds=AUTH_TOKEN_TTL_SECONDS) if AUTH_TOKEN_TTL_SECONDS > 0 else None,
    "AUTO_REFRESH": False,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Canfield race server API",
    "DESCRIPTION": (
        "Players race on identical seeded deals of Canfield solitaire. Every move goes "
        "through this API and is checked against the rules engine; races are timed by the "
        "server and scored by background workers.\n\n"
        "Each operation takes exactly the query parameters it lists, each at most once: "
        "an undeclared one (a typo such as `phse`, or `format`: the format is chosen with "
        "`Accept`) is 400 `unknown_query_parameter` and a repeated one (`phase=open&"
        "phase=running`; send `phase=open,running`) is 400 `repeated_query_parameter`, "
        "never silently ignored or merged.\n\n"
        "Errors are RFC 9457 "
        "`application/problem+json` documents with a stable snake_case `code`:\n\n"
        + problem_codes_markdown()
        + "\n"
        + rules_markdown()
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc assets from the drf-spectacular-sidecar package: the docs
    # pages work without reaching a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # One name for the solver queue's job states (solutions and hints share them).
    "ENUM_NAME_OVERRIDES": {
        "SolveStatusEnum": ["pending", "running", "done"],
        # A game's status as its player may be told it (games.selectors.games).
        "SeenGameStatusEnum": ["not_started", "playing", "won", "blocked", "resigned", "timed_out"],
        # A race's and a tournament's stored status, on every view that shows them.
        "RaceStatusEnum": "games.models.Race.Status",
        "TournamentStatusEnum": "games.models.Tournament.Status",
    },
    # Every error an operation can answer, as application/problem+json (api/schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.streams_schema.add_stream_paths",
        "api.schema.document_problems",
    ],
}

# Base of the RFC 9457 "type" URI; the problem's code is appended.
PROBLEM_TYPE_BASE: str = env.str("PROBLEM_TYPE_BASE", default="urn:canfield:problem:")

# ------------------------------------------------------------------ Celery
# Every task in this project must be idempotent: tasks are acknowledged late and
# re-queued when a worker dies, and Redis redelivers after the visibility timeout.
# An empty value (``CELERY_BROKER_URL=`` in a copied .env.example) means "not set".
# With neither REDIS_URL nor CELERY_BROKER_URL the broker is a SQLite file beside the
# database (canfield_site/broker.py): tasks still run in a real worker with beat
# (``python3 dev.py serve`` starts one), so races close and score by themselves.
REDIS_URL: str = env.str("REDIS_URL", default="")
CELERY_BROKER_URL: str = env.str("CELERY_BROKER_URL", default="") or REDIS_URL
EMBEDDED_BROKER_FILE = embedded_broker_file(DATABASES["default"], BASE_DIR)
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = embedded_broker_url(EMBEDDED_BROKER_FILE)
_eager = env.str("CELERY_TASK_ALWAYS_EAGER", default="").strip()
# Eager: tasks run inside the calling process and beat is never consulted (tests only).
CELERY_TASK_ALWAYS_EAGER: bool = env.bool("CELERY_TASK_ALWAYS_EAGER") if _eager else False
CELERY_RESULT_BACKEND: str = env.str("CELERY_RESULT_BACKEND", default="") or (
    CELERY_BROKER_URL
    if CELERY_BROKER_URL.startswith("redis")
    else f"db+sqlite:///{EMBEDDED_BROKER_FILE}"
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
    # A broker that stops answering (not refusing) fails a call after this many seconds,
    # and the worker and beat reconnect, instead of waiting on the socket for ever; above
    # kombu's 1 s BRPOP poll.  Web requests wait less (canfield_site.celery).
    "socket_timeout": 5,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 5}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Solver budgets: seconds per seed drawn for the winnable-deal pool, seeds drawn at most
# per refill, and seconds of solver time per solve job (a finished game's solution).
WINNABLE_BUDGET_SECONDS: float = env.float("WINNABLE_BUDGET_SECONDS", default=2.0)
WINNABLE_ATTEMPTS: int = env.int("WINNABLE_ATTEMPTS", default=20)
# Fresh deals of one rule set proved lost in a row after which a winnable draw answers
# 422 no_winnable_deal_found (a fill goes past WINNABLE_ATTEMPTS towards it, for at most
# WINNABLE_GIVE_UP_SECONDS, while every deal it draws is proved lost).
WINNABLE_GIVE_UP_AFTER: int = env.int("WINNABLE_GIVE_UP_AFTER", default=500)
WINNABLE_GIVE_UP_SECONDS: float = env.float("WINNABLE_GIVE_UP_SECONDS", default=30.0)
SOLVER_BUDGET_SECONDS: float = env.float("SOLVER_BUDGET_SECONDS", default=5.0)
# Solver jobs (games/services/solver.py): at most this many waiting per player; the
# Retry-After of a refused one; seconds after which a job never picked up is sent again.
SOLVER_MAX_PENDING_PER_USER: int = env.int("SOLVER_MAX_PENDING_PER_USER", default=2)
SOLVER_RETRY_AFTER_SECONDS: int = env.int("SOLVER_RETRY_AFTER_SECONDS", default=5)
SOLVER_RESEND_SECONDS: float = env.float("SOLVER_RESEND_SECONDS", default=60.0)
# Winnable-deal pool (games/services/winnable_pool.py): deals kept ready per rule set for
# practice games (the players' pool) and, apart, for races only (the races' reserve, also
# the most require_winnable races one tournament batch adds), presets beat keeps filled,
# seconds between beat refills, Retry-After of an empty pool.
WINNABLE_POOL_SIZE: int = env.int("WINNABLE_POOL_SIZE", default=10)
WINNABLE_RACE_RESERVE: int = env.int("WINNABLE_RACE_RESERVE", default=10)
if WINNABLE_RACE_RESERVE < 1:
    raise ImproperlyConfigured(
        "WINNABLE_RACE_RESERVE must be 1 or more: races with require_winnable draw from it, "
        "and a batch of them adds at most that many."
    )
WINNABLE_POOL_PRESETS: list[str] = env.list("WINNABLE_POOL_PRESETS", default=["classic"])
WINNABLE_POOL_REFILL_SECONDS: float = env.float("WINNABLE_POOL_REFILL_SECONDS", default=60.0)
WINNABLE_RETRY_AFTER_SECONDS: int = env.int("WINNABLE_RETRY_AFTER_SECONDS", default=10)
# Solver work runs only on workers of the dedicated "solver" queue (compose: solver).
CELERY_TASK_ROUTES: dict[str, Any] = {
    "games.solve": {"queue": "solver"},
    "games.winnable_pool_fill": {"queue": "solver"},
}
# Seconds between two runs of the race sweeper (closes and scores due races).
RACE_SWEEP_SECONDS: float = env.float("RACE_SWEEP_SECONDS", default=2.0)
# Live events (api/streams.py, games/live/): Redis pub/sub when REDIS_URL is set, else an
# in-process broker.  Channel/key prefix, open streams per user (or per address when
# anonymous), seconds between heartbeat comments.
LIVE_REDIS_URL: str = REDIS_URL
LIVE_CHANNEL_PREFIX: str = env.str("LIVE_CHANNEL_PREFIX", default="canfield")
LIVE_STREAMS_PER_USER: int = env.int("LIVE_STREAMS_PER_USER", default=8)
LIVE_HEARTBEAT_SECONDS: float = env.float("LIVE_HEARTBEAT_SECONDS", default=15.0)


def _expire_seconds(seconds: float) -> int:
    """Whole seconds (at least 1) for a beat entry's ``expire_seconds``."""
    return max(1, math.ceil(seconds))


# Beat's DatabaseScheduler copies these entries into django_celery_beat's PeriodicTask
# rows at start and sends from the rows.  Of the options it keeps only queue, exchange,
# routing_key, priority, headers and ``expire_seconds`` (whole seconds, sent as the
# message's ``expires``): an ``expires`` option is silently dropped.  Without an expiry,
# beat kept queueing sweeps while the workers were down and all of them ran on return.
CELERY_BEAT_SCHEDULE: dict[str, Any] = {
    "race-sweeper": {
        "task": "games.race_sweep",
        "schedule": RACE_SWEEP_SECONDS,
        "options": {"expire_seconds": _expire_seconds(RACE_SWEEP_SECONDS * 5)},
    },
    # Rates finished races whose rating task was lost (games.services.ratings).
    "ratings-sweeper": {
        "task": "games.ratings_sweep",
        "schedule": 60.0,
        "options": {"expire_seconds": 300},
    },
    "solver-sweeper": {
        "task": "games.solver_sweep",
        "schedule": 30.0,
        "options": {"expire_seconds": 60},
    },
    "winnable-pool": {
        "task": "games.winnable_pool_refill",
        "schedule": WINNABLE_POOL_REFILL_SECONDS,
        "options": {"expire_seconds": _expire_seconds(WINNABLE_POOL_REFILL_SECONDS)},
    },
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
