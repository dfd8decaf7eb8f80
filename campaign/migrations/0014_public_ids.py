"""Rolls, events and reports get the public id the API names them by (rules notes C-14).

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there
as it adds the column: that is the data fill; new rows get theirs as they are inserted.
"""

import django.contrib.postgres.functions
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0013_campaign_api_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="public_id",
            field=models.UUIDField(
                db_default=django.contrib.postgres.functions.RandomUUID(), editable=False, unique=True
            ),
        ),
        migrations.AddField(
            model_name="nightreport",
            name="public_id",
            field=models.UUIDField(
                db_default=django.contrib.postgres.functions.RandomUUID(), editable=False, unique=True
            ),
        ),
        migrations.AddField(
            model_name="rollrecord",
            name="public_id",
            field=models.UUIDField(
                db_default=django.contrib.postgres.functions.RandomUUID(), editable=False, unique=True
            ),
        ),
    ]
