from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

# (username, password, staff) for the demo; passwords are printed by `make run`.
DEMO_USERS = (("umpire", "umpire", True), ("axis", "axis", False), ("allied", "allied", False))


@transaction.atomic
def demo_users_ensure() -> list[str]:
    """Create the demo logins if missing; returns the names created."""
    user_model = get_user_model()
    created = []
    for username, password, staff in DEMO_USERS:
        user, was_created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": staff, "is_superuser": staff}
        )
        if was_created:
            user.set_password(password)
            user.save(update_fields=["password"])
            created.append(username)
    return created
