"""Developer machine: debug on, a throw-away key, mail to the console."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = True
SECRET_KEY = env("SECRET_KEY", "local-development-key-not-for-production")
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
WEBHOOK_ALLOW_LOOPBACK = True  # a receiver on this machine
