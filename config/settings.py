"""Settings for the animal ordinance application: one module, read from the environment.

Every value that differs between a laptop, CI and production comes from an environment
variable (or ``<NAME>_FILE`` for secrets). With nothing set, the app runs on an embedded
SQLite file and kombu's filesystem broker, so ``make run`` needs nothing installed.
"""

from pathlib import Path

import environ
from csp.constants import NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("APP_VAR_DIR", default=str(BASE_DIR / "var")))

# FileAwareEnv reads DJANGO_SECRET_KEY_FILE etc. for secrets mounted as files.
env = environ.FileAwareEnv()

DEBUG = env.bool("DJANGO_DEBUG", default=True)

if DEBUG:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me-" + "x" * 32)
else:
    # Production must be given a real key; failing loudly beats running with a known one.
    SECRET_KEY = env.str("DJANGO_SECRET_KEY")

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "django_filters",
    "simple_history",
    "allauth",  # resident sign-up, e-mail verification, password reset (accounts/urls_allauth.py)
    "allauth.account",
    # Staff's second factor: TOTP apps and one-time recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "axes",
    "csp",
    "django_celery_beat",
    "rest_framework",  # the read API: api/
    "drf_spectacular",
    # Our apps, bottom of the dependency graph first (architecture.md).
    "base",  # no models: roles, access, the nav and page-section registries
    "ordinance",
    "kernel",  # the case kernel: stateful records, kept records, number series
    "accounts",
    "notices",
    "licensing",
    "impound",
    "citations",  # REC-14 citations; below complaints, which issues them
    "permits",  # Glencoe's horse and temporary wild-animal permits
    "clinics",  # veterinary clinics send rabies certificates
    "records",  # the city's data out (export) and in
    "rabies",
    "dangerous_dogs",
    "complaints",
    "api",  # the read API for the city's other systems
    "demo",  # the demo simulation and its demo_data command; no models, no app imports it
]

MIDDLEWARE = [
    # Before anything reads the body: an oversized request is refused unread (413).
    "base.request_size.RequestSizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Staff with a second factor enter it, administrators enroll, before any page.
    "accounts.middleware.SecondFactorMiddleware",
    "base.privacy.PrivatePagesMiddleware",
    "ordinance.middleware.RulesReadOnce",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # AxesMiddleware must be last: it turns a lockout into the lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.site",
            ],
        },
    },
]

VAR_DIR.mkdir(parents=True, exist_ok=True)  # the SQLite file, broker folder and media live here
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# A restarted PostgreSQL costs only the requests in flight: persistent connections are
# checked before reuse instead of failing the next request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite in dev: wait for a writer (web and worker share the file) instead of erroring.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# Axes first (its documented place: it refuses a locked-out username+address before any
# password is checked), then allauth's backend (accounts.backends: the user row of each
# request is read from the cache), which accepts a username or an e-mail address in the
# login page's "username" field and does the ModelBackend's permissions.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.AuthenticationBackend",  # allauth's, the user row cached
]
# Length over composition (NIST SP 800-63B): 15 characters at least, not a common
# password, not close to the username or e-mail; no rules about digits or symbols.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 15},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# The installation's name where it serves several cities (the page titles and the login
# page); an installation of one city is named by the city.
SITE_NAME = env.str("SITE_NAME", default="")

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:home"
LOGOUT_REDIRECT_URL = "accounts:login"

# django-axes: lock a username+address pair after repeated failures, for a cool-off
# period only. Its default (no cool-off) would lock a clerk out at the counter until an
# administrator resets the account.
AXES_VERBOSE = False
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
# The client's address through the trusted proxies in front (base/client_ip.py): one
# behind DJANGO_BEHIND_PROXY unless DJANGO_TRUSTED_PROXY_COUNT says how many.
TRUSTED_PROXY_COUNT = env.int(
    "DJANGO_TRUSTED_PROXY_COUNT",
    default=1 if env.bool("DJANGO_BEHIND_PROXY", default=False) else 0,
)
AXES_CLIENT_IP_CALLABLE = "base.client_ip.client_ip"
# Beside the lockout of one username from one address: failed logins from one address,
# whatever the usernames, within the cool-off time (a password sprayed over many users).
LOGIN_FAILURES_PER_ADDRESS = env.int("LOGIN_FAILURES_PER_ADDRESS", default=30)

# Staff's second factor (django-otp; accounts/second_factor.py). The name an
# authenticator app shows beside the account; wrong codes wait 1, 2, 4, 8... seconds.
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", default="Animal licensing")
OTP_TOTP_THROTTLE_FACTOR = env.int("OTP_THROTTLE_FACTOR", default=1)
OTP_STATIC_THROTTLE_FACTOR = OTP_TOTP_THROTTLE_FACTOR

# --- django-allauth: residents sign up, verify their e-mail, reset a password. Logging in
# stays on our own page (accounts:login, Django's view on the backends above), so Axes
# watches the one login form; allauth's login URL only redirects there.
ACCOUNT_ADAPTER = "accounts.adapter.ResidentAccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# The link in the mail opens a page with a button: a mail scanner's GET confirms nothing.
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = env.str(
    "ACCOUNT_EMAIL_SUBJECT_PREFIX", default="[Animal licensing] "
)
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_SESSION_REMEMBER = False

