"""Whether an app binds loopback, and the Host names it then answers (the review app and the read API)."""

from __future__ import annotations

import ipaddress

# The Host names a loopback-bound app answers, so a web page cannot reach it by rebinding its own name.
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
