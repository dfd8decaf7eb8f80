"""The night's set-based statements: updates that count each side's changed rows for its report,
and lookups that read only the rows they find."""

from __future__ import annotations

from typing import Any, cast

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet
from django.db.models.sql import UpdateQuery

from campaign import models
from campaign.choices import StandStatus
from rules_engine.vocab import SupplySituation

# What the replacements read of a battalion (its other fields load if read), in the model's
# order of fields, as ``Model.from_db`` takes them.
_LOST_OR_CUT_OFF_COLUMNS = tuple(
    field.attname
    for field in models.Battalion._meta.concrete_fields
    if field.attname
    in {"id", "code", "side_id", "quality", "in_reserve", "supply_situation", "wiped_out_day"}
)


def battalions_lost_or_cut_off(campaign_id: int) -> list[tuple[models.Battalion, int]]:
    """The battalions that lost stands or are cut off, in the campaign's order (by code), each
    with the number of its own stands alive (a stand attached from another unit is not the
    battalion's own, GB-B-34). Found through the stands' status index and the isolated
    battalions' index, never an OR that reads every battalion: an empty night reads nothing.
    ``= ANY(ARRAY(...))``, not ``IN``: the ids are found first and each row looked up by its key,
    where a join left the planner a merge join that reads the key's index from its start.
    Written in SQL: the ORM took longer to compile this query than the database takes for an
    empty night's whole bookkeeping (issue 34)."""
    quote = connection.ops.quote_name
    battalions, stands = quote(models.Battalion._meta.db_table), quote(models.Stand._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(f'battalion.{quote(column)}' for column in _LOST_OR_CUT_OFF_COLUMNS)}, "
            "count(stand.id) FILTER (WHERE stand.status <> %s AND NOT stand.attached) "
            f"FROM {battalions} battalion LEFT JOIN {stands} stand ON stand.battalion_id = battalion.id "
            "WHERE battalion.id = ANY(ARRAY("
            f"SELECT battalion_id FROM {stands} WHERE campaign_id = %s AND status = %s "
            f"UNION SELECT id FROM {battalions} WHERE campaign_id = %s AND supply_situation = %s"
            ")) GROUP BY battalion.id ORDER BY battalion.code",
            [
                StandStatus.DESTROYED,
                campaign_id,
                StandStatus.DESTROYED,
                campaign_id,
                SupplySituation.ISOLATED.value,
            ],
        )
        return [
            (models.Battalion.from_db(None, _LOST_OR_CUT_OFF_COLUMNS, row[:-1]), row[-1])
            for row in cursor.fetchall()
        ]


def per_side(counter: str, counts: dict[int, int]) -> dict[str, Any]:
    """A step's report part: one counter, each side's own."""
    return {"sides": {str(side_id): {counter: count} for side_id, count in counts.items()}}


def update_counted_per_side(
    queryset: QuerySet[Any], values: dict[str, Any], side_via: str | None = None
) -> dict[int, int]:
    """``queryset.update(**values)`` in one statement that also counts the changed rows of each
    side: rows that carry ``side_id``, or (``side_via``) a foreign key to a row that does.

    Django's UPDATE cannot return rows, so its SQL runs inside a data-modifying CTE: a side's
    report counts its own rows at no extra statement, whatever the number of sides.
    """
    query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
    query.add_update_values(values)
    try:
        update, params = query.get_compiler(queryset.db).as_sql()
    except EmptyResultSet:  # a filter no row can match (``__in=[]``): nothing to update
        return {}
    if side_via is None:
        changed = f"WITH changed AS ({update} RETURNING side_id) SELECT side_id, count(*) FROM changed"
    else:
        key = queryset.model._meta.get_field(side_via)
        assert key.related_model is not None
        owner = connection.ops.quote_name(key.related_model._meta.db_table)
        # Each owner is read by a subquery per owner changed, not a join, whose plan may read
        # every owner (the planner's choice: it did at 6 battalions): a night that changes
        # nothing reads no battalion, whatever the campaign's size.
        changed = (
            f"WITH changed AS ({update} RETURNING {connection.ops.quote_name(key.column)} AS owner_id), "
            "owners AS (SELECT owner_id, count(*) AS changed FROM changed GROUP BY owner_id) "
            f"SELECT (SELECT side_id FROM {owner} AS owner WHERE owner.id = owners.owner_id), "
            "sum(changed)::bigint FROM owners"
        )
    with connection.cursor() as cursor:
        cursor.execute(f"{changed} GROUP BY 1", params)
        return dict(cursor.fetchall())
