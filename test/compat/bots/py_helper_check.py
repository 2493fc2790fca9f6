"""Exercises clients/python/parley_testing beyond the README example: what the
module offers, the session the pytest fixture runs (as a plain generator), a REST fault
a discord.py bot rides out, the transcript, a timed-out wait that prints it, and the
faults list. Prints one JSON object per finished check; the suite asserts on them.

Usage: PYTHONPATH=clients/python py_helper_check.py [with-pytest|without-pytest]
  with-pytest: pytest is imported first, as when pytest loads the module as a plugin;
  without-pytest: importing pytest fails, as where it is not installed.
"""
import inspect
import json
import sys

if sys.argv[1:] == ["with-pytest"]:
    import pytest  # noqa: F401
elif sys.argv[1:] == ["without-pytest"]:
    sys.modules["pytest"] = None  # "import pytest" raises ImportError

import discord

import parley_testing
from parley_testing import HarnessError

WORLD = {
    "users": [{"name": "alice"}],
    "guilds": [{"name": "Lab", "owner": "alice"}],
    "applications": [{"name": "EchoBot", "owner": "alice", "install": ["Lab"], "approved_privileged": ["MESSAGE_CONTENT"],
                      "intents": ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"]}],
}


def emit(**kw):
    print(json.dumps(kw), flush=True)


bot = discord.Client(intents=discord.Intents(guilds=True, guild_messages=True, message_content=True), chunk_guilds_at_startup=False)


@bot.event
async def on_message(message):
    if message.content == "!ping":
        await message.channel.send("pong")


public = sorted(n for n in vars(parley_testing) if not n.startswith("_"))
emit(check="module", public=public, all=sorted(parley_testing.__all__),
     session_is_generator=inspect.isgeneratorfunction(parley_testing.parley_session))
session = parley_testing.parley_session(WORLD)
parley = next(session)
try:
    parley.run_bot(bot, "EchoBot")
    parley.wait_for_bot("EchoBot")
    fault = parley.faults.rest("/channels/{channel_id}/messages", 500, method="POST", app="EchoBot")
    emit(check="armed", faults=parley.faults.list(), id=fault["id"])
    parley.person("alice").say("general", "!ping")
    pong = parley.wait_for_message("general", lambda m: m["content"] == "pong", timeout=10)
    rest = [(e["status"], e["route"]) for e in parley.transcript("EchoBot")["entries"] if e["kind"] == "rest" and e["method"] == "POST"]
    emit(check="retried", pong=pong["content"], rest=rest, faults=parley.faults.list())

    # The people's API as alice, through a harness session: her own account, and a refusal as HarnessError.
    alice = parley.person("alice")
    me = alice.api("GET", "/users/@me")
    try:
        alice.api("GET", "/guilds/00000000-0000-0000-0000-000000000000")
        missing = None
    except HarnessError as e:
        missing = e.status
    emit(check="people", username=me["username"], same_id=me["id"] == alice.session()["user_id"], missing=missing)

    try:
        parley.wait_for_message("general", lambda m: m["content"] == "never", timeout=0.2)
    except TimeoutError as e:
        emit(check="timeout", message=str(e))
    try:
        parley.wait_for_event(lambda e: False, timeout=0.2, after="start")
    except TimeoutError as e:
        emit(check="event_timeout", message=str(e))

    parley.faults.drop_heartbeat_acks("EchoBot", 3)
    listed = parley.faults.list()
    for f in listed:
        parley.faults.delete(f["id"])
    try:
        parley.faults.delete(listed[0]["id"])
    except HarnessError as e:
        emit(check="faults", listed=listed, after=parley.faults.list(), refused=[e.status, e.body["code"]])
finally:
    session.close()  # the fixture's teardown: the bot and the server stop
emit(check="stopped", running=parley._proc.poll() is None)
try:  # a server gone mid-test (killed, crashed): the next call says so, and how
    parley.person("alice").say("general", "anyone?")
except ConnectionError as e:
    emit(check="gone", message=str(e))
