from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Public API"

    def ready(self) -> None:
        from api.authentication import grant_forget_on_change
        from api.force_statuses import force_statuses_render
        from campaign.models import CampaignAPIKey
        from campaign.polls import statuses_outdated

        post_save.connect(grant_forget_on_change, sender=CampaignAPIKey)
        post_delete.connect(grant_forget_on_change, sender=CampaignAPIKey)
        statuses_outdated.connect(force_statuses_render)
