"""The printable papers: a side's day briefing and battle packet as PDF, fog-filtered as the API is.

Read back by extracting their text (pypdf), and rendered to PNG (pypdfium2) into the browser
tests' artifacts, to look at."""

from __future__ import annotations

import io
import re
from html import unescape

import pypdf
import pypdfium2
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.text import slugify

from campaign import models
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.demo import SECTOR, malta_day_one

pytestmark = pytest.mark.django_db

# The Axis lets the Allies identify G1 but hides its strength; the Allies show W1 in full.
AXIS_FOG = {"identified_units": ["G1"], "battle_results": True, "strengths": False}
ALLIED_FOG = {"identified_units": ["W1"], "battle_results": True, "strengths": True}


@pytest.fixture
def campaign() -> models.Campaign:
    campaign = malta_day_one()
    models.Side.objects.filter(campaign=campaign, is_axis=True).update(fog_of_war=AXIS_FOG)
    models.Side.objects.filter(campaign=campaign, is_axis=False).update(fog_of_war=ALLIED_FOG)
    return campaign


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def pdf_text(content: bytes, artifact: str) -> str:
    """The PDF's text, whitespace made single spaces; its pages saved as PNG artifacts."""
    ARTIFACTS.mkdir(exist_ok=True)
    document = pypdfium2.PdfDocument(content)
    for number, page in enumerate(document, start=1):
        page.render(scale=1.5).to_pil().save(ARTIFACTS / f"paper-{artifact}-{number:02d}.png")
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)
    return re.sub(r"\s+", " ", text)


