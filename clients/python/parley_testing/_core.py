"""The Parley test double: a server (started here, or attached to), the world, waits,
the clock, strict mode and the bots run in this process. See the package's docstring."""
from __future__ import annotations

import atexit
import http.client
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterator, Optional, Union

from ._bots import Bots
from ._checks import Checks
from ._people import WORLD_LOST, Faults, HarnessError, InteractionResult, Person, interaction_result

_HERE = os.path.dirname(os.path.abspath(__file__))
_SNOWFLAKE = re.compile(r"^[0-9]{17,20}$")


def find_parley(command: Optional[str] = None) -> list:
    """The command line that runs Parley: ``command`` or PARLEY_COMMAND; ``parley`` on PATH; ``npx --no-install parley``
    when a node_modules/.bin/parley is installed above the working directory; ``bun src/main.ts`` of a Parley checkout
    this package sits in."""
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
    root = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))
    main = os.path.join(root, "src", "main.ts")
    if os.path.exists(main):
        bun = shutil.which("bun") or os.path.join(root, "node_modules", ".bin", "bun")
        if os.path.exists(bun):
            return [bun, main]
    raise FileNotFoundError(
        "cannot find Parley's server (it runs on Bun, and pip installs only this helper). Either install it with npm in the bot's "
        "repository, where the tests run: `(cd path/to/parley && npm pack)`, then `npm install --save-dev bun "
        "path/to/parley/parley-0.1.0.tgz`; or set PARLEY_COMMAND to a command that runs it, such as "
        "'path/to/parley/node_modules/.bin/bun path/to/parley/src/main.ts' in a clone where `npm install` ran; "
        "or put a `parley` executable on PATH")


