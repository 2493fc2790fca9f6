"""discord.py bots run by the helper in this process: each on a thread with its own event
loop, whose clock the helper moves with the server's (``Parley.advance``), whose errors
(anything the ``discord`` logger reports at ERROR) count against the test in strict mode,
and which stop without the server.

The clock: the loops' ``time()`` (asyncio's, so sleeps, ``call_later``, ``wait_for`` and
``tasks.loop``) and discord.py's idea of the wall clock (``utils.utcnow``,
``compute_timedelta`` and ``tasks``' own ``datetime.now``) move by what the test advances,
in steps from one due timer to the next, each left to settle. I/O deadlines (aiohttp's and
async_timeout's, asyncio.timeout's) keep real time: they watch the wire, not the bot.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import heapq
import logging
import os
import sysconfig
import threading
import time
import traceback
import types
from typing import Any, Callable, Optional

#: Timer callbacks that are I/O deadlines, by (module, class) of the object they belong to.
_TRANSPORT = {("async_timeout", "Timeout"), ("asyncio.timeouts", "Timeout"), ("aiohttp.helpers", "TimeoutHandle")}


def _is_transport(handle: asyncio.TimerHandle) -> bool:
    owner = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
    return owner is not None and (type(owner).__module__, type(owner).__name__) in _TRANSPORT


class BotClock:
    """The bots' clock: their loops' time() (time.monotonic() plus what the test moved them by)
    and, tied to it, their wall clock. Once anchored to the server's virtual clock, the wall
    clock reads the server's time as of the anchor plus the bots' time since: a timer a bot
    sets for 10:00 falls due when the server's clock, stepped with it, reads 10:00."""

    #: discord.py's functions are patched once per process; they read the clock installed last.
    current: Optional["BotClock"] = None

    def __init__(self) -> None:
        self.mono = 0.0  # seconds added to each loop's time()
        self.anchor: Optional[tuple] = None  # (the server's time, the bots' time() then)

    def bot_time(self) -> float:
        return time.monotonic() + self.mono

    def now(self) -> datetime.datetime:
        if self.anchor is not None:
            return self.anchor[0] + datetime.timedelta(seconds=self.bot_time() - self.anchor[1])
        return datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=self.mono)

    def anchor_at(self, server_now: datetime.datetime) -> None:
        self.anchor = (server_now, self.bot_time())

    def server_time(self, loop_time: float) -> datetime.datetime:
        """The server's time that a moment of the bots' time() stands for (anchored)."""
        return self.anchor[0] + datetime.timedelta(seconds=loop_time - self.anchor[1])  # type: ignore[index]

    def bot_time_at(self, server_now: datetime.datetime) -> float:
        return self.anchor[1] + (server_now - self.anchor[0]).total_seconds()  # type: ignore[index]

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        real = loop.time
        loop.time = lambda: real() + self.mono  # type: ignore[method-assign]
        if BotClock.current is None:
            _patch_discord()
        BotClock.current = self

    def reset(self) -> None:
        """Real time again (a world reset); only while no bot runs on this clock."""
        self.mono = 0.0
        self.anchor = None


def _now() -> datetime.datetime:
    clock = BotClock.current
    return clock.now() if clock else datetime.datetime.now(datetime.timezone.utc)


def _patch_discord() -> None:
    import discord.utils
    import discord.ext.tasks as tasks

    def utcnow() -> datetime.datetime:
        return _now()

    def compute_timedelta(dt: datetime.datetime) -> float:
        if dt.tzinfo is None:
            dt = dt.astimezone()
        return max((dt - _now()).total_seconds(), 0)

    class ClockDatetime(datetime.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:  # type: ignore[override]
            return _now().astimezone(tz) if tz else _now().astimezone().replace(tzinfo=None)

    discord.utils.utcnow = utcnow
    discord.utils.compute_timedelta = compute_timedelta
    shifted = {k: getattr(datetime, k) for k in dir(datetime) if not k.startswith("__")}
    shifted["datetime"] = ClockDatetime
    tasks.datetime = types.SimpleNamespace(**shifted)


class _ErrorLog(logging.Handler):
    """ERROR records of the ``discord`` logger: the library reporting a bot's failure. Not its
    reconnects: discord.py logs each at ERROR, but riding out a dropped connection is its job."""

    def __init__(self, sink: Callable[[str], None]):
        super().__init__(logging.ERROR)
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.name == "discord.client" and text.startswith("Attempting a reconnect"):
            return
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
            at = _own_frame(record.exc_info[2])
            if at:
                text += f"\n      at {at}"
        self._sink(text)


def _own_frame(tb: Any) -> Optional[str]:
    """Where the bot's own code raised: the innermost frame outside the installed packages and the standard library, so a bot
    with many handlers says which one threw."""
    skip = tuple(p for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]} if p)
    own = [f for f in traceback.extract_tb(tb) if not f.filename.startswith(skip) and "-packages" + os.sep not in f.filename]
    return f"{own[-1].filename}:{own[-1].lineno} in {own[-1].name}" if own else None


