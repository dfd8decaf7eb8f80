"""The night's set-based statements: updates that count each side's changed rows for its report,
and lookups that read only the rows they find."""

from __future__ import annotations

from typing import Any, cast

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import BooleanField, Func, QuerySet, Subquery
from django.db.models.sql import UpdateQuery


class AnyOf(Func):
    """``filter(AnyOf("pk", ids))``: ``pk = ANY(ARRAY(ids))``, the ids (a query) found first and
    each row looked up through the key's index. ``pk__in=ids`` leaves the planner a join, and a
    merge join reads the key's index from its start whatever the ids (issue 34: rows an empty
    night read)."""

    # "pk" and the subquery, which compiles as "(SELECT ...)": pk = ANY(ARRAY(SELECT ...))
    arg_joiner = " = ANY(ARRAY"
    template = "%(expressions)s)"
    output_field = BooleanField()

    def __init__(self, column: str, ids: QuerySet[Any]) -> None:
        super().__init__(column, Subquery(ids))


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