def _end(proc: subprocess.Popen) -> None:
    """Stop the server and whatever its command started (npx's child, a script's): the process group on POSIX. Once only:
    the group's id may be another's later."""
    if getattr(proc, "_parley_ended", False):
        return
    group = os.name == "posix"

    def signal_all(sig: int) -> None:
        try:
            os.killpg(proc.pid, sig) if group else proc.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            pass

    def group_alive() -> bool:
        if not group:
            return proc.poll() is None
        try:
            os.killpg(proc.pid, 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    signal_all(signal.SIGTERM)
    deadline = time.monotonic() + 10
    while (proc.poll() is None or group_alive()) and time.monotonic() < deadline:
        time.sleep(0.02)
    if proc.poll() is None or group_alive():
        signal_all(getattr(signal, "SIGKILL", signal.SIGTERM))
    proc.wait()
    proc._parley_ended = True  # type: ignore[attr-defined]


class _TestState:
    """The current test, from mark() on: what strict mode and a failure report look at."""

    def __init__(self) -> None:
        self.mark: Optional[dict] = None
        self.interactions: list = []
        self.allowed: list = []
        self.errors: list = []


class Parley(Checks):
    """A Parley server run as a test double (or one started elsewhere, with ``url``), the world seeded.

    Server options (both ways of running): ``heartbeat_interval`` (ms), ``rate_limits`` ("on", "off" or a dict as
    ``--rate-limits FILE`` takes), ``start_time`` (every world seeded starts then, on the virtual clock),
    ``reference_dms`` (a person's DM to a bot carries its text: a departure from spec 1.6), ``strict`` (default True:
    the 3-second rule, and ``strict_violations()``). Use as a context manager.
    """

    def __init__(self, world: Optional[dict] = None, command: Optional[str] = None, args: tuple = (), start_timeout: float = 20.0,
                 bot: Optional[str] = None, *, strict: bool = True, heartbeat_interval: Optional[int] = None,
                 rate_limits: Union[str, dict, None] = None, start_time: Optional[str] = None, reference_dms: bool = False,
                 url: Optional[str] = None):
        self._world_doc = world
        self._command, self._args, self._start_timeout = command, args, start_timeout
        self._under_test = bot
        self.strict = strict
        self._heartbeat, self._limits, self._start_time, self._reference_dms = heartbeat_interval, rate_limits, start_time, reference_dms
        self._url = url
        self._proc: Optional[subprocess.Popen] = None
        self._scratch: Optional[str] = None
        self._test = _TestState()
        self._last_action: Optional[str] = None
        self._last_seen: Optional[str] = None
        # The server's world (X-Harness-World: its resets and seeds so far) as this client set it up, and as last seen.
        self._own_world: Optional[str] = None
        self._seen_world: Optional[str] = None
        self._bots = Bots(lambda text: self._test.errors.append(text))
        self.base_url = ""
        self.world: dict = {"users": {}, "guilds": {}, "applications": {}}
        self._tokens: dict = {}
        self.faults = Faults(self)

    # ---- life ----

    @classmethod
    def attach(cls, url: str, **kw: Any) -> "Parley":
        """A server started elsewhere (``parley serve --harness``): the same API; stop() leaves it running."""
        return cls(url=url, **kw).start()

    @property
    def attached(self) -> bool:
        return self._url is not None

    def start(self) -> "Parley":
        if self._url is not None:
            self.base_url = re.sub(r"/api/harness/v1/?$", "", self._url.rstrip("/"))
            self.cursor()  # a harness answers there, or this raises
            if self._world_doc is not None:
                self.reset(self._world_doc)
            return self
        self._spawn()
        if self._world_doc is not None:
            try:
                self.seed(self._world_doc)
            except Exception:
                self.stop()
                raise
        return self

    def _spawn(self) -> None:
        cmd = find_parley(self._command) + ["serve", "--harness", "--port", "0", "--data", ":memory:", "--log-level", "warn", *self._args]
        if self._heartbeat is not None:
            cmd += ["--heartbeat-interval", str(self._heartbeat)]
        if isinstance(self._limits, dict):
            self._scratch = tempfile.mkdtemp(prefix="parley-limits-")
            with open(os.path.join(self._scratch, "limits.json"), "w") as f:
                json.dump(self._limits, f)
            cmd += ["--rate-limits", os.path.join(self._scratch, "limits.json")]
        elif self._limits is not None:
            cmd += ["--rate-limits", self._limits]
        # A process group of its own: the command may be a launcher (npx, a shell script) whose server outlives it when
        # only the launcher is signalled, so stop() signals the whole group.
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=os.name == "posix")
        # Out of the terminal's group, Ctrl-C no longer reaches it: a test process that ends without stop() ends it too.
        atexit.register(_end, self._proc)
        found: dict = {}
        threading.Thread(target=self._read_stdout, args=(found,), daemon=True).start()
        deadline = time.monotonic() + self._start_timeout
        while "url" not in found:
            if self._proc.poll() is not None or time.monotonic() > deadline:
                err = self._proc.stderr.read() if self._proc.poll() is not None else ""
                self.stop()
                raise RuntimeError(f"parley did not start ({' '.join(cmd)}): {err.strip()}")
            time.sleep(0.005)
        threading.Thread(target=self._proc.stderr.read, daemon=True).start()
        self.base_url = found["url"]

    def _read_stdout(self, found: dict) -> None:
        for line in self._proc.stdout:  # keeps draining, so the child never blocks on a full pipe
            m = re.search(r"parley listening on (\S+)", line)
            if m and "url" not in found:
                found["url"] = m.group(1)

    def stop_bots(self) -> None:
        """Stop every bot this Parley runs, and wait (up to 10 s) until the server has seen each one's session end, so
        what the test does next meets no bot; the server keeps running."""
        apps = {bot.app for bot in self._bots.all if bot.app}
        self._bots.stop()
        for app in apps:
            try:
                # The library's close returns once its own side is done; the server may not have handled it yet.
                self.wait_for(lambda app=app: not any(s["connected"] for s in self.sessions(app)), 10.0, interval=0.02,
                              what=f"stop_bots({app})")
            except Exception:
                pass  # a server already gone (stop()) or a session that lingers: nothing more to do here

    def stop(self) -> None:
        """Stop the bots, then the server (an attached server keeps running)."""
        self.stop_bots()
        if self._proc:
            _end(self._proc)
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)

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

    def _app(self, app: str) -> dict:
        if app not in self.world["applications"]:
            raise KeyError(f"no application '{app}' in the seeded world (it has {', '.join(self.world['applications']) or 'none'})")
        return self.world["applications"][app]

    def token_of(self, app: str) -> str:
        return self._tokens.get(app) or self._app(app)["token"]

    def app_id(self, app: str) -> str:
        return app if _SNOWFLAKE.match(app) else self._app(app)["id"]

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

    def _under(self) -> list:
        return [self._under_test] if self._under_test else list(self.world["applications"])

    def _default_app(self) -> str:
        names = self._under()
        if len(names) != 1:
            raise KeyError(f"name the application (app=...): the world has {', '.join(names) or 'none'}")
        return names[0]

    # ---- the harness ----

    def harness(self, method: str, path: str, body: Any = None) -> Any:
        """One harness call; a non-2xx answer raises HarnessError."""
        if method != "GET" and path.startswith("/users/"):
            self._let_bots_finish()
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.harness_url + path, data=data, method=method, headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                self._saw_world(res.headers, method == "POST" and path in ("/reset", "/seed"))
                text = res.read().decode()
                at = res.headers.get("X-Event-Cursor")
                if at is not None:
                    self._last_seen = at
                if method != "GET" and not re.match(r"^/(settle|clock|coverage)", path):
                    self._last_action = at or self._last_action
                return json.loads(text) if text and "json" in (res.headers.get("Content-Type") or "") else (text or None)
        except urllib.error.HTTPError as e:
            self._saw_world(e.headers, False)
            text = e.read().decode()
            raise HarnessError(e.code, json.loads(text) if text else None, f"{method} {path}", WORLD_LOST if self.world_lost else None) from None
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as e:
            # The server never answered: say which, and how it ended when this helper started it (killed, crashed).
            raise ConnectionError(f"{method} {path}: {self._unreachable(e)}") from None

    def _unreachable(self, e: Exception) -> str:
        code = self._proc.poll() if self._proc else None
        if code is None:
            return f"the Parley server at {self.base_url} did not answer ({getattr(e, 'reason', e)}): is it still running?"
        return f"the Parley server at {self.base_url} " + (f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}")

    def _let_bots_finish(self) -> None:
        """A person is about to act: first let the bots this helper runs finish what they were answered. A bot listens for the
        answer to its prompt (``wait_for`` after ``send``) only once its prompt's requests are answered, and a person quicker
        than that would go unheard, a race no person wins on the reference. That includes a wait discord.py makes inside a request
        that spent its bucket (a reaction's 250 ms). Bounded: a bot that stays busy (a request held by a long 429) delays the
        action two seconds at most."""
        live = self._bots.live()
        if live and threading.current_thread() not in {b.thread for b in live}:
            try:
                self._bots.settle(timeout=2.0)
            except Exception:  # a bot whose loop is blocked, or gone meanwhile: the person acts anyway
                pass

    @property
    def world_lost(self) -> bool:
        """Whether something else (another test run on this server) reset or seeded the world since this client last did, or first called."""
        return self._own_world is not None and self._seen_world != self._own_world

    def _saw_world(self, headers: Any, own_reset: bool) -> None:
        world = headers.get("X-Harness-World") if headers is not None else None
        if world is None:
            return
        self._seen_world = world
        if own_reset or self._own_world is None:
            self._own_world = world

    def seed(self, world: dict) -> dict:
        """Seed a world, with this Parley's world options (strict's deadline, start time, reference DMs)."""
        doc = {**({"interaction_deadline": True} if self.strict else {}), **({"reference_dms": True} if self._reference_dms else {}),
               **({"start_time": self._start_time} if self._start_time else {}), **world}
        self.world = self.harness("POST", "/seed", doc)
        self._tokens = {}
        return self.world

    def reset(self, world: Optional[dict] = None) -> None:
        """Empty the world (and seed ``world`` again, if given)."""
        self.harness("POST", "/reset")
        # The server's clock is real again; so is the bots', once none runs on it.
        if not self._bots.live():
            self._bots.clock.reset()
        self.world = {"users": {}, "guilds": {}, "applications": {}}
        self._tokens = {}
        self._last_action = self._last_seen = None
        if world is not None:
            self.seed(world)

    def messages(self, channel: str, as_: Optional[str] = None, limit: Optional[int] = None) -> list:
        """A channel's messages, newest first, full content (as a person sees them with ``as_``)."""
        q = urllib.parse.urlencode({k: v for k, v in (("as", as_), ("limit", limit)) if v is not None})
        return self.harness("GET", f"/channels/{self.channel_id(channel)}/messages" + (f"?{q}" if q else ""))

    def rotate(self, app: str) -> str:
        token = self.harness("POST", f"/applications/{self.app_id(app)}/rotate")["token"]
        self._tokens[app] = token
        return token

    def sessions(self, app: str) -> list:
        return self.harness("GET", f"/applications/{self.app_id(app)}/sessions")

    def cursor(self) -> dict:
        """Where the event log and the transcripts stand now: {"events", "transcript"}."""
        return self.harness("GET", "/cursor")

    def interaction(self, interaction_id: str) -> dict:
        """What became of an interaction: state, response, followups."""
        return {"id": interaction_id, **self.harness("GET", f"/interactions/{interaction_id}")}

    def wait_for_interaction(self, interaction_id: str, state: Union[str, tuple], timeout: float = 5.0) -> InteractionResult:
        states = (state,) if isinstance(state, str) else tuple(state)
        self.wait_for(lambda: self.interaction(interaction_id)["state"] in states, timeout, interval=0.02,
                      what=f"wait_for_interaction({interaction_id}, {'|'.join(states)})")
        return self._interaction_result(interaction_id, True)

    def _interaction_result(self, interaction_id: str, delivered: bool) -> InteractionResult:
        callback = None
        for app in self.world["applications"]:
            for e in self.transcript(app, after=(self._test.mark or {}).get("transcript"))["entries"]:
                if e["kind"] == "rest" and e["path"].startswith(f"/interactions/{interaction_id}/") and e["path"].endswith("/callback") and e["status"] < 300:
                    callback = (e["request"] or {}).get("type")
                    break
        return interaction_result(self.interaction(interaction_id), delivered, callback)

    def _settle(self) -> None:
        """Let requests in flight be answered: a write is seen before its answer is transcribed."""
        self.harness("POST", "/settle", {"quiet_ms": 0, "timeout_ms": 1000})

    def transcript(self, app: str, after: Union[str, dict, None] = None) -> dict:
        """Everything between the application and Parley, in order (tokens masked): {entries, cursor}."""
        self._settle()
        at = after.get("transcript") if isinstance(after, dict) else after
        return self.harness("GET", f"/applications/{self.app_id(app)}/transcript" + (f"?after={at}" if at else ""))

    def transcript_text(self, app: str, after: Union[str, dict, None] = None) -> str:
        self._settle()
        at = after.get("transcript") if isinstance(after, dict) else after
        return self.harness("GET", f"/applications/{self.app_id(app)}/transcript?format=text" + (f"&after={at}" if at else "")) or ""



def parley_session(world: Optional[dict] = None, **kw: Any) -> Iterator[Parley]:
    """A started Parley for one use, stopped after it (a generator, as a fixture is)."""
    p = Parley(world=world, **kw).start()
    try:
        yield p
    finally:
        p.stop()
