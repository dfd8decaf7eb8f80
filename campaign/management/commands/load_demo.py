from typing import Any

from django.core.management.base import BaseCommand

from campaign.services.demo import demo_users_ensure


class Command(BaseCommand):
    help = "Load the demo campaign and its logins (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = demo_users_ensure()
        self.stdout.write(f"demo logins created: {', '.join(created) or 'none (already there)'}")
