"""The pytest plugin (entry point ``pytest11``: ``parley``; without installing the package,
``pytest -p parley_testing.plugin``).

Fixtures:

- ``parley_server`` (session): one Parley per test process, so one per pytest-xdist
  worker, each on a port of its own; ``--parley-url URL`` (or PARLEY_URL) attaches to a
  running server instead (one test process only: resets would collide). Its options come
  from the ``parley_options`` fixture (override it in conftest.py: ``heartbeat_interval``,
  ``rate_limits``, ``start_time``, ``reference_dms``, ``strict``, ``bot``).
- ``parley`` (each test): that server with the world reset to ``parley_world`` (default: an
  empty world; override it in a module or conftest.py) and strict mode's mark taken; the
  bots started in the test stop after it, the server keeps running.
- ``parley_bot`` (each test): ``parley_bot(client, "EchoBot")`` starts a discord.py client
  as that application (Parley's base URL and epoch line applied), waits for the library's
  own ready and answers the client.

After each test strict mode's checks run (``--parley-no-strict`` turns them off) and fail
a test that passed its assertions; every failing test gets the bots' transcripts since it
began as a report section. After the run: the coverage report (``--parley-no-coverage``).
"""
from __future__ import annotations

import json
import os
from typing import Any, Iterator

import pytest

from ._core import Parley
from . import _reports

_PARLEY = pytest.StashKey[Parley]()
_COVERAGE = pytest.StashKey[list]()


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("parley", "Parley, the test double for bots")
    g.addoption("--parley-url", default=None, help="attach to a running Parley (parley serve --harness) instead of starting one")
    g.addoption("--parley-command", default=None, help="the command that runs Parley (default: PARLEY_COMMAND, parley on PATH, npx parley)")
    g.addoption("--parley-no-strict", action="store_true", default=False, help="strict mode off: no 3-second rule, no failures for what strict mode finds")
    g.addoption("--parley-no-coverage", action="store_true", default=False, help="no coverage report after the run")


def pytest_configure(config: Any) -> None:
    config.stash[_COVERAGE] = []


@pytest.fixture(scope="session")
def parley_options() -> dict:
    """Options of the session's Parley (keyword arguments of Parley); override in conftest.py."""
    return {}


@pytest.fixture(scope="session")
def parley_server(request: Any, parley_options: dict) -> Iterator[Parley]:
    """One Parley per test process (per xdist worker), or the one --parley-url names."""
    config = request.config
    opts = dict(parley_options)
    if config.getoption("parley_no_strict"):
        opts["strict"] = False
    url = config.getoption("parley_url") or os.environ.get("PARLEY_URL")
    if url:
        if int(getattr(config, "workerinput", {}).get("workercount", 1)) > 1:
            raise pytest.UsageError("--parley-url: one server holds one world at a time; run its tests in one process (no -n)")
        server = Parley.attach(url, **opts)
    else:
        server = Parley(command=config.getoption("parley_command"), **opts).start()
    try:
        yield server
    finally:
        try:
            config.stash[_COVERAGE].append(server.coverage())
        except Exception:
            pass
        server.stop()


@pytest.fixture
def parley_world() -> dict:
    """The world each test starts with; override it in a test module or conftest.py."""
    return {}


@pytest.fixture
def parley(request: Any, parley_server: Parley, parley_world: dict) -> Iterator[Parley]:
    """The session's Parley with the world reset to ``parley_world``; the test's bots stop after it."""
    parley_server.reset(parley_world)
    parley_server.mark()
    request.node.stash[_PARLEY] = parley_server
    try:
        yield parley_server
    finally:
        parley_server.stop_bots()


@pytest.fixture
def parley_bot(parley: Parley) -> Any:
    """``parley_bot(client, app)``: start a discord.py client as the application, ready; it stops after the test."""
    return parley.start_bot


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()
    p = item.stash.get(_PARLEY, None)
    if p is None:
        return
    if rep.when == "call" and rep.passed:
        violations = p.strict_violations()
        if violations:
            rep.outcome = "failed"
            rep.longrepr = ("Strict mode (--parley-no-strict or Parley(strict=False) turns it off):\n"
                            + "\n".join(f"  - {v}" for v in violations) + p.failure_report())
            return
    if rep.failed:
        report = p.failure_report().strip()
        if report:
            rep.sections.append(("Parley: what the bots did", report))


def pytest_sessionfinish(session: Any) -> None:
    # An xdist worker hands its server's coverage to the controller, which reports the run's.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["parley_coverage"] = json.dumps(session.config.stash[_COVERAGE])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    got = getattr(node, "workeroutput", {}).get("parley_coverage")
    if got:
        node.config.stash[_COVERAGE].extend(json.loads(got))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: Any, config: Any) -> None:
    reports = config.stash.get(_COVERAGE, [])
    if config.getoption("parley_no_coverage") or not reports or hasattr(config, "workerinput"):
        return
    terminalreporter.write_sep("-", "Parley coverage")
    terminalreporter.write(_reports.coverage_text(_reports.merge_coverage(reports)))
