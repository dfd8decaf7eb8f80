"""Base viewsets: transactions, idempotency, permissions, scoping and the answer to a
write in one place, so a concrete viewset names its selector, serializer and filters
and calls its service.

Errors need nothing here: ``EXCEPTION_HANDLER`` (:func:`api.errors.exception_handler`)
turns every exception into the one error body and rolls the transaction back.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar, cast

from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.viewsets import GenericViewSet

from api import conditional
from api.contract import ApiContractMixin
from api.idempotency import idempotent_handler
from api.permissions import (
    CAMPAIGN_KWARG,
    CampaignAccessMixin,
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsUmpireInPerson,
    IsUmpireOrReadOnly,
    request_api_key,
)
from api.schema import ApiSchema
from campaign.access import CampaignAccess
from campaign.services.audit import Actor

_M = TypeVar("_M", bound=Model)
_Input = TypeVar("_Input", bound=serializers.Serializer[Any])

# Anonymous callers 403; non-members 404; members read, umpires write.
CAMPAIGN_PERMISSIONS = [IsAuthenticatedOrAPIKey, IsCampaignMember, IsUmpireOrReadOnly]
# Who may act in the campaign (members, invitations, API keys): its umpires signed in, never a key.
UMPIRES_IN_PERSON = [*CAMPAIGN_PERMISSIONS, IsUmpireInPerson]


class ApiViewSet(ApiContractMixin, GenericViewSet[_M]):
    """Every write runs in one transaction (a refused or crashed request commits nothing)
    and honours ``Idempotency-Key`` (a retry replays the first answer and changes nothing);
    every read carries an ETag and answers 304 to it while it is current; a query parameter the
    operation does not declare is a 400 naming it (:mod:`api.contract`)."""

    schema = ApiSchema()
    # OrderingFilter accepts only these; a subclass lists fields every viewer may see.
    ordering_fields: ClassVar[list[str]] = ["id"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method in SAFE_METHODS:
            return super().dispatch(request, *args, **kwargs)
        method = str(request.method).lower()
        handler = getattr(self, method, None)
        if handler is not None:  # the router bound the action; DRF calls it once the caller is let in
            setattr(self, method, idempotent_handler(handler))
        with transaction.atomic():
            response = super().dispatch(request, *args, **kwargs)
            if response.status_code >= 400:  # DRF turned an exception into this answer
                transaction.set_rollback(True)
            return response

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        """Every read with its ETag, or 304 while the caller's is current (api.conditional)."""
        # DRF's stubs say Response; a paper or a file is an HttpResponse, conditional too.
        answer = cast(Response, conditional.conditional(request, response))
        return super().finalize_response(request, answer, *args, **kwargs)

    @property
    def actor(self) -> Actor:
        """Who the services record as acting: the user, or the API key, and the request id."""
        api_key = request_api_key(self.request)
        return Actor.of_request(self.request, api_key_prefix=api_key.prefix if api_key else None)

    def validated(self, input_class: type[_Input], *, partial: bool = False) -> dict[str, Any]:
        """The request body, checked for shape by ``input_class`` (400 with field paths if not);
        ``partial`` for a PATCH, which sends only what changes."""
        serializer = input_class(data=self.request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def respond(
        self,
        obj: Model,
        status_code: int = status.HTTP_200_OK,
        *,
        serializer_class: type[serializers.BaseSerializer[Any]] | None = None,
        queryset: QuerySet[Any] | None = None,
        location: str | None = None,
        **context: Any,
    ) -> Response:
        """The answer to a write: ``obj`` read again through the rows the caller may see (with
        the selector's annotations and prefetches), at its URL (``Location``) when it has one.

        An action answering another kind of row than its viewset's gives that row's ``queryset``
        (a selector's, so fog of war holds) and ``location``."""
        obj = (self.get_queryset() if queryset is None else queryset).get(pk=obj.pk)
        serializer = (serializer_class or self.get_serializer_class())(
            obj, context={**self.get_serializer_context(), **context}
        )
        if queryset is not None:
            headers = {"Location": location} if location else {}
        else:
            headers = {"Location": self.location(obj)} if hasattr(self, "retrieve") else {}
        return Response(serializer.data, status=status_code, headers=headers)

    def location(self, obj: Model, basename: str | None = None, **parents: Any) -> str:
        """``obj``'s URL: this viewset's detail route, or ``basename``'s under the same campaign
        and ``parents`` (its route's other arguments), found by its primary key unless ``parents``
        name its ``pk`` (a public id)."""
        if basename is None:
            basename, lookup = self.basename, self.lookup_url_kwarg or self.lookup_field
            kwargs = {**self.kwargs, lookup: getattr(obj, self.lookup_field)}
        else:
            kwargs = {CAMPAIGN_KWARG: self.kwargs[CAMPAIGN_KWARG], "pk": obj.pk, **parents}
        return reverse(f"api:{basename}-detail", kwargs=kwargs, request=self.request)


@extend_schema(
    parameters=[
        OpenApiParameter(
            CAMPAIGN_KWARG, str, OpenApiParameter.PATH, description="the campaign's slug (`GET /campaigns/`)"
        )
    ]
)
class CampaignScopedViewSet(CampaignAccessMixin, ApiViewSet[_M]):
    """A collection under ``/campaigns/{campaign_slug}/``: members only (404 for anybody
    else), writes for umpires, rows from the selector of what the caller may see."""

    model: ClassVar[type[Model]]
    permission_classes = CAMPAIGN_PERMISSIONS

    def visible(self, access: CampaignAccess) -> QuerySet[_M]:
        """The rows the caller may see: a :mod:`campaign.selectors` function."""
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[_M]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request, no campaign
            return cast(QuerySet[_M], self.model._default_manager.none())
        return self.visible(self.campaign_access)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if CAMPAIGN_KWARG in self.kwargs:
            context["access"] = self.campaign_access
        return context


class ReadOnlyCampaignViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[_M]):
    pass


class VersionedListMixin(CampaignScopedViewSet[_M]):
    """A list whose answer changes only with the campaign's version (every committed change bumps
    it) and who reads it: its ETag is of that version, the reader and the query, so a poll sending
    it back is answered 304 before a row is read (:func:`api.conditional.version_etag`)."""

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        etag = conditional.version_etag(request, self.campaign_access)
        if conditional.etag_matches(request, etag):
            return conditional.not_modified(etag)
        response: Response = super().list(request, *args, **kwargs)  # type: ignore[misc]
        if response.status_code == status.HTTP_200_OK:
            response["ETag"] = etag
            response["Cache-Control"] = conditional.CACHE_CONTROL
        return response
