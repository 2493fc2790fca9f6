"""parley_testing: Parley as a test double for a discord.py bot (standard library only).

Starts ``parley serve --harness --port 0 --data :memory:`` with a world, acts as the
people around the bot, waits for what the bot did, injects faults, and stops. The
harness it drives is documented in Parley's docs/harness.md.

    from parley_testing import Parley

    with Parley(world=WORLD) as parley:
        parley.run_bot(bot, "EchoBot")          # a discord.py Client, in a thread
        parley.wait_for_bot("EchoBot")
        parley.person("alice").say("general", "!ping")
        parley.wait_for_message("general", lambda m: m["content"] == "pong")
        parley.faults.gateway_close("EchoBot")  # the bot should resume

The executable is found in this order: ``command=`` or the PARLEY_COMMAND environment
variable; ``parley`` on PATH (the compiled executable); ``npx --no-install parley`` when a
node_modules/.bin/parley is installed above the working directory; ``bun src/main.ts``
from the Parley checkout this file sits in.

It is also a pytest plugin: with ``pytest_plugins = ["parley_testing"]`` in the top-level
conftest.py (or ``pytest -p parley_testing``), tests get the fixtures ``parley`` (a
started Parley, stopped after the test) and ``parley_world`` (the world it seeds; override
it in a test module or conftest.py, default: an empty world). Outside pytest,
``parley_session(world)`` does what the fixture does. The module is the same with or
without pytest installed.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Iterator, Optional

__all__ = ["Parley", "Person", "Faults", "HarnessError", "find_parley", "parley_session"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_SNOWFLAKE = re.compile(r"^[0-9]{17,20}$")
_TRANSCRIPT_LINES = 60


class HarnessError(Exception):
    """A harness call answered non-2xx: ``status`` and the spec's error ``body``."""

    def __init__(self, status: int, body: Any, what: str):
        super().__init__(f"{what}: {status} {json.dumps(body)}")
        self.status = status
        self.body = body


def find_parley(command: Optional[str] = None) -> list[str]:
    """The command line that runs Parley (see the module's docstring for the order)."""
    given = command or os.environ.get("PARLEY_COMMAND")
    if given:
        return shlex.split(given)
    on_path = shutil.which("parley")
    if on_path:
        return [on_path]
    here = os.getcwd()
    while True:
        if os.path.exists(os.path.join(here, "node_modules", ".bin", "parley")) and shutil.which("npx"):
            return ["npx", "--no-install", "parley"]
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    root = os.path.dirname(os.path.dirname(_HERE))
    main = os.path.join(root, "src", "main.ts")
    if os.path.exists(main):
        bun = shutil.which("bun") or os.path.join(root, "node_modules", ".bin", "bun")
        if os.path.exists(bun):
            return [bun, main]
    raise FileNotFoundError("cannot find Parley: put the parley executable on PATH, install it with npm, or set PARLEY_COMMAND")


class Person:
    """The harness acting as one person (named as in the world, or by snowflake)."""

    def __init__(self, parley: "Parley", name: str):
        self._p = parley
        self._u = urllib.parse.quote(name, safe="")

    def say(self, channel: str, content: str, reply_to: Optional[str] = None, embeds: Optional[list] = None) -> dict:
        body: dict = {"channel_id": self._p.channel_id(channel), "content": content}
        if reply_to:
            body["reply_to"] = reply_to
        if embeds:
            body["embeds"] = embeds
        return self._p.harness("POST", f"/users/{self._u}/messages", body)

    def dm(self, recipient: str, content: str) -> dict:
        app = self._p.world["applications"].get(recipient)
        to = app["bot_user_id"] if app else recipient
        return self._p.harness("POST", f"/users/{self._u}/dms", {"recipient_id": to, "content": content})

    def react(self, channel: str, message_id: str, emoji: str) -> None:
        self._p.harness("PUT", f"/users/{self._u}/reactions", {"channel_id": self._p.channel_id(channel), "message_id": message_id, "emoji": emoji})

    def unreact(self, channel: str, message_id: str, emoji: str) -> None:
        self._p.harness("DELETE", f"/users/{self._u}/reactions", {"channel_id": self._p.channel_id(channel), "message_id": message_id, "emoji": emoji})

    def interact(self, **body: Any) -> dict:
        """A slash command (channel_id, application_id, name, options) or a click (channel_id, message_id, custom_id)."""
        if "channel_id" in body:
            body["channel_id"] = self._p.channel_id(body["channel_id"])
        if body.get("application_id") in self._p.world["applications"]:
            body["application_id"] = self._p.world["applications"][body["application_id"]]["id"]
        return self._p.harness("POST", f"/users/{self._u}/interactions", body)


