"""Django's model backend, with the logged-in user of each request loaded in SQL."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import backends, get_user_model
from django.contrib.auth.models import User
from django.db import connection


class ModelBackend(backends.ModelBackend):
    """Every request of a logged-in user loads them: the ORM would take longer to build that
    query than PostgreSQL takes to answer it. The checks are Django's: an inactive user is
    nobody, and the session must match the user's password (in ``django.contrib.auth``)."""

    def get_user(self, user_id: Any) -> User | None:
        model = get_user_model()
        table = connection.ops.quote_name(model._meta.db_table)
        column = connection.ops.quote_name(model._meta.pk.column)
        users = model._default_manager.raw(
            f"SELECT * FROM {table} WHERE {column} = %s",  # names from the model; the id a parameter
            [model._meta.pk.to_python(user_id)],
        )
        user = next(iter(users), None)
        return user if user is not None and self.user_can_authenticate(user) else None
