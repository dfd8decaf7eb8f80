"""``/api/v1/``: the router's endpoints, the session, the schema and its documentation pages."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import views, views_admin, vocabulary
from api.permissions import CAMPAIGN_KWARG

app_name = "api"

CAMPAIGN = rf"campaigns/(?P<{CAMPAIGN_KWARG}>[-\w]+)"

router = DefaultRouter()
router.register("campaigns", views.CampaignViewSet, basename="campaign")
router.register(f"{CAMPAIGN}/sides", views.SideViewSet, basename="side")
router.register(
    rf"{CAMPAIGN}/sides/(?P<side_pk>[0-9]+)/activation-spends",
    views.ActivationSpendViewSet,
    basename="activation-spend",
)
router.register(f"{CAMPAIGN}/reinforcements", views.ReinforcementViewSet, basename="reinforcement")
router.register(f"{CAMPAIGN}/forces", views.ForceViewSet, basename="force")
router.register(f"{CAMPAIGN}/battalions", views.BattalionViewSet, basename="battalion")
router.register(f"{CAMPAIGN}/stands", views.StandViewSet, basename="stand")
router.register(f"{CAMPAIGN}/sectors", views.SectorViewSet, basename="sector")
router.register(f"{CAMPAIGN}/days", views.DayViewSet, basename="day")
router.register(f"{CAMPAIGN}/battles", views.BattleViewSet, basename="battle")
router.register(f"{CAMPAIGN}/operations", views.OperationViewSet, basename="operation")
router.register(f"{CAMPAIGN}/night-orders", views.NightOrderViewSet, basename="night-order")
router.register(f"{CAMPAIGN}/orders", views.SideOrderViewSet, basename="side-order")
router.register(f"{CAMPAIGN}/night-reports", views.NightReportViewSet, basename="night-report")
router.register(f"{CAMPAIGN}/rolls", views.RollViewSet, basename="roll")
router.register(f"{CAMPAIGN}/events", views.EventViewSet, basename="event")
router.register(f"{CAMPAIGN}/webhooks", views.WebhookViewSet, basename="webhook")
router.register(
    rf"{CAMPAIGN}/webhooks/(?P<{views.WEBHOOK_KWARG}>{views.PublicIdLookup.lookup_value_regex})/deliveries",
    views.WebhookDeliveryViewSet,
    basename="webhook-delivery",
)
router.register(f"{CAMPAIGN}/api-keys", views.APIKeyViewSet, basename="api-key")
router.register(f"{CAMPAIGN}/members", views_admin.MemberViewSet, basename="member")
router.register(f"{CAMPAIGN}/invitations", views_admin.InvitationViewSet, basename="invitation")
router.register("invitations", views_admin.InvitationLinkViewSet, basename="invitation-link")
router.register("notifications", views_admin.NotificationViewSet, basename="notification")
router.register("equipment", views.EquipmentViewSet, basename="equipment")
router.register("rules", views.RuleViewSet, basename="rule")

urlpatterns = [
    path("", include(router.urls)),
    path("session/", views.SessionView.as_view(), name="session"),
    path("vocabulary/", vocabulary.VocabularyView.as_view(), name="vocabulary"),
    path("calendar/<str:token>.ics", views_admin.calendar_feed, name="calendar-feed"),
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
