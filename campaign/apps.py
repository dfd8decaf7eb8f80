from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Each kind of background operation registers itself with the operations service as
        # its module loads, and each reminder source (orders) with the notifications' sweep:
        # every process (web, worker) knows them all before it runs one.
        from campaign.services import arrivals, night, orders  # noqa: F401
