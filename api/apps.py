from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Public API"

    def ready(self) -> None:
        from api.authentication import grant_forget_on_change
        from campaign.models import CampaignAPIKey

        post_save.connect(grant_forget_on_change, sender=CampaignAPIKey)
        post_delete.connect(grant_forget_on_change, sender=CampaignAPIKey)
