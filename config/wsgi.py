import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()

# Only web processes load this module (not workers, beat or commands): build the API contract's
# parameter table now (about a second: the OpenAPI document's generation) rather than in a
# process's first request; under gunicorn's --preload the workers fork with it built.
from api.contract import declared_query_parameters  # noqa: E402

declared_query_parameters()
