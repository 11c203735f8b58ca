"""`scrapy demo` when another program holds its port: one error line naming the port, no traceback."""

import socket

import pytest

from helpers import scrapy_command

pytestmark = [pytest.mark.db]


def test_demo_says_when_its_port_is_taken(pool):
    from gigflow.commands.demo import DEMO_PORT

    with socket.socket() as holder:
        try:
            holder.bind(("127.0.0.1", DEMO_PORT))
        except OSError:
            pytest.skip(f"127.0.0.1:{DEMO_PORT} is held by something else already")
        holder.listen(1)
        result = scrapy_command("demo")
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"cannot serve the demo site on 127.0.0.1:{DEMO_PORT}" in result.stderr
    assert "Traceback" not in result.stderr
