"""The API key model now lives in campaign (campaign 0013): the api app forgets it, leaving its
table to campaign; its admin permissions go with it."""

from django.db import migrations


def _content_type_to(app_label: str):
    def move(apps, schema_editor):
        content_types = apps.get_model("contenttypes", "ContentType")
        if not content_types.objects.filter(app_label=app_label, model="campaignapikey").exists():
            content_types.objects.filter(model="campaignapikey").update(app_label=app_label)

    return move


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0002_campaign_api_keys"),
        ("campaign", "0013_campaign_api_key"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="CampaignAPIKey")],
            database_operations=[],
        ),
        migrations.RunPython(_content_type_to("campaign"), _content_type_to("api")),
    ]
