"""The embedded PostgreSQL (no GIGFLOW_DATABASE_URL) stays out of the log of every command that logs."""

import os
import signal

from helpers import run_scrapy


def test_commands_that_log_do_not_print_the_embedded_servers_start_up_lines(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GIGFLOW_DATABASE_URL"}
    env["GIGFLOW_HOME"] = str(tmp_path / "home")
    try:
        runs = [run_scrapy("crawl", "href", "-a", "source=nothing-here", env=env) for _ in range(2)]  # start, reuse
    finally:
        pid_file = tmp_path / "home" / "pgdata" / "postmaster.pid"
        if pid_file.exists():  # the server this test started outlives its commands by design: stop it (fast)
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
    for result in runs:
        assert "[pgserver]" not in result.stderr, result.stderr[-3000:]
        assert "[scrapy.utils.log] INFO: Scrapy" in result.stderr  # the command does log