def printed(client: Client, url: str, artifact: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('inline; filename="malta-1942-')
    return pdf_text(response.content, artifact)


def stand_labels(campaign: models.Campaign, code: str) -> set[str]:
    """``code``'s stand labels that no battalion of the other side has (so a hit is this one's)."""
    battalion = models.Battalion.objects.get(campaign=campaign, code=code)
    others = models.Stand.objects.filter(campaign=campaign).exclude(battalion__side_id=battalion.side_id)
    labels = set(battalion.stands.values_list("label", flat=True))
    labels -= set(others.values_list("label", flat=True))
    assert labels, f"every stand label of {code} is also the enemy's: the test could not fail"
    return labels


def mentions(text: str, label: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text) is not None


def test_the_battle_packets_show_the_enemys_strength_only_as_its_fog_allows(campaign: models.Campaign):
    battle = models.Battle.objects.get(campaign=campaign, sector__name=SECTOR)
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    url = f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/packet/?side="
    g1_labels, w1_labels = stand_labels(campaign, "G1"), stand_labels(campaign, "W1")

    allied_packet = printed(signed_in("allied"), f"{url}{allied.pk}", "packet-allied")
    axis_packet = printed(signed_in("axis"), f"{url}{axis.pk}", "packet-axis")
    umpires_allied_packet = printed(signed_in("umpire"), f"{url}{allied.pk}", "packet-allied-by-umpire")

    for packet in (allied_packet, umpires_allied_packet):
        assert "G1" in packet
        assert "Strength hidden by the enemy's fog of war" in packet
        assert not {label for label in g1_labels if mentions(packet, label)}
        assert w1_labels == {label for label in w1_labels if mentions(packet, label)}
        assert f"battle at {SECTOR}" in packet
    # The Axis sees its own stands, and W1's, whose side reveals strengths.
    assert g1_labels == {label for label in g1_labels if mentions(axis_packet, label)}
    assert w1_labels == {label for label in w1_labels if mentions(axis_packet, label)}
    assert "Strength hidden" not in axis_packet
    # Issue 30: the Allies read their own planned and support fire, though the Axis strength
    # they multiply is hidden; only the field strength, which counts it, stays hidden.
    planned = battle.setup[f"n43.planned_fire@{allied.name}"]["outcome"]
    assert f"{planned} barrage" in allied_packet
    assert allied_packet.count("it counts enemy stands you do not see") == 1
    day = campaign.days.get(number=1)
    for packet in (allied_packet, axis_packet):
        assert "Set-up results" in packet
        assert "No set-up rolls yet" not in packet
        assert day.get_weather_display() in packet
        assert "Morning" in packet  # the segment, by its label
        assert "Barrage rounds" in packet
        assert "Activation points" in packet


def test_the_day_briefings_show_the_enemys_strength_only_as_its_fog_allows(campaign: models.Campaign):
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    url = f"/api/v1/campaigns/{campaign.slug}/days/1/briefing/?side="
    g1_labels = stand_labels(campaign, "G1")
    axis_reserve = models.Battalion.objects.filter(side=axis, in_reserve=True).values_list("code", flat=True)

    allied_briefing = printed(signed_in("allied"), f"{url}{allied.pk}", "briefing-allied")
    axis_briefing = printed(signed_in("umpire"), f"{url}{axis.pk}", "briefing-axis-by-umpire")

    assert "briefing for day 1" in allied_briefing
    assert "G1" in allied_briefing
    assert "Strength hidden by the enemy's fog of war" in allied_briefing
    assert not {label for label in g1_labels if mentions(allied_briefing, label)}
    assert not {code for code in axis_reserve if mentions(allied_briefing, code)}
    assert g1_labels == {label for label in g1_labels if mentions(axis_briefing, label)}
    assert f"{SECTOR}:" in axis_briefing
    assert f"{SECTOR}:" in allied_briefing
    # The victory conditions and each side's standing: public, the same on both sides' papers.
    for briefing in (allied_briefing, axis_briefing):
        assert "Victory, as the map stands now" in briefing
        assert "Malta falls: the Axis holds Valletta and the Grand Harbour" in briefing
        assert "Axis holds 0 of 2 sectors; not Valletta, Grand Harbour." in briefing
        assert "the night of day 6 ends the campaign" in briefing


def test_a_player_prints_only_their_own_sides_papers(campaign: models.Campaign):
    battle = models.Battle.objects.get(campaign=campaign, sector__name=SECTOR)
    axis = campaign.sides.get(is_axis=True)
    allied = signed_in("allied")

    briefing = allied.get(f"/api/v1/campaigns/{campaign.slug}/days/1/briefing/?side={axis.pk}")
    packet = allied.get(
        f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/packet/?side={axis.pk}"
    )
    no_side = allied.get(f"/api/v1/campaigns/{campaign.slug}/days/1/briefing/")
    no_day = signed_in("umpire").get(f"/api/v1/campaigns/{campaign.slug}/days/9/briefing/?side={axis.pk}")

    assert briefing.status_code == packet.status_code == 403
    refusal = "Only the umpires and the side's own players may print its papers."
    assert briefing.json()["error"]["message"] == refusal
    assert no_side.status_code == 400
    assert "side" in no_side.json()["error"]["fields"]
    assert no_day.status_code == 404


def page_text(html: str) -> str:
    """A web page's text as a reader sees it: no markup, no style sheet, single spaces."""
    body = html.split("</style>", 1)[1]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def test_a_paper_as_a_web_page_is_its_pdf_with_the_same_fog(campaign: models.Campaign):
    battle = models.Battle.objects.get(campaign=campaign, sector__name=SECTOR)
    allied_side = campaign.sides.get(is_axis=False)
    allied = signed_in("allied")
    url = f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/packet/?side={allied_side.pk}"

    pdf = printed(allied, f"{url}&output=pdf", "packet-allied-as-pdf")
    response = allied.get(f"{url}&output=html")
    refused = allied.get(f"{url}&output=docx")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    named = f"malta-1942-battle-{slugify(battle.sector.name)}-day-{battle.day.number}-packet-allied"
    assert response["Content-Disposition"] == f'inline; filename="{named}.html"'
    page = page_text(response.content.decode())
    assert "Strength hidden by the enemy's fog of war" in page
    assert not {label for label in stand_labels(campaign, "G1") if mentions(page, label)}
    # Every word of the PDF is the page's, but for the page numbers laid out around it.
    words = set(re.findall(r"\w+", page))
    assert set(re.findall(r"\w+", pdf)) - words <= {"page", "of", *map(str, range(1, 10))}
    assert refused.status_code == 400
    assert "output" in refused.json()["error"]["fields"]


def test_the_api_offers_each_reader_the_papers_they_may_print_as_links_in_words(campaign: models.Campaign):
    """The web app shows these links as given: which papers, their words and addresses are the API's."""
    battle = models.Battle.objects.get(campaign=campaign, sector__name=SECTOR)
    observer = get_user_model().objects.create_user("onlooker")
    models.Membership.objects.create(campaign=campaign, user=observer, role="observer")
    summary = f"/api/v1/campaigns/{campaign.slug}/"
    detail = f"{summary}battles/{battle.public_id}/"
    offered = {}
    for reader in ("umpire", "allied", "onlooker"):
        client = signed_in(reader)
        battle_read = client.get(detail)  # an observer sees no battle until it is reported
        papers = client.get(summary).json()["papers"] + battle_read.json().get("papers", [])
        offered[reader] = [paper["title"] for paper in papers]
        for paper in papers:  # each link prints (as its web page: the PDF's layout is tested above)
            as_page = f"{paper['url']}{'&' if '?' in paper['url'] else '?'}output=html"
            assert client.get(as_page).status_code == 200

    chronicle = "The chronicle so far (PDF)"
    assert offered["umpire"] == [
        "Axis's briefing for day 1 (PDF)",
        "Allied's briefing for day 1 (PDF)",
        chronicle,
        "Axis's battle packet (PDF)",
        "Allied's battle packet (PDF)",
    ]
    assert offered["allied"] == [
        "Allied's briefing for day 1 (PDF)",
        chronicle,
        "Allied's battle packet (PDF)",
    ]
    assert offered["onlooker"] == [chronicle]
