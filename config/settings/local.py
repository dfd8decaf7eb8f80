"""Developer machine (and `make run` at a club): debug on, a throw-away key, mail to the console."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env, env_list
from devstack.network import own_hosts

DEBUG = True
SECRET_KEY = env("SECRET_KEY", "local-development-key-not-for-production")
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# `make run` listens on every interface: players on the club's network reach it by the
# machine's address or name.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ",".join(own_hosts()))
WEBHOOK_ALLOW_LOOPBACK = True  # a receiver on this machine
