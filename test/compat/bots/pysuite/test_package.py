"""The helper as a package (gap 1) and its bot fixture (gap 4): installed, the plugin
loads by its entry point; the bot is ready when the fixture answers, with the epoch line
applied; bots stop after each test while the server keeps running."""
import importlib.metadata
import os

import discord

import parley_testing

SEEN = {}


def test_installed_plugin_by_entry_point(worker_log):
    eps = importlib.metadata.entry_points(group="pytest11")
    assert [(e.name, e.value) for e in eps if e.name == "parley"] == [("parley", "parley_testing.plugin")]
    assert "site-packages" in parley_testing.__file__


def test_bot_ready_with_the_epoch_line(parley, bot, worker_log):
    assert bot.is_ready() and [g.name for g in bot.guilds] == ["Lab"] and bot.get_channel(int(parley.channel_id("general")))
    assert discord.utils.DISCORD_EPOCH == 1735689600000
    parley.person("alice").say("general", "!ping")
    pong = parley.wait_for_message("general", lambda m: m["content"] == "pong")
    made = discord.utils.snowflake_time(int(pong["id"]))
    assert abs((made - discord.utils.utcnow()).total_seconds()) < 60
    SEEN["first"] = (bot, parley.base_url, parley._proc.pid)


def test_bots_stop_the_server_stays(parley, bot, worker_log):
    first, url, pid = SEEN["first"]
    assert first.is_closed() and first is not bot
    assert (parley.base_url, parley._proc.pid) == (url, pid)
    assert parley.sessions("TesterBot")[0]["connected"]


def test_server_option_from_parley_options(parley, bot, worker_log):
    hello = next(e for e in parley.transcript("TesterBot")["entries"] if e["kind"] == "gateway" and e["op"] == 10)
    assert hello["d"] == {"heartbeat_interval": 1000}