class Bot:
    """One discord.py client on its own thread and loop, its REST requests in flight counted."""

    def __init__(self, client: Any, token: str, clock: BotClock):
        self.client = client
        #: The application it runs as (run_bot names it), so stop_bots can wait for the server to see it go.
        self.app: Optional[str] = None
        self.loop = asyncio.new_event_loop()
        clock.install(self.loop)
        self.error: Optional[BaseException] = None
        self.in_flight = 0
        self._count_requests()
        self.thread = threading.Thread(target=self._main, args=(token,), name="parley bot", daemon=True)

    def _count_requests(self) -> None:
        http = getattr(self.client, "http", None)
        request = getattr(http, "request", None)
        if request is None:
            return

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.in_flight += 1
            try:
                return await request(*args, **kwargs)
            finally:
                self.in_flight -= 1

        http.request = counted

    def _main(self, token: str) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.client.start(token))
        except BaseException as e:  # shown by strict mode and by a wait that times out
            self.error = e
        finally:
            # What the bot left running (a tasks.loop, a background task) ends with it.
            left = asyncio.all_tasks(self.loop)
            for task in left:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` on the bot's loop (between its callbacks) and answer what it returned."""
        done: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn())
            except BaseException as e:
                done.set_exception(e)

        self.loop.call_soon_threadsafe(run)
        return done.result(timeout)

    @property
    def running(self) -> bool:
        return self.thread.is_alive() and not self.loop.is_closed()

    def stop(self) -> None:
        if self.running:
            try:
                asyncio.run_coroutine_threadsafe(self.client.close(), self.loop).result(timeout=10)
            except Exception:
                pass
        self.thread.join(timeout=10)


class Bots:
    """The bots of one Parley: started, watched, moved in time, stopped."""

    def __init__(self, errors: Callable[[str], None]):
        self.clock = BotClock()
        self.all: list = []
        self._log = _ErrorLog(errors)

    def start(self, client: Any, token: str) -> Bot:
        if not self.all:
            logging.getLogger("discord").addHandler(self._log)
        bot = Bot(client, token, self.clock)
        self.all.append(bot)
        bot.thread.start()
        return bot

    def stop(self) -> None:
        for bot in self.all:
            bot.stop()
        self.all = []
        logging.getLogger("discord").removeHandler(self._log)

    def live(self) -> list:
        return [b for b in self.all if b.running]

    def next_due(self) -> Optional[float]:
        """The bots' time() at which their earliest timer that is not an I/O deadline falls due (None: none)."""
        due = [d for b in self.live() for d in [b.call(lambda b=b: _earliest(b.loop))] if d is not None]
        return min(due) if due else None

    def move(self, seconds: float) -> None:
        """Move every bot's clock by ``seconds`` (their I/O deadlines stay where they are), then let them settle."""
        if seconds > 0:
            for b in self.live():
                b.call(lambda b=b: _postpone_transport(b.loop, seconds))
            self.clock.mono += seconds
        self.settle()

    def settle(self, timeout: float = 2.0) -> None:
        """Until every bot's loop is idle (nothing ready to run, no timer due) with no REST request in flight:
        what its due timers started has run as far as it can without the server."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(b.call(lambda b=b: _idle(b.loop)) for b in self.live()) and all(b.in_flight == 0 for b in self.live()):
                return
            time.sleep(0.0005)


def _earliest(loop: asyncio.AbstractEventLoop) -> Optional[float]:
    """Run on the loop: when its next timer (not an I/O deadline) falls due; now, if a fired one's work is still to run."""
    if not _idle(loop):
        return loop.time()
    timers = [h for h in loop._scheduled if not h.cancelled() and not _is_transport(h)]  # type: ignore[attr-defined]
    return min(h.when() for h in timers) if timers else None


def _idle(loop: asyncio.AbstractEventLoop) -> bool:
    """Run on the loop: nothing else ready (but its wake-up reader), and no timer due."""
    wake = getattr(loop, "_read_from_self", None)
    ready = [h for h in loop._ready if not h.cancelled() and h._callback != wake]  # type: ignore[attr-defined]
    due = [h for h in loop._scheduled if not h.cancelled() and h.when() <= loop.time()]  # type: ignore[attr-defined]
    return not ready and not due


def _postpone_transport(loop: asyncio.AbstractEventLoop, seconds: float) -> None:
    for h in loop._scheduled:  # type: ignore[attr-defined]
        if _is_transport(h):
            h._when += seconds  # type: ignore[attr-defined]
    heapq.heapify(loop._scheduled)  # type: ignore[attr-defined]


def wait_ready(bot: Bot, timeout: float) -> None:
    """Until the client's own ready (discord.py's ``is_ready()``, after its GUILD_CREATEs)."""
    deadline = time.monotonic() + timeout
    while not bot.client.is_ready():
        if bot.error is not None:
            raise RuntimeError(f"the bot stopped before it was ready: {bot.error!r}") from bot.error
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot was not ready within {timeout} s")
        time.sleep(0.01)
