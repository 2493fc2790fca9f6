import os

import pytest

from tester_bot import WORLD, create_bot


@pytest.fixture(scope="session")
def parley_options():
    # A server option, as a bot repository sets one: a short heartbeat interval.
    return {"heartbeat_interval": 1000}


@pytest.fixture
def parley_world():
    return WORLD


@pytest.fixture
def bot(parley, parley_bot):
    client = parley_bot(create_bot(), "TesterBot")
    parley.wait_for(client.synced.is_set, what="the bot's commands")
    return client


@pytest.fixture
def worker_log(request, parley):
    """Which server each test of each xdist worker used (PARLEY_SUITE_LOG)."""
    path = os.environ.get("PARLEY_SUITE_LOG")
    if path:
        worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
        with open(path, "a") as f:
            f.write(f"{worker} {parley.base_url}\n")
