"""Strict inputs (issue 33): an unknown body field or query parameter is a 400 naming it and
nothing is written; paging has one set of bounds on every list."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from api.contract import declared_query_parameters
from api.inputs import Input, QueryInput
from api.pagination import MAX_PAGE_SIZE
from campaign import models
from tests.api.world import Role, World

pytestmark = pytest.mark.django_db


def battle_body(world: World, **extra: Any) -> dict[str, Any]:
    return {
        "sector": world.sector("village").pk,
        "battle_type": "Local Attack",
        "attacker_id": world.axis.pk,
        "defender_id": world.allied.pk,
        "battalion_codes": ["A2", "L2"],
        **extra,
    }


def fields_of(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 400, response.content
    fields: dict[str, list[str]] = response.json()["error"]["fields"]
    return fields


def test_an_unknown_body_field_is_a_400_naming_it_and_nothing_is_made(world):
    before = (models.Battle.objects.count(), models.Event.objects.count())

    response = world.client(Role.UMPIRE).post(
        world.url("battle-list"), battle_body(world, colour="red"), format="json"
    )

    [message] = fields_of(response)["colour"]
    assert message.startswith(
        "is not a field of this input (it takes sector, sector_name, battle_type, attacker_id"
    )
    assert "colour" in response.json()["error"]["message"].lower()
    assert (models.Battle.objects.count(), models.Event.objects.count()) == before
    # The same body without it is made: the field was the only fault.
    made = world.client(Role.UMPIRE).post(world.url("battle-list"), battle_body(world), format="json")
    assert made.status_code == 201, made.content


def test_an_unknown_field_of_a_nested_input_is_named_by_its_path(world):
    report = {"battalions": [{"code": "A1", "destroyed": [], "colour": "red"}]}

    response = world.client(Role.UMPIRE).post(
        world.url("battle-report", pk=world.planned.public_id), report, format="json"
    )

    assert list(fields_of(response)) == ["battalions[0].colour"]
    assert models.Battle.objects.get(pk=world.planned.pk).status == world.planned.status


def test_every_input_is_strict():
    """Every input serializer in api.inputs derives from the strict base (a new one cannot forget)."""
    from api import inputs

    classes = [
        value
        for value in vars(inputs).values()
        if isinstance(value, type)
        and value.__module__ == inputs.__name__
        and value.__name__.endswith(("Input", "Query"))
    ]
    assert len(classes) > 40
    assert [c.__name__ for c in classes if not issubclass(c, Input | QueryInput)] == []
    # A query's inputs are checked against the document (api.contract), the body's by Input.
    assert [c.__name__ for c in classes if issubclass(c, QueryInput)] == [
        "QueryInput",
        "PaperFormatQuery",
        "PaperInput",
        "MapMomentQuery",
        "RuleQuery",
    ]


@pytest.mark.parametrize(
    ("route", "query", "unknown"),
    [
        ("event-list", {"page": "2"}, "page"),  # cursor-paged: page means nothing there
        ("force-list", {"sde": "1"}, "sde"),
        ("battle-detail", {"side": "1"}, "side"),  # filters are the list's, not a row's
    ],
)
def test_an_unknown_query_parameter_is_a_400_naming_it_and_what_it_takes(world, route, query, unknown):
    kwargs = {"pk": world.fought.public_id} if route.endswith("detail") else {}

    response = world.client(Role.UMPIRE).get(world.url(route, **kwargs), query)

    assert list(fields_of(response)) == [unknown]
    assert "is not a query parameter of this request" in fields_of(response)[unknown][0]


def test_declared_query_parameters_are_accepted(world):
    response = world.client(Role.UMPIRE).get(
        world.url("force-list"),
        {"side": world.axis.pk, "ordering": "-id", "page": 1, "page_size": 2, "format": "json"},
    )
    assert response.status_code == 200, response.content
    session = world.client(Role.UMPIRE).get(reverse("api:session"), {"campaign": "x"})
    assert list(fields_of(session)) == ["campaign"]


def test_the_check_reads_the_document_once_per_process():
    first = declared_query_parameters()
    assert declared_query_parameters() is first
    assert len(first) > 100  # every operation


@pytest.mark.parametrize("route", ["force-list", "stand-list", "event-list", "roll-list"])
@pytest.mark.parametrize("size", ["0", str(MAX_PAGE_SIZE + 1), "ten", "-1"])
def test_page_sizes_have_the_same_bounds_on_every_list(world, route, size):
    response = world.client(Role.UMPIRE).get(world.url(route), {"page_size": size})

    assert fields_of(response) == {
        "page_size": [f"must be a whole number from 1 to {MAX_PAGE_SIZE}, not {size!r}"]
    }


def test_a_page_past_the_last_is_a_400_naming_page_and_the_last(world):
    client = world.client(Role.UMPIRE)
    forces = client.get(world.url("force-list"), {"page_size": 2}).json()
    last = -(-forces["count"] // 2)

    assert client.get(world.url("force-list"), {"page_size": 2, "page": last}).status_code == 200
    past = client.get(world.url("force-list"), {"page_size": 2, "page": last + 1})
    nonsense = client.get(world.url("force-list"), {"page": "abc"})

    assert fields_of(past) == {"page": [f"must be a page from 1 to {last}, not '{last + 1}'"]}
    assert list(fields_of(nonsense)) == ["page"]


SET_UP = {"inputs": {"n43.setup_proximity": {"terrain": "Open Terrain"}}}


def test_a_report_names_stands_by_label_or_id_and_a_wrong_one_lists_the_labels(world):
    umpire = world.client(Role.UMPIRE)
    assert (
        umpire.post(world.url("battle-set-up", pk=world.planned.public_id), SET_UP, format="json").status_code
        == 200
    )
    a1 = world.battalion("A1")
    labels = list(a1.stands.order_by("label").values_list("label", flat=True))
    by_id, by_label = a1.stands.exclude(status="destroyed").order_by("label")[:2]
    url = world.url("battle-report", pk=world.planned.public_id)

    wrong = umpire.post(url, {"battalions": [{"code": "A1", "destroyed": ["nine"]}]}, format="json")
    assert fields_of(wrong) == {
        "battalions[0].destroyed[0]": [
            "Stand nine is not in battalion A1: name a stand by its label or id "
            f"(its labels: {', '.join(labels)})."
        ]
    }

    report = {
        "battalions": [{"code": "A1", "destroyed": [str(by_id.public_id)], "suppressed": [by_label.label]}]
    }
    reported = umpire.post(url, report, format="json")

    assert reported.status_code == 200, reported.content
    by_id.refresh_from_db()
    by_label.refresh_from_db()
    assert (by_id.status, by_label.status) == ("destroyed", "suppressed")