class Faults:
    """Faults on demand (docs/harness.md "Faults"); applications by world name or snowflake."""

    def __init__(self, parley: "Parley"):
        self._p = parley

    def _arm(self, **body: Any) -> dict:
        return self._p.harness("POST", "/faults", {k: v for k, v in body.items() if v is not None})

    def gateway_close(self, app: str, code: Optional[int] = None) -> dict:
        """Close every live session of the application now (4000 by default: the bot should resume)."""
        return self._arm(kind="gateway_close", application_id=self._p.app_id(app), code=code)

    def invalid_session(self, app: str) -> dict:
        """Op 9 (d false) and a plain close for every live session: the bot must identify again."""
        return self._arm(kind="invalid_session", application_id=self._p.app_id(app))

    def drop_heartbeat_acks(self, app: str, drop: int) -> dict:
        """The next ``drop`` heartbeats of each session get no ACK (a zombied connection)."""
        return self._arm(kind="heartbeat_ack", application_id=self._p.app_id(app), drop=drop)

    def rest(self, route: str, status: int, method: Optional[str] = None, app: Optional[str] = None, times: Optional[int] = None,
             retry_after: Optional[float] = None, global_: Optional[bool] = None) -> dict:
        """The next ``times`` (1) matching bot API requests answer ``status`` with the spec's body and headers."""
        return self._arm(kind="rest", route=route, status=status, method=method, application_id=app and self._p.app_id(app),
                         times=times, retry_after=retry_after, **({"global": global_} if global_ is not None else {}))

    def latency(self, ms: int, route: Optional[str] = None, method: Optional[str] = None, app: Optional[str] = None,
                times: Optional[int] = None) -> dict:
        """Delay matching requests (every route when none is given) by ``ms`` real milliseconds."""
        return self._arm(kind="latency", ms=ms, route=route, method=method, application_id=app and self._p.app_id(app), times=times)

    def list(self) -> list:
        return self._p.harness("GET", "/faults")

    def delete(self, fault_id: str) -> None:
        self._p.harness("DELETE", f"/faults/{urllib.parse.quote(fault_id, safe='')}")


