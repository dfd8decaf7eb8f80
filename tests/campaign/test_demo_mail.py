"""The demo logins have addresses, so `make run` shows their night reports (console mail)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from campaign.services.audit import Actor
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.demo import demo_campaign_load, demo_users_ensure
from campaign.services.night import night_phase_start
from campaign.services.night_report import night_reports_notify
from campaign.services.notifications import notification_mail
from campaign.services.operations import operation_run

pytestmark = pytest.mark.django_db


def test_every_demo_login_receives_its_night_report(django_capture_on_commit_callbacks):
    demo_users_ensure()
    campaign = demo_campaign_load()
    assert campaign is not None
    umpire = Actor(user=get_user_model().objects.get(username="umpire"), request_id="demo-night")
    with django_capture_on_commit_callbacks(execute=False):  # arrival rolls and the night: in process
        campaign_start(campaign.pk, umpire)
        day_dawn(campaign.pk, umpire)
        operation = night_phase_start(campaign.pk, umpire)
    with django_capture_on_commit_callbacks(execute=False):  # the notifying task, sent after the last commit
        operation_run(operation.pk)
    with django_capture_on_commit_callbacks(execute=False):  # the e-mails' tasks
        sent = night_reports_notify(operation.pk)  # as that task does, on the mail queue's worker
    for notification in sent:
        notification_mail(notification.pk)  # as each e-mail's task does

    received = {message.to[0]: message.body for message in mail.outbox}
    assert set(received) == {"umpire@club.example", "axis@club.example", "allied@club.example"}
    assert "Axis — night of day 1" in received["axis@club.example"]
    assert "Allied" not in received["axis@club.example"]
    assert "Axis — night of day 1" in received["umpire@club.example"]
    assert "Allied — night of day 1" in received["umpire@club.example"]


def test_demo_logins_loaded_before_they_had_addresses_get_them():
    demo_users_ensure()
    get_user_model().objects.filter(username="axis").update(email="")
    get_user_model().objects.filter(username="allied").update(email="allied@home.example")

    assert demo_users_ensure() == []

    emails = dict(get_user_model().objects.values_list("username", "email"))
    assert emails == {
        "umpire": "umpire@club.example",
        "axis": "axis@club.example",
        "allied": "allied@home.example",  # an address the club gave is kept
    }
