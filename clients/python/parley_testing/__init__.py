"""parley_testing: Parley as a test double for a discord.py bot (standard library only).

Starts ``parley serve --harness --port 0 --data :memory:`` (or attaches to a running one),
seeds a world, acts as the people around the bot, waits for what the bot did, moves the
clock (the bot's too), breaks things on purpose, and says what went wrong. The harness it
drives is documented in Parley's docs/harness.md.

    from parley_testing import Parley

    with Parley(world=WORLD) as parley:
        parley.start_bot(bot, "EchoBot")        # a discord.py Client: pointed here, ready
        parley.person("alice").say("general", "!ping")
        parley.wait_for_message("general", lambda m: m["content"] == "pong")
        result = parley.person("alice").slash("general", "ping")   # result.state, result.response
        parley.faults.gateway_close("EchoBot")  # the bot should resume

Installed (``pip install path/to/parley/clients/python``) it is also a pytest plugin: the
fixtures ``parley`` (a server per worker, the world reset to ``parley_world`` before each
test), ``parley_bot`` (start a discord.py client, ready, stopped after the test) and
``parley_world``; strict mode's checks and the bots' transcripts on every failing test;
a coverage report after the run (parley_testing.plugin). The module is the same with or
without pytest installed.

The executable is found in this order: ``command=`` or PARLEY_COMMAND; ``parley`` on PATH;
``npx --no-install parley`` when a node_modules/.bin/parley is installed above the working
directory; ``bun src/main.ts`` of the Parley checkout this package sits in.
"""
from ._core import Parley, find_parley, parley_session
from ._people import Faults, HarnessError, InteractionResult, Person

__all__ = ["Faults", "HarnessError", "InteractionResult", "Parley", "Person", "find_parley", "parley_session"]
