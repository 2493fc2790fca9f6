"""What a test reads after the fact: strict mode's findings, normalised transcripts for
snapshots, and the coverage report (docs/harness.md "Strict mode", "Transcripts",
"Coverage"). The same rules as the TypeScript SDK's."""
from __future__ import annotations

import json
import re
from typing import Any, Optional

_NOISE_OPS = {1, 10, 11}
_KIND = {1: "/", 2: "user menu ", 3: "message menu "}


def _template(t: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", t)


def allows(allowed: dict, entry: dict, app: str) -> bool:
    """Whether an allowance (status, route?, method?, app?) covers a transcript entry."""
    if allowed["status"] != entry["status"]:
        return False
    if allowed.get("method") and allowed["method"].upper() != entry["method"]:
        return False
    if allowed.get("app") and allowed["app"] != app:
        return False
    route = allowed.get("route")
    if not route:
        return True
    route = re.sub(r"^/api/v\d+(?=/)", "", route)
    return _template(route) == _template(entry["route"]) if "{" in route else route == entry["path"]


def _late_by_fault(e: dict) -> bool:
    """"Unknown interaction" for an answer a latency fault held past the interaction's deadline."""
    return bool(e.get("delayed_by")) and isinstance(e.get("response"), dict) and e["response"].get("code") == 10062


def delayed_answer(interaction_id: str, transcripts: Any) -> bool:
    """Whether a latency fault held an answer to the interaction (its callback or a follow-up by its token)."""
    prefix = f"/interactions/{interaction_id}/"
    return any(e["kind"] == "rest" and e.get("delayed_by") and e["path"].startswith(prefix) for entries in transcripts for e in entries)


def unexpected_4xx(app: str, entries: list, allowed: list) -> list:
    out = []
    for e in entries:
        if e["kind"] != "rest" or not 400 <= e["status"] < 500 or e["status"] == 429 or "fault" in e or _late_by_fault(e):
            continue
        if any(allows(a, e, app) for a in allowed):
            continue
        out.append(f"{app} got {e['status']} for {e['method']} {e['path']}: {json.dumps(e['response'], separators=(',', ':'))} "
                   f"(allow it with parley.allow(status={e['status']}, route=\"{e['route']}\") if the bot expects it)")
    return out


def snapshot_text(entries: list, base_url: str, ids: str = "keep", times: bool = True) -> str:
    """One line per entry, without what varies between runs: heartbeats and HELLO, session ids, nonces, the address."""
    sessions: dict = {}

    def session(sid: str) -> str:
        return sessions.setdefault(sid, f"S{len(sessions) + 1}")

    def stable(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: (session(x) if k == "session_id" and isinstance(x, str) else "<nonce>" if k == "nonce" and x is not None else stable(x)) for k, x in v.items()}
        if isinstance(v, list):
            return [stable(x) for x in v]
        return v

    dump = lambda v: json.dumps(stable(v), separators=(",", ":"), ensure_ascii=False)  # noqa: E731
    lines = []
    for e in entries:
        if e["kind"] == "gateway" and e["op"] in _NOISE_OPS:
            continue
        at = f"{e['at']} " if times else ""
        if e["kind"] == "rest":
            lines.append(f"{at}rest {e['method']} {e['path']} -> {e['status']} {dump({'request': e['request'], 'response': e['response']})}")
        else:
            what = f"{e['t']} s={e['s']}" if e["op"] == 0 else f"op {e['op']}"
            arrow = "bot->parley" if e["direction"] == "in" else "parley->bot"
            lines.append(f"{at}gateway {arrow} {session(e['session_id'])} {what} {dump(e['d'])}")
    text = "\n".join(lines).replace(base_url, "<base>").replace(re.sub(r"^http", "ws", base_url), "<gateway-base>")
    if ids == "placeholders":
        seen: dict = {}
        text = re.sub(r"\b\d{17,20}\b", lambda m: seen.setdefault(m.group(0), f"<id:{len(seen) + 1}>"), text)
    return text + ("\n" if lines else "")


def merge_coverage(reports: list) -> dict:
    """Reports of several servers (pytest-xdist workers) as one."""
    out: dict = {}
    for report in reports:
        for name, c in report.get("applications", {}).items():
            m = out.setdefault(name, {"events": {}, "routes": {}, "registered": {}, "used": {}, "sent": set(), "clicked": {}})
            for t, n in c["events"].items():
                m["events"][t] = m["events"].get(t, 0) + n
            for r, v in c["routes"].items():
                mr = m["routes"].setdefault(r, {"calls": 0, "statuses": {}})
                mr["calls"] += v["calls"]
                for s, n in v["statuses"].items():
                    mr["statuses"][s] = mr["statuses"].get(s, 0) + n
            for cmd in c["commands"]["registered"]:
                m["registered"][cmd["name"]] = cmd["type"]
            for k, n in c["commands"]["used"].items():
                m["used"][k] = m["used"].get(k, 0) + n
            m["sent"].update(c["components"]["sent"])
            for k, n in c["components"]["used"].items():
                m["clicked"][k] = m["clicked"].get(k, 0) + n
    return {"applications": {name: {
        "events": m["events"], "routes": m["routes"],
        "commands": {"registered": [{"name": n, "type": t} for n, t in m["registered"].items()], "used": m["used"],
                     "unused": [n for n in m["registered"] if n not in m["used"]]},
        "components": {"sent": sorted(m["sent"]), "used": m["clicked"], "unused": sorted(i for i in m["sent"] if i not in m["clicked"])},
    } for name, m in sorted(out.items())}}


def coverage_text(report: dict) -> str:
    out = ["Parley coverage: what the tests exercised, per bot"]
    apps = report.get("applications", {})
    if not apps:
        out.append("  (no bot did anything)")
    for name, c in apps.items():
        cmds = c["commands"]["registered"]
        kind = {x["name"]: _KIND.get(x["type"], "") for x in cmds}
        used = sum(1 for x in cmds if x["name"] in c["commands"]["used"])
        never = c["commands"]["unused"]
        comps = c["components"]
        out.append(f"  {name}")
        out.append(f"    commands    {used} of {len(cmds)} used" + (f"; never: {', '.join(kind.get(n, '') + n for n in never)}" if never else ""))
        out.append(f"    components  {len(comps['sent']) - len(comps['unused'])} of {len(comps['sent'])} used"
                   + (f"; never: {', '.join(comps['unused'])}" if comps["unused"] else ""))
        out.append("    events      " + (", ".join(f"{t} {n}" for t, n in sorted(c["events"].items())) or "none"))
        routes = [f"{r} {v['calls']} ({', '.join(f'{s}: {n}' for s, n in v['statuses'].items())})" for r, v in sorted(c["routes"].items())]
        out.append("    routes      " + ("\n                ".join(routes) if routes else "none"))
    return "\n".join(out) + "\n"


def snapshot_compare(path: str, text: str, update: bool) -> Optional[str]:
    """None when the file holds `text` (written when missing or on update); else a diff."""
    import difflib
    import os

    if update or not os.path.exists(path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return None
    with open(path, encoding="utf-8") as f:
        want = f.read()
    if want == text:
        return None
    return "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True), path, "this run"))
