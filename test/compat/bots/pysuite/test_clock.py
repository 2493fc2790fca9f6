"""The clock moves the bot too (gap 2): advance() fires a tasks.loop as often as the time
moved says, a minute apart on discord.py's own clock; the live session survives the jump
and nothing said after it is lost; zombie=True makes the jump silent."""


def _gateway(parley, op):
    return [e for e in parley.transcript("TesterBot")["entries"] if e["kind"] == "gateway" and e["op"] == op]


def test_advance_fires_the_bots_tasks_loop(parley, bot, worker_log):
    parley.wait_for(lambda: len(bot.ticks) >= 1)
    before = len(bot.ticks)
    session = parley.sessions("TesterBot")[0]["session_id"]
    parley.advance(600_000)
    assert len(bot.ticks) == before + 10
    gaps = {round((b - a).total_seconds()) for a, b in zip(bot.ticks[before - 1:], bot.ticks[before:])}
    assert gaps == {60}, [str(t) for t in bot.ticks]
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong")
    assert [(s["session_id"], s["connected"]) for s in parley.sessions("TesterBot")] == [(session, True)]
    assert len(_gateway(parley, 2)) == 1 and _gateway(parley, 6) == []


def test_a_zombie_jump_makes_the_bot_reconnect(parley, bot, worker_log):
    parley.advance(120_000, zombie=True)
    parley.wait_for(lambda: _gateway(parley, 6) or len(_gateway(parley, 2)) > 1, timeout=15)
    parley.wait_for_bot("TesterBot")
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong", timeout=10)
