"""The Python helper's people, as the TypeScript SDK's: every Person method of
src/testing/person-types.ts has its Python twin, and the ones that act on the world
(invite, join, leave, device, use_on, a DM with files) do what the harness says.
Prints one JSON object; the suite asserts on it.

Usage: PYTHONPATH=clients/python py_people_check.py path/to/person-types.ts
"""
import json
import re
import sys

from parley_testing import HarnessError, Parley, Person

# The TypeScript names a Python twin spells otherwise (typing: `type` is a builtin).
RENAMED = {"type": "typing"}


def snake(name):
    return RENAMED.get(name) or re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


source = open(sys.argv[1]).read()
body = re.search(r"export interface Person \{(.*?)\n\}", source, re.S).group(1)
ts = sorted(set(re.findall(r"^  (\w+)\(", body, re.M)))
missing = [f"{n} ({snake(n)})" for n in ts if not callable(getattr(Person, snake(n), None))]

WORLD = {
    "users": [{"name": "alice"}, {"name": "bob"}, {"name": "carol"}],
    "guilds": [{"name": "Lab", "owner": "alice", "members": ["bob"]}],
    "applications": [{"name": "EchoBot", "owner": "alice", "install": ["Lab"], "intents": ["GUILDS"]}],
}
got = {"missing": missing}
with Parley(world=WORLD, strict=False) as parley:
    alice, carol = parley.person("alice"), parley.person("carol")
    # the twins found below by name are missing here: say which, before the first of them fails
    if missing:
        print(json.dumps({"missing": missing}))
        sys.exit(0)
    code = alice.invite("general", max_uses=1)
    got["joined"] = carol.join(code) == parley.world["guilds"]["Lab"]["id"]
    try:
        parley.person("bob").join(code)
    except HarnessError as e:
        got["used_up"] = e.status
    carol.leave("Lab")
    try:
        carol.say("general", "still here?")
    except HarnessError as e:
        got["left"] = e.status
    got["device"] = sorted(carol.device())
    dm = alice.dm("bob", "", files=[{"name": "note.txt", "data": "hello", "description": "a note"}])
    seen = parley.messages(dm["channel_id"], as_="bob")[0]["service_e2e_files"][0]
    got["dm_file"] = [seen["filename"], seen["description"], seen["size"]]
    said = alice.say("general", "look", files=[{"name": "a.png", "data": b"\x89PNG", "spoiler": True}])
    got["spoiler"] = parley.messages("general")[0]["attachments"][0].get("flags", 0) & 8
    try:  # no such command registered: the harness refuses it, as for any person
        alice.use_on("general", "EchoBot", "Profile", user="bob")
    except HarnessError as e:
        got["use_on"] = [e.status, e.body["code"]]
print(json.dumps(got))

# Two runs on one server: the one whose world the other reset says so.
with Parley(world=WORLD, strict=False) as first:
    second = Parley.attach(first.base_url, world=WORLD, strict=False)
    try:
        first.person("alice").say("general", "hello")
    except HarnessError as e:
        lost = str(e)
    second.person("alice").say("general", "hello")
    first.reset(WORLD)
    first.person("alice").say("general", "again")
print(json.dumps({"world_lost": lost}))
