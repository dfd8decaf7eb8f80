"""Reference vehicles and trailed guns from the Great Battles weapon/armour chart.

Rows come from ``rules_engine.great_battles.equipment.equipment_rows()`` as
printed.  Generic rows (soft vehicles, generic AFVs) and the trailed-gun calibre
bands belong to no nation: their ``nation`` is blank.  Keys read
``<kind>/<nation or "any">/<name>`` in lower case, e.g. ``vehicle/german/pz-iv-f2-h``
or ``at-gun/any/34-44mm-2-pounder``; scenario packs name stand equipment by key.
"""

import re

from django.db import migrations

from rules_engine.great_battles.equipment import equipment_rows


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _key(row):
    nation = row.nation.value if row.nation else "any"
    return "/".join((_slug(row.kind.value), _slug(nation), _slug(row.name)))


# The chart's codes as printed, kept in Equipment.data.
DATA_FIELDS = ("codes", "gun", "armour", "speed", "heading", "year_text", "calibre_min_mm", "calibre_max_mm")


def equipment_load(apps, schema_editor):
    equipment = apps.get_model("campaign", "Equipment")
    rows = []
    for row in equipment_rows():
        printed = row.to_dict()
        rows.append(
            equipment(
                key=_key(row),
                nation=printed["nation"] or "",
                name=row.name,
                category=row.kind.value,
                year_from=row.first_year,
                year_to=None,
                data={name: printed[name] for name in DATA_FIELDS},
                source=row.source.text(),
            )
        )
    equipment.objects.bulk_create(rows)


def equipment_unload(apps, schema_editor):
    keys = [_key(row) for row in equipment_rows()]
    apps.get_model("campaign", "Equipment").objects.filter(key__in=keys).delete()


class Migration(migrations.Migration):
    dependencies = [("campaign", "0001_initial")]

    operations = [migrations.RunPython(equipment_load, equipment_unload)]
