"""The people a test plays (docs/harness.md), faults on demand, and what interactions came to."""
from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any, Optional, Union

if TYPE_CHECKING:
    from ._core import Parley

_DEFERRALS = (5, 6)


# What a refusal means when the world this client seeded was reset under it.
WORLD_LOST = ("The world this test seeded is gone: something else reset this server or seeded into it (another test run on it?). A server holds one world "
              "at a time: give each parallel run its own server (Parley(), one per xdist worker), or run the tests against it one after another.")


class HarnessError(Exception):
    """A harness call answered non-2xx: ``status`` and the spec's error ``body``."""

    def __init__(self, status: int, body: Any, what: str, note: Optional[str] = None):
        super().__init__(f"{what}: {status} {json.dumps(body)}" + (f"\n{note}" if note else ""))
        self.status = status
        self.body = body


class InteractionResult(dict):
    """What a slash command, click, menu choice or context-menu command came to.

    A dict with the harness's ``id``, ``state``, ``response`` and ``followups``, plus
    ``delivered``, ``ephemeral``, ``deferred`` and ``callback_type``; also as attributes.
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Person:
    """The harness acting as one person (named as in the world, or by snowflake)."""

    def __init__(self, parley: "Parley", name: str):
        self._p = parley
        self._u = urllib.parse.quote(name, safe="")
        self._session: Optional[dict] = None

    def say(self, channel: str, content: str, reply_to: Optional[str] = None, embeds: Optional[list] = None, files: Optional[list] = None) -> dict:
        """files: [{"name": "a.png", "data": bytes or str, "description": optional alt text, "spoiler": optional}]."""
        body: dict = {"channel_id": self._p.channel_id(channel), "content": content}
        if files:
            body["files"] = [_file(f) for f in files]
        if reply_to:
            body["reply_to"] = reply_to
        if embeds:
            body["embeds"] = embeds
        return self._p.harness("POST", f"/users/{self._u}/messages", body)

    def dm(self, recipient: str, content: str, files: Optional[list] = None) -> dict:
        """A direct message to a person or a bot (name or snowflake), files as for ``say``; the harness encrypts it all as the person's device."""
        app = self._p.world["applications"].get(recipient)
        body: dict = {"recipient_id": app["bot_user_id"] if app else recipient, "content": content}
        if files:
            body["files"] = [_file(f) for f in files]
        return self._p.harness("POST", f"/users/{self._u}/dms", body)

    def device(self) -> dict:
        """The person's harness device (made on first use): make it before a browser sends the person a DM the test will read."""
        return self._p.harness("POST", f"/users/{self._u}/device")

    def react(self, channel: str, message_id: str, emoji: str) -> None:
        self._p.harness("PUT", f"/users/{self._u}/reactions", {"channel_id": self._p.channel_id(channel), "message_id": message_id, "emoji": emoji})

    def unreact(self, channel: str, message_id: str, emoji: str) -> None:
        self._p.harness("DELETE", f"/users/{self._u}/reactions", {"channel_id": self._p.channel_id(channel), "message_id": message_id, "emoji": emoji})

    def pin(self, channel: str, message_id: str) -> None:
        """Pin a message (the person needs Manage Messages): bots see the type 6 notice and the message's update."""
        self._p.harness("PUT", f"/users/{self._u}/pins", {"channel_id": self._p.channel_id(channel), "message_id": message_id})

    def unpin(self, channel: str, message_id: str) -> None:
        self._p.harness("DELETE", f"/users/{self._u}/pins", {"channel_id": self._p.channel_id(channel), "message_id": message_id})

    def session(self) -> dict:
        """A people's API session for this person (test mode): ``{"token", "user_id"}``, the token for ``Authorization: Session <token>``."""
        if self._session is None:
            self._session = self._p.harness("POST", f"/users/{self._u}/session")
        return self._session

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Any people's API route (/api/client/v1) as this person, as the web client calls it; non-2xx raises HarnessError."""
        token = self.session()["token"]
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Session {token}", **({"Content-Type": "application/json"} if data else {})}
        req = urllib.request.Request(self._p.base_url + "/api/client/v1" + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                text = res.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            raise HarnessError(e.code, json.loads(text) if text else None, f"{method} {path}") from None

    def edit(self, message_id: str, content: str) -> None:
        self._p.harness("PATCH", f"/users/{self._u}/messages/{message_id}", {"content": content})

    def delete(self, message_id: str) -> None:
        self._p.harness("DELETE", f"/users/{self._u}/messages/{message_id}")

    def typing(self, channel: str) -> None:
        self._p.harness("POST", f"/users/{self._u}/typing", {"channel_id": self._p.channel_id(channel)})

    def invite(self, channel: str, max_age: Optional[int] = None, max_uses: Optional[int] = None) -> str:
        """Make an invite to a channel's server; answers its code."""
        body = {"channel_id": self._p.channel_id(channel), "max_age": max_age, "max_uses": max_uses}
        return self._p.harness("POST", f"/users/{self._u}/invites", {k: v for k, v in body.items() if v is not None})["code"]

    def join(self, code: str) -> str:
        """Join a server by invite code (bots see GUILD_MEMBER_ADD); answers the server's snowflake."""
        return self._p.harness("POST", f"/users/{self._u}/invites/{urllib.parse.quote(code, safe='')}")["guild_id"]

    def leave(self, guild: str) -> None:
        """Leave a server, by name from the world or snowflake (bots see GUILD_MEMBER_REMOVE)."""
        known = self._p.world["guilds"].get(guild)
        self._p.harness("DELETE", f"/users/{self._u}/guilds/{known['id'] if known else urllib.parse.quote(guild, safe='')}")

    def interact(self, **body: Any) -> dict:
        """A slash command (channel_id, application_id, name, options) or a click (channel_id, message_id, custom_id), raw: answers at once."""
        if "channel_id" in body:
            body["channel_id"] = self._p.channel_id(body["channel_id"])
        if body.get("application_id") in self._p.world["applications"]:
            body["application_id"] = self._p.world["applications"][body["application_id"]]["id"]
        got = self._p.harness("POST", f"/users/{self._u}/interactions", body)
        self._p._test.interactions.append((got["id"], f"/{body['name']}" if "name" in body else f"a click on '{body.get('custom_id')}'",
                                           got["delivered"]))
        return got

    def use_on(self, channel: str, app: str, name: str, user: Optional[str] = None, message: Optional[str] = None) -> dict:
        """A context-menu command on a user or a message, raw: answers ``{"id", "delivered"}`` at once (context_menu waits)."""
        body = {"channel_id": self._p.channel_id(channel), "application_id": self._p.app_id(app), "name": name,
                "type": 2 if user else 3, "target_id": user or message}
        got = self._p.harness("POST", f"/users/{self._u}/interactions", body)
        self._p._test.interactions.append((got["id"], f"'{name}' on {user or message}", got["delivered"]))
        return got

    # ---- interactions that wait for the bot's answer ----

    def slash(self, channel: str, name: str, options: Union[dict, list, None] = None, app: Optional[str] = None, timeout: float = 5.0,
              until: str = "answered") -> InteractionResult:
        """Run a slash command (options as {name: value} or the raw list); waits for the bot's answer."""
        body: dict = {"channel_id": self._p.channel_id(channel), "application_id": self._p.app_id(app or self._p._default_app()), "name": name, "type": 1}
        if options is not None:
            body["options"] = [{"name": k, "value": v} for k, v in options.items()] if isinstance(options, dict) else options
        return self._run(f"/{name} in {channel}", body, timeout, until)

    def click(self, channel: str, message_id: str, custom_id: str, timeout: float = 5.0, until: str = "answered") -> InteractionResult:
        """Click a button on a message; waits for the bot's answer."""
        body = {"channel_id": self._p.channel_id(channel), "message_id": message_id, "custom_id": custom_id}
        return self._run(f"a click on '{custom_id}'", body, timeout, until)

    def select(self, channel: str, message_id: str, custom_id: str, values: list, timeout: float = 5.0, until: str = "answered") -> InteractionResult:
        """Choose values in a select menu on a message; waits for the bot's answer."""
        body = {"channel_id": self._p.channel_id(channel), "message_id": message_id, "custom_id": custom_id, "values": values}
        return self._run(f"a choice of {values} in '{custom_id}'", body, timeout, until)

    def context_menu(self, channel: str, name: str, user: Optional[str] = None, message: Optional[str] = None, app: Optional[str] = None,
                     timeout: float = 5.0, until: str = "answered") -> InteractionResult:
        """Run a context-menu command on a user (seed name or snowflake) or a message; waits for the bot's answer."""
        body = {"channel_id": self._p.channel_id(channel), "application_id": self._p.app_id(app or self._p._default_app()), "name": name,
                "type": 2 if user else 3, "target_id": user or message}
        return self._run(f"'{name}' on {user or message}", body, timeout, until)

    def _post_command(self, what: str, body: dict, timeout: float) -> dict:
        """Post a command, waiting up to ``timeout`` while the bot has not registered it: a bot registers its own commands once
        ready (``tree.sync()``), so a test that runs one right after ``start_bot`` would otherwise fail or pass by the race."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._p.harness("POST", f"/users/{self._u}/interactions", body)
            except HarnessError as e:
                if not _unknown_command(e):
                    raise
                if time.monotonic() >= deadline:
                    # No bot running at all is the likelier cause then: a misspelt name is not.
                    live = any(s["connected"] for s in self._p.harness("GET", f"/applications/{body['application_id']}/sessions"))
                    cause = ("check the name, and that the bot registers it" if live
                             else "and the bot is not running (no live gateway session): start_bot() it first")
                    raise HarnessError(e.status, e.body, f"{what}: the bot has no command '{body['name']}' (still none after {timeout} s; "
                                       f"a bot registers its own commands, with tree.sync() once ready: {cause})") from None
                time.sleep(0.05)

    def _run(self, what: str, body: dict, timeout: float, until: str) -> InteractionResult:
        if "name" in body:
            got = self._post_command(what, body, timeout)
        else:
            got = self._p.harness("POST", f"/users/{self._u}/interactions", body)
        self._p._test.interactions.append((got["id"], what, got["delivered"]))
        if not got["delivered"]:
            return self._p._interaction_result(got["id"], False)
        states = ("responded", "expired") if until == "responded" else ("deferred", "responded", "expired")
        try:
            self._p.wait_for(lambda: self._p.interaction(got["id"])["state"] in states, timeout, interval=0.02, what=f"{what}")
        except TimeoutError:
            pass  # answered as it is: still pending (strict mode reports it)
        return self._p._interaction_result(got["id"], True)


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

    def rest(self, route: Optional[str] = None, status: int = 500, method: Optional[str] = None, app: Optional[str] = None,
             times: Optional[int] = None, retry_after: Optional[float] = None, global_: Optional[bool] = None, path: Optional[str] = None) -> dict:
        """The next ``times`` (1) matching bot API requests answer ``status``: a route template, or one concrete ``path``."""
        return self._arm(kind="rest", route=route, path=path, status=status, method=method, application_id=app and self._p.app_id(app),
                         times=times, retry_after=retry_after, **({"global": global_} if global_ is not None else {}))

    def latency(self, ms: int, route: Optional[str] = None, method: Optional[str] = None, app: Optional[str] = None,
                times: Optional[int] = None, path: Optional[str] = None) -> dict:
        """Delay matching requests (every route when none is given) by ``ms`` real milliseconds."""
        return self._arm(kind="latency", ms=ms, route=route, path=path, method=method, application_id=app and self._p.app_id(app), times=times)

    def list(self) -> list:
        return self._p.harness("GET", "/faults")

    def delete(self, fault_id: str) -> None:
        self._p.harness("DELETE", f"/faults/{urllib.parse.quote(fault_id, safe='')}")


def _unknown_command(e: HarnessError) -> bool:
    """The harness's refusal of a command the application has not registered (400/50035 APPLICATION_COMMAND_UNKNOWN on ``name``)."""
    errors = ((e.body or {}).get("errors") or {}).get("name", {}).get("_errors", []) if isinstance(e.body, dict) else []
    return e.status == 400 and any(x.get("code") == "APPLICATION_COMMAND_UNKNOWN" for x in errors)


def interaction_result(view: dict, delivered: bool, callback_type: Optional[int]) -> InteractionResult:
    response = view.get("response")
    return InteractionResult(view, delivered=delivered, ephemeral=bool(response and response["flags"] & 64),
                             deferred=callback_type in _DEFERRALS, callback_type=callback_type)


def _file(f: dict) -> dict:
    """A file as the harness takes it: its bytes as base64 (text as UTF-8)."""
    data = f["data"].encode("utf-8") if isinstance(f["data"], str) else f["data"]
    out = {"name": f["name"], "data": base64.b64encode(data).decode("ascii")}
    if f.get("description"):
        out["description"] = f["description"]
    if f.get("spoiler"):
        out["spoiler"] = True
    return out
