"""``GET /api/v1/vocabulary/``: every enum of campaign.choices, its codes and their labels."""

from __future__ import annotations

from django.urls import reverse
from rest_framework.test import APIClient

from api.vocabulary import domain_enums
from campaign import choices
from campaign.services.night_words import COUNTER_WORDS
from campaign.services.orders import PAYLOAD_FIELDS


def _read(client: APIClient, **headers: str):
    return client.get(reverse("api:vocabulary"), headers=headers)


def _written_as_words(code: str) -> bool:
    """A code people can read as it is ("German", "OK"): its label may be the code itself."""
    return code[:1].isupper() and not any(mark in code for mark in "_.")


def test_every_enum_of_the_domain_is_listed_with_its_labels_for_anyone():
    answer = _read(APIClient())

    assert answer.status_code == 200
    lists = answer.json()["lists"]
    enums = domain_enums()
    assert len(enums) > 30
    listed = {tuple((term["value"], term["label"]) for term in terms) for terms in lists.values()}
    for name, enum in enums.items():
        assert tuple((str(code), str(label)) for code, label in enum.choices) in listed, name
    for name in (name for name in vars(choices) if name.endswith("_CHOICES")):
        assert tuple((str(c), str(label)) for c, label in getattr(choices, name)) in listed, name
    for name, terms in lists.items():
        for term in terms:
            assert term["label"], (name, term)
            assert term["label"] != term["value"] or _written_as_words(term["value"]), (name, term)


def test_the_words_of_inputs_are_there():
    """Roles, webhook events, battle types, night counters: what the web app once spelled."""
    lists = _read(APIClient()).json()["lists"]

    assert {"value": "umpire", "label": "Umpire"} in lists["member_role"]
    assert {"value": "night.done", "label": "Night phase done"} in lists["webhook_event"]
    assert {"value": "Meeting Engagement", "label": "Meeting engagement"} in lists["battle_type"]
    assert [term["value"] for term in lists["night_counter"]] == list(COUNTER_WORDS)


def test_each_order_kind_lists_the_fields_its_payload_takes():
    order_fields = _read(APIClient()).json()["order_fields"]

    assert {kind: [field["name"] for field in fields] for kind, fields in order_fields.items()} == {
        str(kind): list(fields) for kind, fields in PAYLOAD_FIELDS.items()
    }
    mode = next(field for field in order_fields["artillery"] if field["name"] == "mode")
    assert mode == {
        "name": "mode",
        "label": "Mode",
        "type": "string",
        "required": True,
        "choices": "artillery_mode",
    }


def test_an_unchanged_vocabulary_is_not_sent_again():
    client = APIClient()
    etag = _read(client)["ETag"]

    again = _read(client, **{"If-None-Match": etag})

    assert again.status_code == 304
    assert not again.content
