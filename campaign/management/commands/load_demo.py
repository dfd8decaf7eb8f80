from typing import Any

from django.core.management.base import BaseCommand

from campaign.services.demo import demo_campaign_load, demo_users_ensure


class Command(BaseCommand):
    help = "Load the demo logins and the Malta 1942 demo campaign (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = demo_users_ensure()
        self.stdout.write(f"demo logins created: {', '.join(created) or 'none (already there)'}")
        campaign = demo_campaign_load()
        if campaign is None:
            self.stdout.write("demo campaign: already there")
        else:
            self.stdout.write(f"demo campaign loaded: {campaign.name} ({campaign.slug})")
