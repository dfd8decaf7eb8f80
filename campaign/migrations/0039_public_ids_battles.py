"""Battles get the public id the API names them by (issue 28 point 7): every campaign's
battles share one sequence, and in a campaign of three sides a player does not read the
battles the other two fight, so ids in sequence counted rows the reader never sees.

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there as
it adds the column. The events about battles already recorded learn their battle's public id,
so the API and webhooks name them by it too.
"""

from django.contrib.postgres.functions import RandomUUID
from django.db import migrations, models

EVENTS_NAME_THEIR_BATTLES = """
    UPDATE campaign_event AS event SET object_public_id = battle.public_id
    FROM campaign_battle AS battle
    WHERE event.object_type = 'Battle' AND event.object_id = battle.id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0038_event_verb_and_battle_type_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="public_id",
            field=models.UUIDField(db_default=RandomUUID(), editable=False, unique=True),
        ),
        migrations.RunSQL(EVENTS_NAME_THEIR_BATTLES, migrations.RunSQL.noop),
    ]
