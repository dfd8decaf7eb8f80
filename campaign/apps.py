from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Each kind of background operation registers itself with the operations service as
        # its module loads: every process (web, worker) knows them all before it runs one.
        from campaign.services import arrivals, night  # noqa: F401
