"""The session: sign in, sign out, and who is signed in."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.middleware.csrf import get_token
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import inputs
from api.contract import ApiContractMixin
from api.permissions import request_api_key
from api.serializers.session import SessionSerializer
from campaign import selectors
from campaign.services.errors import DomainError


@extend_schema(tags=["session"])
class SessionView(ApiContractMixin, APIView):
    """Session login for browsers and scripts: GET sets the CSRF cookie, POST logs in, DELETE out."""

    permission_classes = [AllowAny]

    def _state(self, request: Request) -> Response:
        user = request.user
        signed_in = bool(user.is_authenticated)
        get_token(request._request)  # sets the csrftoken cookie for the next unsafe request
        api_key = request_api_key(request)
        if api_key is not None:
            return Response(SessionSerializer(selectors.key_session(api_key)).data)
        session = {
            "authenticated": signed_in,
            "username": user.get_username() if signed_in else None,
            "campaigns": selectors.memberships_of(user.pk if signed_in else None),
            "api_key": None,
        }
        return Response(SessionSerializer(session).data)

    @extend_schema(
        summary="Who you are (a person or an API key); sets the CSRF cookie", responses=SessionSerializer
    )
    def get(self, request: Request) -> Response:
        return self._state(request)

    @extend_schema(
        summary="Log in (send the csrftoken cookie's value as X-CSRFToken)",
        request=inputs.LoginInput,
        responses=SessionSerializer,
    )
    def post(self, request: Request) -> Response:
        SessionAuthentication().enforce_csrf(request)  # DRF checks CSRF only for logged-in users
        credentials = inputs.LoginInput(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            raise DomainError("wrong username or password", field="password", code="login_failed")
        login(request._request, user)
        request.user = user
        return self._state(request)

    @extend_schema(
        summary="Log out", request=None, responses={204: OpenApiResponse(description="Logged out")}
    )
    def delete(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
