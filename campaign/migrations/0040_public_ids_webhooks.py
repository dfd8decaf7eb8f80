"""Webhook subscriptions and their deliveries get the public id the API names them by (issue
28 point 7): every campaign's share one sequence, so an umpire reading subscription 3, then 9,
and a receiver reading X-Campaign-Delivery 120, then 164, counted other campaigns' rows.

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there as
it adds the column. The events about subscriptions already recorded learn their object's
public id, so the timeline names them by it too.
"""

from django.contrib.postgres.functions import RandomUUID
from django.db import migrations, models

EVENTS_NAME_THEIR_SUBSCRIPTIONS = """
    UPDATE campaign_event AS event SET object_public_id = subscription.public_id
    FROM campaign_webhooksubscription AS subscription
    WHERE event.object_type = 'WebhookSubscription' AND event.object_id = subscription.id
"""


def public_id_field() -> models.UUIDField:
    return models.UUIDField(db_default=RandomUUID(), editable=False, unique=True)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0039_public_ids_battles"),
    ]

    operations = [
        migrations.AddField(model_name="webhooksubscription", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="webhookdelivery", name="public_id", field=public_id_field()),
        migrations.RunSQL(EVENTS_NAME_THEIR_SUBSCRIPTIONS, migrations.RunSQL.noop),
    ]
