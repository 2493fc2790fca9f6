import pytest

from bot import HelperBot

WORLD = {
    "users": [{"name": "alice"}, {"name": "bob"}],
    "guilds": [{"name": "Lab", "owner": "alice", "members": ["bob"]}],
    "applications": [{"name": "HelperBot", "owner": "alice", "install": ["Lab"], "approved_privileged": ["MESSAGE_CONTENT"],
                      "intents": ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"]}],
    # Ids and times the same on every run; and a departure from the spec, for tests only:
    # people's DMs to bots carry their text.
    "start_time": "2030-01-01T09:00:00.000Z",
    "reference_dms": True,
}


@pytest.fixture
def parley_world():
    return WORLD


@pytest.fixture
def bot(parley, parley_bot):
    # Parley sends every GUILD_CREATE right after READY: no need for discord.py's 2 s wait for more.
    client = parley_bot(HelperBot(guild_ready_timeout=0.05), "HelperBot")
    parley.wait_for(lambda: client.synced, what="HelperBot's commands")
    return client
