"""Production: identical to base except for what the environment must supply
and the transport security that ``manage.py check --deploy`` asks for."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env, env_bool

SECRET_KEY = env("SECRET_KEY")
if len(SECRET_KEY) < 50:
    raise RuntimeError("SECRET_KEY must be set to at least 50 random characters in production")
DEBUG = False

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
