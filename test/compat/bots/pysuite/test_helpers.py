"""The helpers (gap 4): slash/click/select/context_menu answer what happened;
interaction() and wait_for_interaction(); wait_for_event from the latest action;
transcripts with concrete paths; a transcript snapshot checked against a file."""
import pytest


def test_interactions_answer_what_happened(parley, bot, worker_log):
    alice = parley.person("alice")
    secret = alice.slash("general", "ping", {"secret": True})
    assert (secret.state, secret.ephemeral, secret.deferred, secret.callback_type, secret.response["content"]) == ("responded", True, False, 4, "pong")
    slow = alice.slash("general", "slow", until="responded")
    assert (slow.state, slow.deferred, slow.callback_type, slow.response["content"]) == ("responded", True, 5, "thought about it")
    menu = alice.slash("general", "menu")
    more = parley.person("bob").click("general", menu.response["id"], "more")
    assert (more.callback_type, more.response["id"], more.response["content"]) == (7, menu.response["id"], "more, as asked")
    menu2 = alice.slash("general", "menu")
    chosen = parley.person("bob").select("general", menu2.response["id"], "colour", ["blue"])
    assert (chosen.ephemeral, chosen.response["content"]) == (True, "you chose blue")
    profile = alice.context_menu("general", "Profile", user="bob")
    assert profile.response["content"] == "profile of bob"
    assert parley.interaction(profile.id)["state"] == "responded"
    assert parley.strict_violations() == []


def test_wait_for_interaction(parley, bot, worker_log):
    slow = parley.person("alice").slash("general", "slow")
    assert parley.wait_for_interaction(slow.id, "responded").response["content"] == "thought about it"


def test_wait_for_event_from_the_latest_action(parley, bot, worker_log):
    is_message = lambda e: e["t"] == "MESSAGE_CREATE"  # noqa: E731
    parley.person("bob").say("general", "older")
    assert parley.wait_for_event(is_message)["d"]["content"] == "older"
    parley.person("bob").say("general", "newer")
    assert parley.wait_for_event(is_message)["d"]["content"] == "newer"
    assert parley.wait_for_event(is_message, after="start")["d"]["content"] == "older"


def test_concrete_paths_and_a_fault_by_path(parley, bot, worker_log):
    random = parley.channel_id("random")
    general = parley.channel_id("general")
    mark = parley.cursor()
    parley.faults.rest(path=f"/channels/{random}/messages", method="POST", status=503, app="TesterBot")
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong")
    posts = [e for e in parley.transcript("TesterBot", after=mark)["entries"] if e["kind"] == "rest" and e["method"] == "POST"]
    assert [(e["path"], e["status"], e["request"]["content"]) for e in posts] == [(f"/channels/{general}/messages", 200, "pong")]
    assert parley.faults.list()[0]["path"] == f"/channels/{random}/messages"


def test_transcript_snapshot(parley, bot, worker_log, tmp_path):
    mark = parley.cursor()
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong")
    path = tmp_path / "ping.txt"
    parley.assert_transcript_snapshot("TesterBot", str(path), after=mark, ids="placeholders", times=False)
    text = path.read_text()
    assert text.startswith('gateway parley->bot S1 MESSAGE_CREATE s=') and '"content":"!ping"' in text and "rest POST /channels/<id:" in text
    parley.assert_transcript_snapshot("TesterBot", str(path), after=mark, ids="placeholders", times=False)
    path.write_text(text.replace("pong", "ping"))
    with pytest.raises(AssertionError, match="differs from"):
        parley.assert_transcript_snapshot("TesterBot", str(path), after=mark, ids="placeholders", times=False)


def test_a_person_pins(parley, bot, worker_log):
    said = parley.person("bob").say("general", "pin this")
    parley.person("alice").pin("general", said["id"])
    notice = parley.wait_for_event(lambda e: e["t"] == "MESSAGE_CREATE" and e["d"]["type"] == 6)
    assert (notice["d"]["author"]["id"], notice["d"]["message_reference"]["message_id"]) == (parley.world["users"]["alice"]["id"], said["id"])
    parley.person("alice").unpin("general", said["id"])
    assert not [m for m in parley.messages("general", as_="alice") if m["id"] == said["id"]][0]["pinned"]


def test_a_person_acts_once_the_bots_are_done(parley, bot, worker_log):
    """The bot waits for the answer only once its prompt's reaction is answered, which a fault holds for a while (and then
    discord.py waits out the reaction's bucket inside the request); the person answers the moment the prompt shows, and is
    heard: the helper lets the bots finish before a person acts."""
    parley.faults.latency(200, route="/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", method="PUT", app="TesterBot")
    alice = parley.person("alice")
    alice.say("general", "!guess")
    parley.wait_for_message("general", lambda m: m["content"] == "Guess a number")
    alice.say("general", "7")
    reply = parley.wait_for_message("general", lambda m: m["content"] in ("you said 7", "too slow"), timeout=8)
    assert reply["content"] == "you said 7"
