"""Run with --parley-url: the fixtures use the server started elsewhere."""


def test_attached(parley, bot):
    assert parley.attached and parley._proc is None
    parley.person("alice").say("general", "!ping")
    parley.wait_for_message("general", lambda m: m["content"] == "pong")
