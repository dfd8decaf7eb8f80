from django.contrib import admin
from django.urls import include, path, re_path

from api.health import healthz
from api.spa import SPA_ROUTE, spa_index

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    re_path(SPA_ROUTE, spa_index, name="spa"),  # last: every other path is the web app's
]

# Under /api/ unknown URLs and crashes outside a view answer in the API's error shape.
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
