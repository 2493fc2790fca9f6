"""HelperBot's tests with pytest and the parley_testing plugin: a real discord.py client
against a real Parley. `pip install path/to/parley/clients/python`, `npm install` (the
server, see package.json), then `pytest`."""


def test_ping_is_answered_with_a_reply(parley, bot):
    said = parley.person("alice").say("general", "!ping")
    pong = parley.wait_for_message("general", lambda m: m["content"] == "pong")
    assert pong["message_reference"]["message_id"] == said["id"]


def test_echo_answers_only_the_person_who_asked(parley, bot):
    r = parley.person("bob").slash("general", "echo", {"text": "hello"})
    assert (r.state, r.ephemeral, r.response["content"]) == ("responded", True, "hello")
    assert "hello" not in [m["content"] for m in parley.messages("general", as_="alice")]


def test_poll_counts_the_buttons_people_click(parley, bot):
    poll = parley.person("alice").slash("general", "poll", {"question": "Pizza?"})
    parley.person("bob").click("general", poll.response["id"], "yes")
    after = parley.person("alice").click("general", poll.response["id"], "no")
    assert after.response["content"] == "Pizza? (yes 1, no 1)"


def test_think_defers_then_answers(parley, bot):
    r = parley.person("alice").slash("general", "think", until="responded")
    assert (r.deferred, r.response["content"]) == (True, "42")


def test_help_in_a_dm(parley, bot):
    dm = parley.person("alice").dm("HelperBot", "!help")
    help_ = parley.wait_for_message(dm["channel_id"], lambda m: m["author"]["username"] == "HelperBot", as_="alice")
    assert "/poll" in help_["content"]


def test_the_hourly_reminder_two_in_two_hours_on_the_hour(parley, bot):
    parley.advance(2 * 60 * 60_000)

    def reminders():
        got = [m for m in parley.messages("general") if m["content"].startswith("Hourly reminder")]
        return got if len(got) == 2 else None

    assert [m["timestamp"] for m in parley.wait_for(reminders)] == ["2030-01-01T11:00:00.000+00:00", "2030-01-01T10:00:00.000+00:00"]


def test_a_dropped_connection_is_resumed_and_nothing_is_lost(parley, bot):
    parley.faults.gateway_close("HelperBot")
    said = parley.person("alice").say("general", "!ping")
    pong = parley.wait_for_message("general", lambda m: m["content"] == "pong", timeout=10)
    assert pong["message_reference"]["message_id"] == said["id"]


def test_a_500_is_retried(parley, bot):
    parley.faults.rest("/channels/{channel_id}/messages", 500, method="POST", app="HelperBot")
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong", timeout=10)
