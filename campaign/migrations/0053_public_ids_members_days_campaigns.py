"""Memberships, invitations, days, day segments and campaigns get the public id the API names
them by (issue 28 point 7): every campaign's share one sequence, so an umpire reading members 3
and 9, or anybody reading day 1's id 40 and the campaign's id 7, counted other campaigns' rows.

PostgreSQL evaluates the column's default, gen_random_uuid(), for every row already there as
it adds the column. The events about such rows already recorded learn their object's public
id, so the timeline names them by it too.
"""

from django.contrib.postgres.functions import RandomUUID
from django.db import migrations, models

TABLES_BY_OBJECT_TYPE = {
    "Membership": "campaign_membership",
    "Invitation": "campaign_invitation",
    "CampaignDay": "campaign_campaignday",
    "DaySegmentRecord": "campaign_daysegmentrecord",
    "Campaign": "campaign_campaign",
}


def events_name_their_objects(object_type: str, table: str) -> migrations.RunSQL:
    return migrations.RunSQL(
        f"""
        UPDATE campaign_event AS event SET object_public_id = named.public_id
        FROM {table} AS named
        WHERE event.object_type = '{object_type}' AND event.object_id = named.id
        """,
        migrations.RunSQL.noop,
    )


def public_id_field() -> models.UUIDField:
    return models.UUIDField(db_default=RandomUUID(), editable=False, unique=True)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0052_event_verbs_journal_orders_due"),
    ]

    operations = [
        migrations.AddField(model_name="membership", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="invitation", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="campaignday", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="daysegmentrecord", name="public_id", field=public_id_field()),
        migrations.AddField(model_name="campaign", name="public_id", field=public_id_field()),
        *(events_name_their_objects(object_type, table) for object_type, table in TABLES_BY_OBJECT_TYPE.items()),
    ]
