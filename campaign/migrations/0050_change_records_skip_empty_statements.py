"""A statement that changed no row records no change and reads nothing (issue 34).

0049's statement triggers fire for every UPDATE, also one that matched no row (an empty night's
flip of suppressed stands), and then still ran their inserts and the battalions' and forces'
lookups for an empty list of ids: planned once for any list, such a lookup may read every
battalion (it read 6 of 6 in a small campaign, through a join the planner chose). A statement
whose transition table is empty now returns before any of it. (A branch naming a transition
table the trigger has not got is never planned, as in 0049.)
"""

import importlib

from django.db import migrations

previous = importlib.import_module("campaign.migrations.0049_change_records_by_statement")

BODY_START = "BEGIN\n  -- A stand shows in its battalion and force"
GUARD = """BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT FROM old_rows) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT FROM new_rows) THEN
    RETURN NULL;
  END IF;
  -- A stand shows in its battalion and force"""
assert BODY_START in previous.FUNCTIONS  # campaign_changes_record's body, which this changes
FUNCTIONS = previous.FUNCTIONS.replace(BODY_START, GUARD, 1)


class Migration(migrations.Migration):
    dependencies = [("campaign", "0045_day_journal")]

    operations = [migrations.RunSQL(FUNCTIONS, previous.FUNCTIONS)]
