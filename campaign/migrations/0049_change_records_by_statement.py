"""Change records written once per statement, not once per row (issue 34).

0046's row triggers wrote, for every stand a statement touched, the stand, its battalion and its
force, each by its own insert: a night that rewrites 130,000 stands of a large campaign made
390,000 inserts one row at a time. These statement triggers read the statement's transition
tables and write each row once, and each battalion and force once a statement. PostgreSQL
allows transition tables on a trigger of one event only: three triggers a table. PL/pgSQL plans
a statement when it first runs it, once for each table, so a branch naming a transition table
the trigger has not got is never planned.
"""

import importlib

from django.db import migrations

previous = importlib.import_module("campaign.migrations.0046_sync_changes")

FUNCTIONS = """
CREATE OR REPLACE FUNCTION campaign_changes_battalions(battalions bigint[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO campaign_changerecord (campaign_id, kind, row_id)
    SELECT b.campaign_id, 'battalion', b.id FROM campaign_battalion b WHERE b.id = ANY(battalions);
  INSERT INTO campaign_changerecord (campaign_id, kind, row_id)
    SELECT DISTINCT b.campaign_id, 'force', g.force_id FROM campaign_battalion b
    JOIN campaign_battlegroup g ON g.id = b.battlegroup_id WHERE b.id = ANY(battalions);
$$;
CREATE OR REPLACE FUNCTION campaign_changes_forces(battlegroups bigint[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO campaign_changerecord (campaign_id, kind, row_id)
    SELECT DISTINCT f.campaign_id, 'force', f.id FROM campaign_battlegroup g
    JOIN campaign_force f ON f.id = g.force_id WHERE g.id = ANY(battlegroups);
$$;
CREATE OR REPLACE FUNCTION campaign_changes_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  list_kind text := TG_ARGV[0];
BEGIN
  -- A stand shows in its battalion and force, a battalion in its force: the ones it is in, and
  -- those it left.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_changerecord (campaign_id, kind, row_id) SELECT campaign_id, list_kind, id FROM new_rows;
    IF list_kind = 'stand' THEN
      PERFORM campaign_changes_battalions(ARRAY(SELECT DISTINCT battalion_id FROM new_rows));
    ELSIF list_kind = 'battalion' THEN
      PERFORM campaign_changes_forces(ARRAY(SELECT DISTINCT battlegroup_id FROM new_rows));
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_changerecord (campaign_id, kind, row_id) SELECT campaign_id, list_kind, id FROM new_rows;
    IF list_kind = 'stand' THEN
      PERFORM campaign_changes_battalions(
        ARRAY(SELECT battalion_id FROM new_rows UNION SELECT battalion_id FROM old_rows));
    ELSIF list_kind = 'battalion' THEN
      PERFORM campaign_changes_forces(
        ARRAY(SELECT battlegroup_id FROM new_rows UNION SELECT battlegroup_id FROM old_rows));
    END IF;
  ELSE
    INSERT INTO campaign_changerecord (campaign_id, kind, row_id) SELECT campaign_id, list_kind, id FROM old_rows;
    IF list_kind = 'stand' THEN
      PERFORM campaign_changes_battalions(ARRAY(SELECT DISTINCT battalion_id FROM old_rows));
    ELSIF list_kind = 'battalion' THEN
      PERFORM campaign_changes_forces(ARRAY(SELECT DISTINCT battlegroup_id FROM old_rows));
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION campaign_changes_battle_battalions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A battle shows its battalions: joining or leaving one is a change of the battle.
  IF TG_OP = 'DELETE' THEN
    INSERT INTO campaign_changerecord (campaign_id, kind, row_id)
      SELECT DISTINCT b.campaign_id, 'battle', b.id FROM campaign_battle b JOIN old_rows r ON r.battle_id = b.id;
  ELSE
    INSERT INTO campaign_changerecord (campaign_id, kind, row_id)
      SELECT DISTINCT b.campaign_id, 'battle', b.id FROM campaign_battle b JOIN new_rows r ON r.battle_id = b.id;
  END IF;
  RETURN NULL;
END $$;
"""

EVENTS = {
    "inserted": ("INSERT", "NEW TABLE AS new_rows"),
    "updated": ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
    "deleted": ("DELETE", "OLD TABLE AS old_rows"),
}
TABLES = {**{kind: f"campaign_changes_record('{kind}')" for kind in previous.TABLES}}
TABLES["battle_battalions"] = "campaign_changes_battle_battalions()"
TRIGGERS = "".join(
    f"CREATE TRIGGER campaign_{table}_{name} AFTER {event} ON campaign_{table} "
    f"REFERENCING {tables} FOR EACH STATEMENT EXECUTE FUNCTION {function};\n"
    for table, function in TABLES.items()
    for name, (event, tables) in EVENTS.items()
)
DROP = "".join(
    f"DROP TRIGGER campaign_{table}_{name} ON campaign_{table};\n" for table in TABLES for name in EVENTS
)
DROP_FUNCTIONS = (
    "DROP FUNCTION campaign_changes_record(); DROP FUNCTION campaign_changes_battle_battalions();"
    " DROP FUNCTION campaign_changes_battalions(bigint[]); DROP FUNCTION campaign_changes_forces(bigint[]);"
)

PREVIOUS_FUNCTIONS_DROP = (
    "DROP FUNCTION campaign_change_record(); DROP FUNCTION campaign_change_battle_battalions();"
    " DROP FUNCTION campaign_change_battalion(bigint, bigint);"
)


class Migration(migrations.Migration):
    dependencies = [("campaign", "0047_map_snapshots")]

    operations = [
        migrations.RunSQL(
            previous.DROP + PREVIOUS_FUNCTIONS_DROP + FUNCTIONS + TRIGGERS,
            DROP + DROP_FUNCTIONS + previous.FUNCTION + previous.TRIGGERS,
        )
    ]