class Parley:
    """A Parley server run as a test double, with the world seeded. Use as a context manager."""

    def __init__(self, world: Optional[dict] = None, command: Optional[str] = None, args: tuple = (), start_timeout: float = 20.0,
                 bot: Optional[str] = None):
        self._world_doc = world
        self._cmd = find_parley(command) + ["serve", "--harness", "--port", "0", "--data", ":memory:", *args]
        self._start_timeout = start_timeout
        self._under_test = bot
        self._proc: Optional[subprocess.Popen] = None
        self._bots: list = []
        self.base_url = ""
        self.world: dict = {"users": {}, "guilds": {}, "applications": {}}
        self._tokens: dict = {}
        self.faults = Faults(self)

    # ---- life ----

    def start(self) -> "Parley":
        self._proc = subprocess.Popen(self._cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        found: dict = {}
        reader = threading.Thread(target=self._read_stdout, args=(found,), daemon=True)
        reader.start()
        deadline = time.monotonic() + self._start_timeout
        while "url" not in found:
            if self._proc.poll() is not None or time.monotonic() > deadline:
                err = self._proc.stderr.read() if self._proc.poll() is not None else ""
                self.stop()
                raise RuntimeError(f"parley did not start ({' '.join(self._cmd)}): {err.strip()}")
            time.sleep(0.02)
        threading.Thread(target=self._proc.stderr.read, daemon=True).start()
        self.base_url = found["url"]
        if self._world_doc is not None:
            try:
                self.seed(self._world_doc)
            except Exception:
                self.stop()
                raise
        return self

    def _read_stdout(self, found: dict) -> None:
        for line in self._proc.stdout:  # keeps draining, so the child never blocks on a full pipe
            m = re.search(r"parley listening on (\S+)", line)
            if m and "url" not in found:
                found["url"] = m.group(1)

    def stop(self) -> None:
        """Stop every bot started with run_bot, then the server."""
        for client, thread in self._bots:
            _close_discord_client(client, thread)
        self._bots = []
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def __enter__(self) -> "Parley":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ---- addresses and names ----

    @property
    def api_base(self) -> str:
        return self.base_url + "/api"

    @property
    def rest_base(self) -> str:
        """The v10 REST root, discord.py's ``discord.http.Route.BASE``."""
        return self.base_url + "/api/v10"

    @property
    def gateway_url(self) -> str:
        return re.sub(r"^http", "ws", self.base_url) + "/gateway"

    @property
    def harness_url(self) -> str:
        return self.base_url + "/api/harness/v1"

    def token_of(self, app: str) -> str:
        return self._tokens.get(app) or self.world["applications"][app]["token"]

    def app_id(self, app: str) -> str:
        return app if _SNOWFLAKE.match(app) else self.world["applications"][app]["id"]

    def channel_id(self, ref: str) -> str:
        """A channel's snowflake by name ("general", "Lab/general") or snowflake."""
        if _SNOWFLAKE.match(ref):
            return ref
        guild, _, name = ref.rpartition("/")
        found = [g["channels"][name] for gname, g in self.world["guilds"].items() if (not guild or gname == guild) and name in g["channels"]]
        if len(found) != 1:
            raise KeyError(f"channel '{ref}' is {'ambiguous' if found else 'unknown'}")
        return found[0]

    def person(self, name: str) -> Person:
        return Person(self, name)

    as_ = person

    # ---- the harness ----

    def harness(self, method: str, path: str, body: Any = None) -> Any:
        """One harness call; a non-2xx answer raises HarnessError."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.harness_url + path, data=data, method=method, headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                text = res.read().decode()
                return json.loads(text) if text and "json" in (res.headers.get("Content-Type") or "") else (text or None)
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            raise HarnessError(e.code, json.loads(text) if text else None, f"{method} {path}") from None

    def seed(self, world: dict) -> dict:
        self.world = self.harness("POST", "/seed", world)
        self._tokens = {}
        return self.world

    def reset(self) -> None:
        self.harness("POST", "/reset")
        self.world = {"users": {}, "guilds": {}, "applications": {}}
        self._tokens = {}

    def messages(self, channel: str, as_: Optional[str] = None, limit: Optional[int] = None) -> list:
        """A channel's messages, newest first, full content (as a person sees them with ``as_``)."""
        q = urllib.parse.urlencode({k: v for k, v in (("as", as_), ("limit", limit)) if v is not None})
        return self.harness("GET", f"/channels/{self.channel_id(channel)}/messages" + (f"?{q}" if q else ""))

    def advance_clock(self, ms: int) -> str:
        return self.harness("POST", "/clock", {"advance_ms": ms})["now"]

    def set_clock(self, iso: str) -> str:
        return self.harness("POST", "/clock", {"set": iso})["now"]

    def rotate(self, app: str) -> str:
        token = self.harness("POST", f"/applications/{self.app_id(app)}/rotate")["token"]
        self._tokens[app] = token
        return token

    def sessions(self, app: str) -> list:
        return self.harness("GET", f"/applications/{self.app_id(app)}/sessions")

    def transcript(self, app: str, after: Optional[str] = None) -> dict:
        """Everything between the application and Parley, in order (tokens masked): {entries, cursor}."""
        return self.harness("GET", f"/applications/{self.app_id(app)}/transcript" + (f"?after={after}" if after else ""))

    def transcript_text(self, app: str) -> str:
        return self.harness("GET", f"/applications/{self.app_id(app)}/transcript?format=text") or ""

    # ---- waiting for the bot ----

    def wait_for(self, check: Callable[[], Any], timeout: float = 5.0, interval: float = 0.05, what: str = "wait_for",
                 app: Optional[str] = None) -> Any:
        """Poll ``check`` until it returns something truthy, which is returned; on timeout the error shows the bot's transcript."""
        deadline = time.monotonic() + timeout
        while True:
            got = check()
            if got:
                return got
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: nothing matched within {timeout} s{self._explain(app)}")
            time.sleep(interval)

    def wait_for_message(self, channel: str, match: Callable[[dict], bool], timeout: float = 5.0, as_: Optional[str] = None) -> dict:
        return self.wait_for(lambda: next((m for m in self.messages(channel, as_=as_) if match(m)), None), timeout, what="wait_for_message")

    def wait_for_bot(self, app: str, timeout: float = 15.0) -> None:
        """Until the application's bot has a live gateway session."""
        self.wait_for(lambda: any(s["connected"] for s in self.sessions(app)), timeout, what=f"wait_for_bot({app})", app=app)

    def wait_for_event(self, match: Callable[[dict], bool], timeout: float = 5.0) -> dict:
        """A dispatch sent to a bot session (the harness's long-polled event feed)."""
        deadline = time.monotonic() + timeout
        cursor = getattr(self, "_cursor", None)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"wait_for_event: nothing matched within {timeout} s{self._explain(None)}")
            q = f"?wait_ms={int(min(left, 1.0) * 1000)}" + (f"&after={cursor}" if cursor else "")
            page = self.harness("GET", "/events" + q)
            cursor = self._cursor = page["cursor"]
            hit = next((e for e in page["events"] if match(e)), None)
            if hit:
                return hit

    def _explain(self, app: Optional[str]) -> str:
        apps = [app] if app else [self._under_test] if self._under_test else list(self.world["applications"])
        out = ""
        for name in apps:
            try:
                lines = self.transcript_text(name).rstrip("\n").split("\n")
            except Exception:
                continue
            if lines == [""]:
                continue
            out += f"\n\nTranscript of {name} (last {min(len(lines), _TRANSCRIPT_LINES)} of {len(lines)} entries):\n"
            out += "\n".join(lines[-_TRANSCRIPT_LINES:])
        for client, thread in self._bots:
            if getattr(thread, "error", None):
                out += f"\n\nThe bot's thread failed: {thread.error!r}"
        return out

    # ---- discord.py ----

    def use_discord_py(self) -> None:
        """Point discord.py (2.x) at this server: REST base and gateway URL."""
        import discord
        import yarl

        discord.http.Route.BASE = self.rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def run_bot(self, client: Any, app: str) -> threading.Thread:
        """Run a discord.py Client with the application's token on its own thread; stop() closes it."""
        self.use_discord_py()
        token = self.token_of(app)

        def main() -> None:
            try:
                asyncio.run(client.start(token))
            except Exception as e:  # shown by a wait that times out
                threading.current_thread().error = e  # type: ignore[attr-defined]

        thread = threading.Thread(target=main, name=f"bot {app}", daemon=True)
        thread.start()
        self._bots.append((client, thread))
        return thread


