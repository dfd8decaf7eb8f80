from django.contrib import admin
from django.urls import include, path

from api.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
]

# Under /api/ unknown URLs and crashes outside a view answer in the API's error shape.
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
