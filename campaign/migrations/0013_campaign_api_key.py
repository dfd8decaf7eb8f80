"""The API key model moves from the api app to campaign (which must not import api): in the
state only, as its table (``api_campaignapikey``) and rows stay where they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0002_campaign_api_keys"),
        ("campaign", "0012_night_snapshot"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CampaignAPIKey",
                    fields=[
                        (
                            "id",
                            models.CharField(
                                editable=False, max_length=150, primary_key=True, serialize=False, unique=True
                            ),
                        ),
                        ("prefix", models.CharField(editable=False, max_length=8, unique=True)),
                        ("hashed_key", models.CharField(editable=False, max_length=150)),
                        ("created", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "name",
                            models.CharField(
                                default=None,
                                help_text="A free-form name for the API key. Need not be unique. 50 characters max.",
                                max_length=50,
                            ),
                        ),
                        (
                            "revoked",
                            models.BooleanField(
                                blank=True,
                                default=False,
                                help_text="If the API key is revoked, clients cannot use it anymore. (This cannot be undone.)",
                            ),
                        ),
                        (
                            "expiry_date",
                            models.DateTimeField(
                                blank=True,
                                help_text="Once API key expires, clients cannot use it anymore.",
                                null=True,
                                verbose_name="Expires",
                            ),
                        ),
                        (
                            "can_write",
                            models.BooleanField(default=False, help_text="read-only unless granted"),
                        ),
                        (
                            "campaign",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_keys",
                                to="campaign.campaign",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "side",
                            models.ForeignKey(
                                blank=True,
                                help_text="empty: the public (observer) view",
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_keys",
                                to="campaign.side",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "campaign API key",
                        "verbose_name_plural": "API keys",
                        "ordering": ("-created",),
                        "abstract": False,
                        "db_table": "api_campaignapikey",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
