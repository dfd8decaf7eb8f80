"""``/api/v1/``: the router's endpoints, the session, the schema and its documentation pages."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import vocabulary
from api.permissions import CAMPAIGN_KWARG
from api.views import (
    api_keys,
    base,
    battles,
    campaigns,
    club,
    days,
    events,
    forces,
    night,
    notifications,
    orders,
    reference,
    rolls,
    sectors,
    session,
    webhooks,
)

app_name = "api"

CAMPAIGN = rf"campaigns/(?P<{CAMPAIGN_KWARG}>[-\w]+)"


class Router(DefaultRouter):
    # No ``.json``-suffixed twin of every route: ``?format=`` picks a format, and each twin was one
    # more pattern every request tried before its own (the poll's resolution took twice as long).
    include_format_suffixes = False


router = Router()
router.register("campaigns", campaigns.CampaignViewSet, basename="campaign")
router.register(f"{CAMPAIGN}/sides", forces.SideViewSet, basename="side")
router.register(
    rf"{CAMPAIGN}/sides/(?P<side_pk>[0-9]+)/activation-spends",
    days.ActivationSpendViewSet,
    basename="activation-spend",
)
router.register(f"{CAMPAIGN}/reinforcements", forces.ReinforcementViewSet, basename="reinforcement")
router.register(f"{CAMPAIGN}/forces", forces.ForceViewSet, basename="force")
router.register(f"{CAMPAIGN}/battalions", forces.BattalionViewSet, basename="battalion")
router.register(f"{CAMPAIGN}/stands", forces.StandViewSet, basename="stand")
router.register(f"{CAMPAIGN}/sectors", sectors.SectorViewSet, basename="sector")
router.register(f"{CAMPAIGN}/days", days.DayViewSet, basename="day")
router.register(f"{CAMPAIGN}/battles", battles.BattleViewSet, basename="battle")
router.register(f"{CAMPAIGN}/operations", night.OperationViewSet, basename="operation")
router.register(f"{CAMPAIGN}/night-orders", orders.NightOrderViewSet, basename="night-order")
router.register(f"{CAMPAIGN}/orders", orders.SideOrderViewSet, basename="side-order")
router.register(f"{CAMPAIGN}/night-reports", night.NightReportViewSet, basename="night-report")
router.register(f"{CAMPAIGN}/rolls", rolls.RollViewSet, basename="roll")
router.register(f"{CAMPAIGN}/events", events.EventViewSet, basename="event")
router.register(f"{CAMPAIGN}/webhooks", webhooks.WebhookViewSet, basename="webhook")
router.register(
    rf"{CAMPAIGN}/webhooks/(?P<{webhooks.WEBHOOK_KWARG}>{base.PublicIdLookup.lookup_value_regex})/deliveries",
    webhooks.WebhookDeliveryViewSet,
    basename="webhook-delivery",
)
router.register(f"{CAMPAIGN}/api-keys", api_keys.APIKeyViewSet, basename="api-key")
router.register(f"{CAMPAIGN}/members", club.MemberViewSet, basename="member")
router.register(f"{CAMPAIGN}/invitations", club.InvitationViewSet, basename="invitation")
router.register("invitations", club.InvitationLinkViewSet, basename="invitation-link")
router.register("notifications", notifications.NotificationViewSet, basename="notification")
router.register("equipment", reference.EquipmentViewSet, basename="equipment")
router.register("rules", reference.RuleViewSet, basename="rule")

urlpatterns = [
    path("", include(router.urls)),
    path("session/", session.SessionView.as_view(), name="session"),
    path("vocabulary/", vocabulary.VocabularyView.as_view(), name="vocabulary"),
    path("calendar/<str:token>.ics", club.calendar_feed, name="calendar-feed"),
    # The document and its pages follow settings.SPECTACULAR_SETTINGS, as `manage.py spectacular`
    # does; the pages' JavaScript is served from drf-spectacular-sidecar, never a CDN.
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="swagger-ui"),
    path(
        "redoc/",
        SpectacularRedocView.as_view(url_name="api:schema", template_name="api/redoc.html"),
        name="redoc",
    ),
]
