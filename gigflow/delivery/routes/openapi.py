"""The OpenAPI document, open to all (it holds no data)."""

from __future__ import annotations

import json

from starlette.responses import Response

from gigflow.delivery.context import ApiContext
from gigflow.delivery.openapi import document


def openapi(api: ApiContext, request):
    return Response(json.dumps(document(api.limits.page_size, api.limits.page_max)), media_type="application/json")
