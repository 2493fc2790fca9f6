"""Reference DMs (gap 5): in a world that asks for them a person's DM to the bot carries
its text, so the bot's DM command can be tested; without, the bot sees the envelope."""
import pytest

from tester_bot import WORLD


@pytest.fixture
def parley_world():
    return {**WORLD, "reference_dms": True}


def test_the_bots_dm_command(parley, bot, worker_log):
    dm = parley.person("alice").dm("TesterBot", "!help")
    bot_id = parley.world["applications"]["TesterBot"]["bot_user_id"]
    answer = parley.wait_for_message(dm["channel_id"], lambda m: m["author"]["id"] == bot_id, as_="alice")
    assert answer["content"] == "help for alice"
