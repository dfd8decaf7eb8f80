"""Battalions, their stands, battlegroups and forces, night orders and artillery orders get the
public id the API names them by (issue 28 point 7): the fog of war hides the enemy's
battalions, stands and forces, and a side reads its own orders only, so ids in sequence
counted the rows hidden in between (own battalions 16, 17, 18 and enemy 20, 22: one hidden).

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there as
it adds the column. The events about these rows already recorded learn their object's public
id, so the API and webhooks name them by it too.
"""

from django.contrib.postgres.functions import RandomUUID
from django.db import migrations, models

NAMED_BY_PUBLIC_ID = {
    "ArtilleryOrder": "campaign_artilleryorder",
    "Battalion": "campaign_battalion",
    "Battlegroup": "campaign_battlegroup",
    "Force": "campaign_force",
    "NightOrder": "campaign_nightorder",
    "Stand": "campaign_stand",
}

EVENTS_NAME_THEIR_OBJECTS = [
    f"""
    UPDATE campaign_event AS event SET object_public_id = subject.public_id
    FROM {table} AS subject
    WHERE event.object_type = '{object_type}' AND event.object_id = subject.id
    """
    for object_type, table in NAMED_BY_PUBLIC_ID.items()
]


def public_id_field() -> models.UUIDField:
    return models.UUIDField(db_default=RandomUUID(), editable=False, unique=True)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0034_notification_kinds_for_umpires"),
    ]

    operations = [
        *(
            migrations.AddField(model_name=table.removeprefix("campaign_"), name="public_id", field=public_id_field())
            for table in NAMED_BY_PUBLIC_ID.values()
        ),
        *(migrations.RunSQL(sql, migrations.RunSQL.noop) for sql in EVENTS_NAME_THEIR_OBJECTS),
    ]
