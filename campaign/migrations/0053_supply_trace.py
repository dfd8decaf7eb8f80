"""The supply trace (issue 34): a night after a day that moved nothing reads the last night's
trace of the supply lines instead of tracing every battalion again.

Its validity is kept by PostgreSQL, not by the services: these triggers bump the campaign's
``SupplyTrace.map_changes`` in the transaction of every write the map's proposal depends on,
whatever wrote it (a service, the admin, a migration). Updates are row triggers whose WHEN names
the columns read, so the night's own updates (activation, supply situations, ammunition) fire
nothing; inserts and deletes are statement triggers on their transition tables. A battlegroup
only matters when it changes force; the sources of supply reach their campaign through their
sector.
"""

import django.db.models.deletion
from django.db import migrations, models

# PL/pgSQL plans a branch when it first runs it: a branch naming a column or transition table
# the trigger's table has not got is never planned (as in 0049).
FUNCTIONS = """
CREATE FUNCTION campaign_supply_map_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reach text := TG_ARGV[0];
BEGIN
  IF reach = 'campaign' AND TG_LEVEL = 'ROW' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (OLD.campaign_id, NEW.campaign_id);
  ELSIF reach = 'campaign' AND TG_OP = 'INSERT' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM new_rows);
  ELSIF reach = 'campaign' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM old_rows);
  ELSIF reach = 'force' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM campaign_force WHERE id IN (OLD.force_id, NEW.force_id));
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM campaign_sector WHERE id = NEW.sector_id);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM campaign_sector WHERE id = OLD.sector_id);
  ELSE
    UPDATE campaign_supplytrace SET map_changes = map_changes + 1
      WHERE campaign_id IN (SELECT campaign_id FROM campaign_sector WHERE id IN (OLD.sector_id, NEW.sector_id));
  END IF;
  RETURN NULL;
END $$;
"""

# The columns of each table the proposal reads (rows inserted or deleted always count).
READ = {
    "battalion": ("sector_id", "in_reserve", "side_id", "battlegroup_id", "code", "campaign_id"),
    "force": ("sector_id", "side_id", "campaign_id"),
    "sector": ("owner_id", "campaign_id"),
    "sectorlink": ("a_id", "b_id", "campaign_id"),
}


def _row_trigger(table: str, columns: tuple[str, ...], reach: str) -> str:
    changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in columns)
    return (
        f"CREATE TRIGGER campaign_{table}_supply_map AFTER UPDATE OF {', '.join(columns)} "
        f"ON campaign_{table} FOR EACH ROW WHEN ({changed}) "
        f"EXECUTE FUNCTION campaign_supply_map_changed('{reach}');\n"
    )


TRIGGERS = "".join(
    _row_trigger(table, columns, "campaign")
    + "".join(
        f"CREATE TRIGGER campaign_{table}_supply_map_{event.lower()} AFTER {event} ON campaign_{table} "
        f"REFERENCING {rows} FOR EACH STATEMENT EXECUTE FUNCTION campaign_supply_map_changed('campaign');\n"
        for event, rows in (("INSERT", "NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows"))
    )
    for table, columns in READ.items()
) + (
    _row_trigger("battlegroup", ("force_id",), "force")
    + "CREATE TRIGGER campaign_sector_supply_source_for_supply_map "
    "AFTER INSERT OR UPDATE OR DELETE ON campaign_sector_supply_source_for "
    "FOR EACH ROW EXECUTE FUNCTION campaign_supply_map_changed('sector');\n"
)
DROP = (
    "".join(
        f"DROP TRIGGER campaign_{table}_supply_map{suffix} ON campaign_{table};\n"
        for table in READ
        for suffix in ("", "_insert", "_delete")
    )
    + "DROP TRIGGER campaign_battlegroup_supply_map ON campaign_battlegroup;\n"
    "DROP TRIGGER campaign_sector_supply_source_for_supply_map ON campaign_sector_supply_source_for;\n"
    "DROP FUNCTION campaign_supply_map_changed();\n"
)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0052_event_verbs_journal_orders_due"),
    ]

    operations = [
        migrations.CreateModel(
            name="SupplyTrace",
            fields=[
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="supply_trace",
                        serialize=False,
                        to="campaign.campaign",
                    ),
                ),
                ("map_changes", models.BigIntegerField(default=0)),
                (
                    "traced_at",
                    models.BigIntegerField(help_text="map_changes when traced; empty: never", null=True),
                ),
                (
                    "settings",
                    models.JSONField(default=dict, help_text="the map-supply rule's club settings then"),
                ),
                (
                    "sides",
                    models.JSONField(
                        default=list,
                        help_text="[side id, battalions on the map], sides by their first battalion's code",
                    ),
                ),
                (
                    "cut_off",
                    models.JSONField(
                        default=list,
                        help_text="[battalion id, proposed situation] of those the map did not propose OK",
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="battalion",
            index=models.Index(
                condition=models.Q(
                    models.Q(("supply_situation", "OK"), _negated=True),
                    ("in_reserve", False),
                    ("sector__isnull", False),
                ),
                fields=["campaign"],
                name="battalion_on_map_not_ok",
            ),
        ),
        migrations.RunSQL(FUNCTIONS + TRIGGERS, DROP),
    ]