# Linking an account to an owner record (licensing/services/linking.py): tries per
# account per hour. A security setting, not an ordinance value.
LINK_ATTEMPTS_PER_HOUR = env.int("LINK_ATTEMPTS_PER_HOUR", default=5)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"
USE_I18N = True
USE_TZ = True
# Dates people read: "Dec 31, 2026" (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=str(VAR_DIR / "media"))
# Uploads and archived documents: on local disk (MEDIA_ROOT) unless MEDIA_S3_BUCKET names a
# bucket on an S3-compatible object store, which every web host and worker then shares.
# The files are private: no public URL is ever handed out (each is
# streamed by a view that checks the user may see its record), so the bucket needs no
# public access; a stored name is never replaced (file_overwrite off), as on disk.
MEDIA_S3_BUCKET = env.str("MEDIA_S3_BUCKET", default="")
if MEDIA_S3_BUCKET:
    _media_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MEDIA_S3_BUCKET,
            # Empty means Amazon S3 itself; otherwise MinIO, Ceph, Garage, a cloud's own.
            "endpoint_url": env.str("MEDIA_S3_ENDPOINT_URL", default="") or None,
            "region_name": env.str("MEDIA_S3_REGION", default="") or None,
            # Empty keys fall back to boto3's own chain (AWS_* variables, an instance role).
            "access_key": env.str("MEDIA_S3_ACCESS_KEY_ID", default="") or None,
            "secret_key": env.str("MEDIA_S3_SECRET_ACCESS_KEY", default="") or None,
            "location": env.str("MEDIA_S3_PREFIX", default=""),  # a folder in a shared bucket
            # "path" for stores without virtual-host buckets (MinIO, most on-premises ones).
            "addressing_style": env.str("MEDIA_S3_ADDRESSING_STYLE", default="") or None,
            "signature_version": "s3v4",
            "default_acl": None,  # the bucket's own: private
            "querystring_auth": True,  # a URL, if one were ever made, is signed and expires
            "custom_domain": None,
            "file_overwrite": False,  # an archived document is never replaced
        },
    }
else:
    _media_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _media_storage,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# Uploads (rabies certificates, photos, evidence) are checked for type and size in forms;
# this caps what Django will hold in memory for one request.
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=10 * 1024 * 1024)
# The rest of a form beside one file at the limit (a second file, the other fields, the
# multipart framing): a body larger than UPLOAD_MAX_BYTES plus this is refused unread
# (base/request_size.py). A file a little over the limit still reaches
# the form, which says so next to the field and keeps what was typed.
REQUEST_FORM_OVERHEAD_BYTES = env.int("REQUEST_FORM_OVERHEAD_BYTES", default=10 * 1024 * 1024)

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="animal-control@localhost")
# Text messages (notices/sms.py): off unless SMS_BACKEND names a backend
# ("notices.sms.ConsoleBackend" in development, a provider's class in production), and
# then only for a city whose profile turns on ``impound_owner_notice_text``.
SMS_BACKEND = env.str("SMS_BACKEND", default="")
SMS_FROM = env.str("SMS_FROM", default="")
# Where links in e-mails point (renewal reminders, transfer invitations): the public
# address of this installation, without a trailing slash.
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")
# Days before a rabies vaccination runs out that the owner is e-mailed and the animal
# shows "due soon" (a setting, not an ordinance value).
RABIES_REMINDER_LEAD_DAYS = env.int("RABIES_REMINDER_LEAD_DAYS", default=30)
# Hours a city's data export stays downloadable before the retention
# sweep removes its archive: it holds the city's personal data in full. Installation
# policy, not an ordinance value.
DATA_EXPORT_RETENTION_HOURS = env.int("DATA_EXPORT_RETENTION_HOURS", default=72)

# Card payments through Stripe Checkout: off unless both keys are set (then
# residents may pay an approved application online). STRIPE_API_BASE points the client
# at another host (the tests' local stand-in); empty means Stripe's own API.
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")

# --- The read API (api/). Token per integration only: no session, so
# no CSRF; JSON only (no browsable pages); read-only; one rate per integration.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.IntegrationTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.IntegrationWithScope"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.IntegrationRateThrottle"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.ChangedCursorPagination",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "UNAUTHENTICATED_TOKEN": None,
    "COERCE_DECIMAL_TO_STRING": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Animal ordinance read API",
    "DESCRIPTION": (
        "Read-only records of the cities a token serves: dog licenses, animals, owners and "
        "receipts. Send `Authorization: Bearer <token>`. Owners' and payers' names, "
        "addresses, phones and e-mails need the personal-data scope."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SECURITY": [{"bearerAuth": []}],
    "APPEND_COMPONENTS": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
}
API_THROTTLE_RATE = env.str("API_THROTTLE_RATE", default="600/minute")
API_PAGE_SIZE = env.int("API_PAGE_SIZE", default=100)
API_MAX_PAGE_SIZE = env.int("API_MAX_PAGE_SIZE", default=500)

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# Sessions are read from the cache and written through to the database: a page costs
# no session query, and a restart or an evicted entry loses no login.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Security headers. Production (DJANGO_DEBUG=false) is what `check --deploy` reads.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Cookies only over HTTPS: on by default in production; DJANGO_SECURE_COOKIES=false where
# a test deployment runs plain HTTP, true wherever TLS ends at the proxy in front.
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
if env.bool("DJANGO_BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# No 'unsafe-inline' anywhere: all script and style come from /static/.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        # Widened to Stripe Checkout's host on the pay page only, and only when card
        # payments are configured (licensing.payments: a redirect after a POST counts).
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

# --- Celery. The broker holds no legal deadline (architecture.md): beat only triggers
# idempotent sweeps, so a flushed Redis loses nothing.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=None)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# The whole beat schedule, in one place (style.md). Sweeps are idempotent, so a short
# period only makes deadlines take effect sooner.
CELERY_BEAT_SCHEDULE = {
    "deadlines.sweep_all": {
        "task": "deadlines.sweep_all",
        "schedule": env.float("SWEEP_PERIOD_SECONDS", default=300.0),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused or missing page is one line, not a traceback.
    "filters": {"quiet_refusals": {"()": "base.privacy.QuietRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["quiet_refusals"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
