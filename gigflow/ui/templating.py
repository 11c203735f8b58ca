"""The review app's Jinja2 templates: every printed value made display-safe, two filters of its own."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.templating import Jinja2Templates

from gigflow.ui.render import display_value
from gigflow.ui.security import display_guard

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.finalize = display_guard
templates.env.filters["pretty_json"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, default=str)
templates.env.filters["display_value"] = lambda value, name="": display_value(name, value) or ""