def _close_discord_client(client: Any, thread: threading.Thread) -> None:
    try:
        loop = client.loop
    except AttributeError:  # never got as far as starting
        loop = None
    if loop is not None and loop.is_running():
        try:
            asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=10)
        except Exception:
            pass
    thread.join(timeout=10)


def parley_session(world: Optional[dict] = None, **kw: Any) -> Iterator[Parley]:
    """What the pytest fixture does: a started Parley for one test, stopped after it."""
    p = Parley(world=world, **kw).start()
    try:
        yield p
    finally:
        p.stop()


# The pytest fixtures, for a conftest.py that says ``pytest_plugins = ["parley_testing"]``.
# They exist only under pytest (which has imported itself by the time it loads a plugin),
# and under names of their own: a fixture that took the name of a function here would turn
# it into something only pytest may call, so the module would act differently wherever
# pytest happens to be installed.
_pytest_module = sys.modules.get("pytest")

if _pytest_module is not None:

    @_pytest_module.fixture(name="parley_world")
    def _parley_world_fixture() -> dict:
        """The world the ``parley`` fixture seeds; override it in a test module or conftest.py."""
        return {}

    @_pytest_module.fixture(name="parley")
    def _parley_fixture(parley_world: dict) -> Iterator[Parley]:
        """A Parley with ``parley_world`` seeded, stopped after the test."""
        yield from parley_session(parley_world)
