"""The roll log and timeline as the web app reads them: newest first, and filtered by names."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaign import access, models, selectors
from campaign.choices import Visibility
from tests.e2e.demo import malta_day_one

pytestmark = pytest.mark.django_db


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.mark.parametrize("log", ["rolls", "events"])
def test_newest_first_pages_the_same_rows_backwards(log: str):
    campaign = malta_day_one()
    client = signed_in("umpire")
    url = f"/api/v1/campaigns/{campaign.slug}/{log}/?page_size=3"

    oldest = client.get(f"{url}&page_size=500").json()["results"]
    newest, page = [], client.get(f"{url}&order=newest").json()
    while True:
        newest += page["results"]
        if not page["next"]:
            break
        page = client.get(page["next"]).json()

    assert len(oldest) > 3
    assert [row["id"] for row in newest] == [row["id"] for row in reversed(oldest)]
    refused = client.get(f"{url}&order=sideways")
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"] == {"order": ["must be oldest or newest, not 'sideways'"]}


def test_the_procedure_choices_are_those_of_the_rolls_the_reader_reads():
    campaign = malta_day_one()
    url = f"/api/v1/campaigns/{campaign.slug}/rolls/procedures/"
    allied = campaign.sides.get(is_axis=False)
    allied_view = access.CampaignAccess.of_side(campaign, allied.pk)
    umpires_only = set(
        models.RollRecord.objects.filter(campaign=campaign, visibility=Visibility.UMPIRE)
        .exclude(procedure__in=selectors.rolls(allied_view).values("procedure"))
        .values_list("procedure", flat=True)
    )

    umpire = signed_in("umpire").get(url).json()
    player = signed_in("allied").get(url).json()

    assert {"procedure": "gb.weather", "title": "Dawn weather"} in umpire
    assert {entry["procedure"] for entry in player} == set(
        selectors.rolls(allied_view).values_list("procedure", flat=True)
    )
    assert not umpires_only & {entry["procedure"] for entry in player}
    assert [entry["procedure"] for entry in umpire] == sorted(entry["procedure"] for entry in umpire)
