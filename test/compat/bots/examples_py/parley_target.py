"""Points discord.py at Parley for the example copies beside this file, so that their own
code stays as upstream wrote it.

What it does, and why each line is the whole of "pointing the library at Parley":
- REST base and gateway address: Parley's, from the command line (as every bot run
  against Parley is told them).
- The CDN (`Asset.BASE`): Parley serves avatars and emoji at the same paths as the
  reference CDN, on its own origin, so `asset.read()` (secret.py's emoji command) reads
  them there.
- The snowflake epoch: Parley's ids count from 2025-01-01 (spec 2.1, 9.4), the documented
  one-line fix (test/compat/epoch.ts), so `created_at` of messages and channels is true.
- Line-buffered stdout, so the examples' own prints reach the test as they happen.
- The ready line: `dispatch` is wrapped so the library's own `ready` is also printed as
  one JSON line ({"event": "ready"}), which the test waits for (PyBot) before it acts;
  the examples' own prints stay as they are and the test reads them too.
- The view line: discord.py starts listening to a view's components only once the
  message that carries them is sent and its answer read (`store_view`); a person who
  clicks sooner is ignored, on the reference too. The test waits for this line
  ({"event": "view"}) before it clicks, as a person would wait to see the buttons.

Usage (from an example): `from parley_target import TOKEN, ARGS` with the command line
`example.py BASE GATEWAY TOKEN [the example's constants...]`.
"""
import json
import sys

import discord
import yarl

base, gateway, TOKEN = sys.argv[1:4]
ARGS = sys.argv[4:]

# The examples print what they did; a pipe would hold those lines back until exit.
sys.stdout.reconfigure(line_buffering=True)

discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
discord.asset.Asset.BASE = base
discord.utils.DISCORD_EPOCH = 1735689600000


def emit(**kw):
    print(json.dumps(kw, default=str), flush=True)


_dispatch = discord.Client.dispatch


def _reporting_dispatch(self, event_name, *args, **kwargs):
    if event_name == "ready":
        emit(event="ready", user=str(self.user.id), guilds=len(self.guilds))
    return _dispatch(self, event_name, *args, **kwargs)


discord.Client.dispatch = _reporting_dispatch


_store_view = discord.state.ConnectionState.store_view


def _reporting_store_view(self, view, message_id=None, interaction_id=None):
    _store_view(self, view, message_id, interaction_id)
    custom_ids = [getattr(item, "custom_id", None) for item in view.children]
    emit(event="view", message=str(message_id) if message_id else None, custom_ids=[c for c in custom_ids if c])


discord.state.ConnectionState.store_view = _reporting_store_view
