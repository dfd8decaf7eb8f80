"""Sealed orders, activation spends and operations get the public id the API names them by
(issue 28): each reader sees only some of their rows, and ids in sequence counted the others.

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there as
it adds the column. The events about orders and operations already recorded learn their
object's public id, and an order's events lose the text that numbered it ("Order 12").
"""

from django.contrib.postgres.functions import RandomUUID
from django.db import migrations, models

EVENTS_NAME_THEIR_OBJECTS = [
    """
    UPDATE campaign_event AS event SET object_public_id = operation.public_id
    FROM campaign_operation AS operation
    WHERE event.object_type = 'Operation' AND event.object_id = operation.id
    """,
    """
    UPDATE campaign_event AS event
    SET object_public_id = side_order.public_id, object_repr = 'Order for day ' || side_order.day_number
    FROM campaign_sideorder AS side_order
    WHERE event.object_type = 'SideOrder' AND event.object_id = side_order.id
    """,
]


def public_id_field() -> models.UUIDField:
    return models.UUIDField(db_default=RandomUUID(), editable=False, unique=True)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0030_orders2_sideorder_deploy"),
    ]

    operations = [
        migrations.AddField(model_name="activationspend", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="operation", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="sideorder", name="public_id", field=public_id_field()),
        migrations.AddField(
            model_name="event", name="object_public_id", field=models.UUIDField(blank=True, null=True)
        ),
        *(migrations.RunSQL(sql, migrations.RunSQL.noop) for sql in EVENTS_NAME_THEIR_OBJECTS),
    ]
