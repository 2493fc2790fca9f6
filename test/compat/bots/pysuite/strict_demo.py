"""Strict mode at work (gap 3), run on purpose by the suite: each of these tests passes its
own assertions, and strict mode fails it; one fails its assertion and carries the bots'
transcript. Not collected by default (its name is not test_*)."""


def test_late_answer(parley, bot):
    late = parley.person("alice").slash("general", "late", timeout=0.3)
    assert late.state == "pending"
    parley.advance_clock(3000)
    bot.loop.call_soon_threadsafe(bot.late.set)
    parley.wait_for(lambda: any(e["kind"] == "rest" and e["status"] == 404 for e in parley.transcript("TesterBot")["entries"]))
    # The library logs its 10062 after the 404 reaches it, on the bot's own thread: wait for that line too.
    parley.wait_for(lambda: parley._test.errors)


def test_late_by_latency(parley, bot):
    # A latency fault holds the answer past the 3-second rule: the lateness and its 10062 are the test's doing.
    parley.faults.latency(3200, route="/interactions/{interaction_id}/{interaction_token}/callback", times=1)
    late = parley.person("alice").slash("general", "ping", timeout=6)
    assert late.state == "expired"
    parley.wait_for(lambda: parley._test.errors)


def test_unanswered(parley, bot):
    parley.person("alice").slash("general", "never", timeout=0.2)


def test_logged_error(parley, bot):
    parley.person("alice").say("general", "!boom")
    parley.wait_for(lambda: parley._test.errors)


def test_wrong_expectation(parley, bot):
    parley.person("alice").say("general", "!ping")
    assert parley.wait_for_message("general", lambda m: m["content"] == "pong")["content"] == "ping"
