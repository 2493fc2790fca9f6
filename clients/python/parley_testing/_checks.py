"""Parley's waits, clock, bots and after-the-fact checks (strict mode, snapshots, coverage),
kept apart from the server and world handling in _core.py. A mixin: ``self`` is a Parley."""
from __future__ import annotations

import datetime
import json
import os
import threading
import time
from typing import Any, Callable, Optional, Union

from ._bots import wait_ready
from . import _reports
from ._people import WORLD_LOST

_TRANSCRIPT_LINES = 60
_MAX_STEPS = 100_000


def _instant(iso: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))


def _iso(at: datetime.datetime) -> str:
    return at.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
#: Parley's snowflake epoch (2025-01-01): the README's epoch line for discord.py.
PARLEY_EPOCH = 1735689600000


class Checks:
    # ---- the clock ----

    def advance(self, ms: int, zombie: bool = False) -> str:
        """Move time by ``ms``: the server's clock and the clocks of the bots this Parley runs, from one due bot timer
        to the next, each step left to settle. Live sessions survive. ``zombie``: the bots were silent through the jump,
        so only the server's clock moves and its deadlines fall due (docs/harness.md "The clock and live sessions")."""
        if zombie or not self._bots.live():
            return self.harness("POST", "/clock", {"advance_ms": ms, "zombie": zombie})["now"]
        clock = self._bots.clock
        server = _instant(self.harness("GET", "/clock")["now"])
        if clock.anchor is None:
            clock.anchor_at(server)
        target = server + datetime.timedelta(milliseconds=ms)
        for _ in range(_MAX_STEPS):
            due = self._bots.next_due()
            nxt = target if due is None else min(target, max(clock.server_time(due), server))
            step = round((nxt - server).total_seconds() * 1000)
            if step > 0 or server == target:
                server = _instant(self.harness("POST", "/clock", {"advance_ms": max(step, 0)})["now"])
            # The bots catch up with the server (never back: they may be ahead by the real time they ran).
            self._bots.move(clock.bot_time_at(server) - clock.bot_time())
            self.harness("POST", "/settle", {"quiet_ms": 3, "timeout_ms": 2000})
            if server >= target:
                return _iso(server)
        raise RuntimeError(f"advance: a bot's timers kept falling due ({_MAX_STEPS} steps); is one rescheduling itself at once?")

    def advance_clock(self, ms: int) -> str:
        """Move the server's clock only (the bots' timers stay)."""
        return self.harness("POST", "/clock", {"advance_ms": ms})["now"]

    def set_clock(self, iso: str) -> str:
        return self.harness("POST", "/clock", {"set": iso})["now"]

    # ---- waiting for the bot ----

    def wait_for(self, check: Callable[[], Any], timeout: float = 5.0, interval: float = 0.05, what: str = "wait_for",
                 app: Optional[str] = None, _instead: Optional[Callable[[], str]] = None) -> Any:
        """Poll ``check`` until it returns something truthy, which is returned; on timeout the error shows the bot's transcript."""
        deadline = time.monotonic() + timeout
        while True:
            got = check()
            if got:
                return got
            if time.monotonic() > deadline:
                instead = _instead() if _instead else ""
                raise TimeoutError(f"{what}: nothing matched within {timeout} s{instead}{self._explain(app)}")
            self._sleep(min(interval, max(0.001, deadline - time.monotonic())))

    def _sleep(self, seconds: float) -> None:
        """Sleep on the server: a long poll of the event log, woken the moment a bot is sent anything new."""
        after = self._last_seen or self.cursor()["events"]
        self._last_seen = self.harness("GET", f"/events?after={after}&wait_ms={max(1, int(seconds * 1000))}")["cursor"]

    def wait_for_message(self, channel: str, match: Callable[[dict], bool], timeout: float = 5.0, as_: Optional[str] = None) -> dict:
        seen: list = []

        def check() -> Optional[dict]:
            seen[:] = self.messages(channel, as_=as_)
            return next((m for m in seen if match(m)), None)

        # What the channel held instead, so a failing test shows the near miss ("Pong" for "pong").
        return self.wait_for(check, timeout, interval=0.02, what="wait_for_message", _instead=lambda: _seen_instead(channel, seen))

    def wait_for_bot(self, app: str, timeout: float = 15.0) -> None:
        """Until the application's bot has a live gateway session (start_bot waits for the library's own ready too)."""
        self.wait_for(lambda: any(s["connected"] for s in self.sessions(app)), timeout, interval=0.02, what=f"wait_for_bot({app})", app=app)

    def wait_for_event(self, match: Callable[[dict], bool], timeout: float = 5.0, after: Union[str, dict, None] = None) -> dict:
        """A dispatch sent to a bot session, among those after ``after``: by default the event log as the latest action
        found it (an older event never matches); "start" for every event; or a cursor()."""
        deadline = time.monotonic() + timeout
        if after == "start":
            cursor = "0"
        elif after is not None:
            cursor = after["events"] if isinstance(after, dict) else after
        else:
            cursor = self._last_action or (self._test.mark or {}).get("events") or "0"
        seen: dict = {}  # what the bots were sent instead, by type, for the message of a wait that times out
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"wait_for_event: nothing matched within {timeout} s{_sent_instead(seen)}{self._explain(None)}")
            page = self.harness("GET", f"/events?after={cursor}&wait_ms={max(1, int(min(left, 1.0) * 1000))}")
            cursor = page["cursor"]
            for e in page["events"]:
                seen[e["t"]] = seen.get(e["t"], 0) + 1
            hit = next((e for e in page["events"] if match(e)), None)
            if hit:
                return hit

    def _explain(self, app: Optional[str], after: Optional[str] = None) -> str:
        out = ""
        for name in [app] if app else self._under():
            try:
                lines = self.transcript_text(name, after).rstrip("\n").split("\n")
            except Exception:
                continue
            if lines == [""]:
                continue
            since = "since the test began, " if after else ""
            out += f"\n\nTranscript of {name} ({since}last {min(len(lines), _TRANSCRIPT_LINES)} of {len(lines)} entries):\n"
            out += "\n".join(lines[-_TRANSCRIPT_LINES:])
        for bot in self._bots.all:
            if bot.error is not None:
                out += f"\n\nThe bot's thread failed: {bot.error!r}"
        # Asked after the reads above, which tell whether the world is still this client's.
        return (f"\n\n{WORLD_LOST}" if self.world_lost else "") + out

    # ---- discord.py ----

    def use_discord_py(self) -> None:
        """Point discord.py (2.x) at this server (REST base, gateway URL) and apply the README's epoch line."""
        import discord
        import yarl

        discord.http.Route.BASE = self.rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        discord.utils.DISCORD_EPOCH = PARLEY_EPOCH

    def run_bot(self, client: Any, app: str) -> threading.Thread:
        """Run a discord.py Client with the application's token on a thread of its own (its loop on the bots' clock)."""
        self.use_discord_py()
        if not self._bots.live():
            # The bots' wall clock reads the server's, virtual time (a world's start time) included.
            clock = self.harness("GET", "/clock")
            self._bots.clock.reset()
            if clock["virtual"]:
                self._bots.clock.anchor_at(_instant(clock["now"]))
        bot = self._bots.start(client, self.token_of(app))
        bot.app = app
        return bot.thread

    def start_bot(self, client: Any, app: str, timeout: float = 15.0) -> Any:
        """run_bot, then wait for the library's own ready (``client.is_ready()``, after its GUILD_CREATEs) and the
        live session. stop_bots() (or the pytest fixtures, after each test) stops it; the server keeps running."""
        self.run_bot(client, app)
        wait_ready(self._bots.all[-1], timeout)
        self.wait_for_bot(app, timeout)
        return client

    # ---- after the fact ----

    def mark(self) -> dict:
        """Begin a test: strict mode, failure reports and waits count from here. The pytest fixtures call it."""
        at = self.cursor()
        self._test.mark, self._test.interactions, self._test.allowed, self._test.errors = at, [], [], []
        self._last_action = at["events"]
        return at

    def allow(self, status: int, route: Optional[str] = None, method: Optional[str] = None, app: Optional[str] = None) -> None:
        """Strict mode: an answer the test expects the bot to get (a 4xx it handles), until the next mark()."""
        self._test.allowed.append({"status": status, "route": route, "method": method, "app": app})

    def strict_violations(self) -> list:
        """Strict mode: interactions left unanswered (or answered too late), errors the bot's library logged, and 4xx
        answers the test did not allow, since mark(). Empty when nothing went wrong or strict is off."""
        if not self.strict:
            return []
        out = []
        after = (self._test.mark or {}).get("transcript")
        transcripts = {app: self.transcript(app, after)["entries"] for app in self._under()}
        for iid, what, delivered in self._test.interactions:
            if not delivered:
                out.append(f"{what} never reached the bot (interaction {iid}): the application had no live gateway session when it ran, and "
                           "the spec drops those (start the bot first; after a fault, wait_for_bot)")
                continue
            view = self.interaction(iid)
            if view["state"] == "pending":
                out.append(f"the bot never answered {what} (interaction {iid} is still pending)")
            # Expired with a response: answered in time, later past its 15 minutes; held by a latency fault: the test's doing.
            elif view["state"] == "expired" and view["response"] is None and not _reports.delayed_answer(iid, transcripts.values()):
                out.append(f"the bot did not answer {what} in time (interaction {iid} expired with no response: the 3-second rule, or the bot was not connected)")
        out += [f"the bot's library logged an error: {e}" for e in self._test.errors]
        out += [f"the bot's thread failed: {b.error!r}" for b in self._bots.all if b.error is not None]
        for app, entries in transcripts.items():
            out += _reports.unexpected_4xx(app, entries, self._test.allowed)
        return out

    def failure_report(self) -> str:
        """The transcripts of the bots under test since mark(), for a failing test's report."""
        return self._explain(None, (self._test.mark or {}).get("transcript"))

    def transcript_snapshot(self, app: str, after: Union[str, dict, None] = None, ids: str = "keep", times: bool = True) -> str:
        """The transcript without what varies between runs (heartbeats, session ids, nonces, the address; ids too with
        ids="placeholders"), one line per entry. Ids and times repeat as they are in a world with a start time."""
        return _reports.snapshot_text(self.transcript(app, after)["entries"], self.base_url, ids, times)

    def assert_transcript_snapshot(self, app: str, path: str, **kw: Any) -> None:
        """Compare transcript_snapshot() with the file at ``path``: written when missing (or PARLEY_UPDATE_SNAPSHOTS=1)."""
        diff = _reports.snapshot_compare(path, self.transcript_snapshot(app, **kw), os.environ.get("PARLEY_UPDATE_SNAPSHOTS") == "1")
        if diff is not None:
            raise AssertionError(f"the transcript of {app} differs from {path} (PARLEY_UPDATE_SNAPSHOTS=1 writes it anew):\n{diff}")

    def coverage(self) -> dict:
        """What the run's tests exercised (docs/harness.md "Coverage")."""
        return self.harness("GET", "/coverage")

    def coverage_report(self) -> str:
        return _reports.coverage_text(self.coverage())


def _seen_instead(channel: str, seen: list) -> str:
    """The newest messages a channel held when a wait for one ended, one line each."""
    if not seen:
        return f"; '{channel}' holds no message"
    lines = "".join(f"\n  {m['author']['username']}: {json.dumps(m['content'][:120], ensure_ascii=False)}" for m in seen[:5])
    return f"; the newest in '{channel}' (of {len(seen)}):{lines}"


def _sent_instead(seen: dict) -> str:
    """The dispatches a wait for an event saw and did not match, by type."""
    if not seen:
        return "; the bots were sent nothing meanwhile"
    return "; the bots were sent meanwhile: " + ", ".join(f"{t} x{n}" if n > 1 else t for t, n in seen.items())
