from django.contrib import admin
from django.urls import include, path, re_path

from api.health import healthz
from api.spa import SPA_ROUTE, spa_index

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The browsable API's log-in and log-out pages: DRF's templates reverse them as
    # "rest_framework:login", a namespace of its own, never nested under the API's.
    path("api/v1/auth/", include("rest_framework.urls")),
    path("api/v1/", include("api.urls")),
    re_path(SPA_ROUTE, spa_index, name="spa"),  # last: every other path is the web app's
]

# Under /api/ unknown URLs and crashes outside a view answer in the API's error shape.
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
