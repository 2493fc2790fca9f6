"""MatrixBot: a discord.py 2.2 bot written the way its users write one (commands.Bot with
prefix commands, app_commands, views, event listeners), for the compatibility matrix.
People drive it through the harness; it reports what the library saw as one JSON object
per stdout line: {"event": ...} for gateway events, {"scenario": ...} for a finished step.

Usage: py_matrix_bot.py BASE GATEWAY TOKEN GUILD_ID EPOCH_SHIM

EPOCH_SHIM is the documented one-line fix for Parley's 2025 snowflake epoch
(test/compat/epoch.ts); "!epoch shim" runs it, "!epoch reference" puts discord.py's own
epoch back, so one bot shows both sides.
"""
import asyncio
import json
import sys

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

base, gateway, token, guild_id, epoch_shim = sys.argv[1:6]
REFERENCE_EPOCH = discord.utils.DISCORD_EPOCH
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
GUILD = discord.Object(int(guild_id))


def emit(**kw):
    print(json.dumps(kw, default=str), flush=True)


def error_of(e):
    out = {"type": type(e).__name__, "text": str(e)}
    if isinstance(e, discord.HTTPException):
        out.update(status=e.status, code=e.code)
    return out


intents = discord.Intents.none()
intents.guilds = True
intents.members = True
intents.guild_messages = True
intents.message_content = True
intents.guild_reactions = True
intents.guild_typing = True
intents.dm_messages = True


class MatrixBot(commands.Bot):
    def __init__(self):
        # Parley answers REQUEST_GUILD_MEMBERS with nothing (spec 6.1): GUILD_CREATE
        # already carries every member, so chunking at start-up would only wait.
        super().__init__(command_prefix="!", intents=intents, chunk_guilds_at_startup=False, help_command=None)
        self.token_dead = False

    async def setup_hook(self):
        self.add_view(Panel())
        synced = await self.tree.sync(guild=GUILD)
        emit(event="synced", commands=sorted(c.name for c in synced))
        app = await self.application_info()
        emit(event="app", id=str(app.id), name=app.name, owner=str(app.owner.id))


bot = MatrixBot()


# ---- gateway events ----


@bot.event
async def on_ready():
    g = bot.get_guild(int(guild_id))
    emit(
        event="ready",
        session=bot.ws.session_id,
        user=str(bot.user.id),
        bot=bot.user.bot,
        guilds=[str(x.id) for x in bot.guilds],
        guild={
            "name": g.name,
            "unavailable": g.unavailable,
            "channels": sorted(c.name for c in g.channels),
            "roles": sorted(r.name for r in g.roles),
            "members": sorted(m.name for m in g.members),
            "me_roles": sorted(r.name for r in g.me.roles),
        },
    )


@bot.event
async def on_resumed():
    emit(event="resumed", session=bot.ws.session_id)


@bot.event
async def on_disconnect():
    # A bot whose token was revoked should stop rather than loop: ask REST whether the
    # token still works (a rotation answers 401 at once, spec 5.5).
    if bot.token_dead or bot.is_closed():
        return
    try:
        await bot.application_info()
    except discord.HTTPException as e:
        if e.status == 401 and not bot.token_dead:
            bot.token_dead = True
            emit(scenario="token-rotation", rest=error_of(e))
            await bot.close()


@bot.event
async def on_message(m: discord.Message):
    if m.author.id == bot.user.id:  # never author.bot (README)
        return
    emit(
        event="message",
        id=str(m.id),
        content=m.content,
        channel=str(m.channel.id),
        guild=str(m.guild.id) if m.guild else None,
        dm=isinstance(m.channel, discord.DMChannel),
        author=str(m.author.id),
        embeds=[e.title for e in m.embeds],
    )
    if isinstance(m.channel, discord.DMChannel):
        # The person's text is end-to-end encrypted: the bot sees the envelope only.
        reply = await m.channel.send(f"Hi {m.author.name}, your DM reached me (I cannot read it).")
        emit(scenario="dms", received=m.content, reply=str(reply.id), channel=str(m.channel.id))
        return
    await bot.process_commands(m)


@bot.event
async def on_message_edit(before: discord.Message, after: discord.Message):
    emit(event="edit", id=str(after.id), before=before.content, after=after.content, edited=after.edited_at is not None)


@bot.event
async def on_message_delete(m: discord.Message):
    emit(event="delete", id=str(m.id), content=m.content)


@bot.event
async def on_raw_reaction_add(p: discord.RawReactionActionEvent):
    emit(event="reaction_add", message=str(p.message_id), emoji=str(p.emoji), user=str(p.user_id))
    if p.user_id != bot.user.id:
        msg = await bot.get_channel(p.channel_id).fetch_message(p.message_id)
        emit(scenario="reactions", reactions=sorted([str(r.emoji), r.count, r.me] for r in msg.reactions))


@bot.event
async def on_raw_reaction_remove(p: discord.RawReactionActionEvent):
    emit(event="reaction_remove", message=str(p.message_id), emoji=str(p.emoji), user=str(p.user_id))


@bot.event
async def on_typing(channel, user, when):
    emit(event="typing", channel=str(channel.id), user=str(user.id))


@bot.event
async def on_guild_channel_create(c):
    emit(event="channel_create", id=str(c.id), name=c.name)


@bot.event
async def on_guild_channel_update(before, after):
    emit(event="channel_update", id=str(after.id), name=after.name)


@bot.event
async def on_guild_channel_delete(c):
    emit(event="channel_delete", id=str(c.id), name=c.name)


@bot.event
async def on_member_remove(member):
    emit(event="member_remove", user=str(member.id))


@bot.event
async def on_guild_join(g: discord.Guild):
    # What join handlers do: a welcome post in the new server's first text channel.
    sent = await g.text_channels[0].send(f"Hello {g.name}, thanks for having me.")
    emit(
        event="guild_join",
        id=str(g.id),
        name=g.name,
        unavailable=g.unavailable,
        channels=sorted(c.name for c in g.channels),
        members=sorted(m.name for m in g.members),
        welcome=str(sent.id),
    )


@bot.event
async def on_guild_available(g: discord.Guild):
    emit(event="guild_available", id=str(g.id))


@bot.event
async def on_guild_remove(g: discord.Guild):
    emit(event="guild_remove", id=str(g.id))


@bot.event
async def on_member_update(before, after):
    emit(event="member_update", user=str(after.id), roles=sorted(r.name for r in after.roles))


# ---- prefix commands ----


@bot.command()
async def echo(ctx: commands.Context, *, text: str):
    sent = await ctx.reply(text, mention_author=False)
    emit(scenario="message-content", step="echo", asked=ctx.message.content, sent=str(sent.id), type=sent.type.value, ref=str(sent.reference.message_id))


@bot.command()
async def tidy(ctx: commands.Context, message_id: int):
    """Delete one of the bot's own messages, then try a message over the 2000-character limit."""
    mine = await ctx.channel.fetch_message(message_id)
    await mine.delete()
    try:
        await ctx.send("x" * 2001)
        refused = None
    except discord.HTTPException as e:
        refused = {"status": e.status, "code": e.code}
    emit(scenario="message-content", step="tidy", deleted=str(message_id), refused=refused)


@bot.command()
async def card(ctx: commands.Context):
    embed = discord.Embed(title="Matrix card", description="an embed from discord.py", colour=0x5865F2)
    embed.add_field(name="library", value="discord.py", inline=True)
    embed.set_footer(text="footer text")
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Docs", url="https://example.org/docs"))
    view.add_item(discord.ui.Button(label="Press", custom_id="mx:press", style=discord.ButtonStyle.success))
    sent = await ctx.send("a card", embed=embed, view=view)
    view.stop()
    seen = await ctx.channel.fetch_message(sent.id)
    edited = await sent.edit(content="card, edited")
    emit(
        scenario="embeds-components",
        sent=str(sent.id),
        read_back={
            "embed": seen.embeds[0].to_dict() if seen.embeds else None,
            "rows": [[c.to_dict() for c in row.children] for row in seen.components],
        },
        person_embeds=[e.title for e in ctx.message.embeds],
        sent_shape={"content": sent.content, "embeds": len(sent.embeds), "rows": len(sent.components)},
        edited={"content": edited.content, "embeds": len(edited.embeds), "edited": edited.edited_at is not None},
    )


@bot.command()
async def react(ctx: commands.Context):
    await ctx.message.add_reaction("👍")
    history = [m async for m in ctx.channel.history(limit=3)]
    emit(
        event="reacted",
        message=str(ctx.message.id),
        history=[str(m.id) for m in history],
        history_reactions=[[str(r.emoji), r.count, r.me] for r in history[0].reactions],
    )


@bot.command(name="type")
async def type_(ctx: commands.Context):
    async with ctx.typing():
        await asyncio.sleep(0.05)
    sent = await ctx.send("done typing")
    emit(scenario="typing", sent=str(sent.id))


@bot.command()
async def chan(ctx: commands.Context):
    g = ctx.guild
    helper = discord.utils.get(g.roles, name="Helper")
    room = await g.create_text_channel("mx-room", topic="made by discord.py", reason="matrix")
    created = {"name": room.name, "topic": room.topic}
    room = await room.edit(name="mx-renamed", topic="renamed by discord.py")
    await room.set_permissions(helper, send_messages=False, manage_messages=True, reason="matrix")
    await room.set_permissions(ctx.author, send_messages=False, manage_messages=True, reason="matrix")
    fetched = await bot.fetch_channel(room.id)
    scratch = await g.create_text_channel("mx-scratch")
    await scratch.delete(reason="matrix")
    ow = fetched.overwrites_for(helper)
    emit(
        scenario="channels",
        room=str(room.id),
        created=created,
        name=fetched.name,
        topic=fetched.topic,
        overwrite={"send_messages": ow.send_messages, "manage_messages": ow.manage_messages},
        scratch=str(scratch.id),
    )


@bot.command()
async def mod(ctx: commands.Context, carol: int, dave: int, erin: int):
    g = ctx.guild
    fetched = await bot.fetch_guild(g.id)
    helper = discord.utils.get(g.roles, name="Helper")
    member = await g.fetch_member(carol)
    await member.add_roles(helper, reason="helpful")
    await g.kick(discord.Object(dave), reason="kicked by matrix")
    await g.ban(discord.Object(erin), reason="banned by matrix", delete_message_seconds=60)
    ban = await g.fetch_ban(discord.Object(erin))
    bans = [str(b.user.id) async for b in g.bans()]
    log = [
        {"action": e.action.name, "target": str(e.target.id) if e.target else None, "reason": e.reason, "user": str(e.user.id) if e.user else None}
        async for e in g.audit_logs(limit=10)
    ]
    emit(
        scenario="moderation",
        guild=fetched.name,
        roles=sorted(r.name for r in (await g.fetch_member(carol)).roles),
        ban_reason=ban.reason,
        bans=bans,
        audit=log,
    )


@bot.command()
async def hook(ctx: commands.Context):
    made = await ctx.channel.create_webhook(name="MatrixHook", reason="matrix")
    async with aiohttp.ClientSession() as session:
        wh = discord.Webhook.partial(made.id, made.token, session=session)
        msg = await wh.send("via webhook", username="Hooky", wait=True)
        edited = await wh.edit_message(msg.id, content="via webhook, edited")
        fetched = await wh.fetch_message(msg.id)
        listed = [w.name for w in await ctx.channel.webhooks()]
        await wh.delete_message(msg.id)
        late = await wh.send("after the delete", wait=True)
        await wh.send("no wait")  # without wait=True the webhook answers 204 and discord.py returns None
    await made.delete(reason="matrix")
    emit(
        scenario="webhooks",
        webhook=str(made.id),
        listed=listed,
        sent=str(msg.id),
        sent_content=msg.content,
        sent_webhook=str(msg.webhook_id),
        edited=edited.content,
        fetched=fetched.content,
        author=fetched.author.name,
        late=str(late.id),
        remaining=[w.name for w in await ctx.channel.webhooks()],
    )


def millis(dt):
    return round(dt.timestamp() * 1000)


@bot.command()
async def epoch(ctx: commands.Context, mode: str):
    if mode == "shim":
        exec(epoch_shim)
    else:
        discord.utils.DISCORD_EPOCH = REFERENCE_EPOCH
    emit(scenario="epoch", step="mode", mode=mode, id=str(ctx.message.id), created=millis(ctx.message.created_at))


# A hybrid command answers through its interaction unless discord.py thinks it expired.
@commands.hybrid_command(name="when", description="when was this interaction made")
@app_commands.guilds(GUILD)
async def when(ctx: commands.Context):
    expired = ctx.interaction.is_expired()
    sent = await ctx.send("noted")
    emit(
        scenario="epoch",
        step="when",
        id=str(ctx.interaction.id),
        created=millis(ctx.interaction.created_at),
        expired=expired,
        answered="interaction" if isinstance(sent, discord.InteractionMessage) else "channel",
        sent=str(sent.id),
    )


bot.add_command(when)


@bot.command()
async def panel(ctx: commands.Context):
    sent = await ctx.send("panel: nobody bumped yet", view=Panel())
    emit(event="panel", id=str(sent.id))


# ---- components ----


class Panel(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Bump", style=discord.ButtonStyle.primary, custom_id="mx:bump")
    async def bump(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.edit_message(content=f"panel: bumped by {interaction.user.name}")
        emit(scenario="components", step="button", message=str(interaction.message.id), user=str(interaction.user.id))

    @discord.ui.select(
        custom_id="mx:pick",
        placeholder="pick a colour",
        options=[discord.SelectOption(label=x, value=x) for x in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select):
        await interaction.response.send_message(f"you picked {', '.join(select.values)}", ephemeral=True)
        emit(scenario="components", step="select", values=select.values)

    @discord.ui.button(label="Close", style=discord.ButtonStyle.danger, custom_id="mx:close")
    async def close(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.edit_message(content="panel: closed", view=None)
        emit(scenario="components", step="close", message=str(interaction.message.id))


# ---- slash commands ----


@bot.tree.command(name="ping", description="ephemeral pong", guild=GUILD)
async def ping(interaction: discord.Interaction):
    await interaction.response.send_message("pong (only you see this)", ephemeral=True)
    emit(scenario="slash-commands", step="ping", id=str(interaction.id))


@bot.tree.command(name="slow", description="defer, then a follow-up", guild=GUILD)
@app_commands.describe(what="what to say later")
async def slow(interaction: discord.Interaction, what: str):
    await interaction.response.defer(thinking=True)
    msg = await interaction.followup.send(f"later: {what}", wait=True)
    emit(scenario="slash-commands", step="slow", id=str(interaction.id), followup=str(msg.id))


@bot.tree.command(name="secret", description="an ephemeral defer, then its follow-up", guild=GUILD)
async def secret(interaction: discord.Interaction):
    await interaction.response.defer(ephemeral=True, thinking=True)
    msg = await interaction.followup.send("only you see this, later", wait=True)
    emit(scenario="slash-commands", step="secret", id=str(interaction.id), followup=str(msg.id), flags=msg.flags.value)


@bot.tree.command(name="edit", description="reply, then edit the reply", guild=GUILD)
async def edit(interaction: discord.Interaction):
    await interaction.response.send_message("first draft")
    extra = await interaction.followup.send("and a follow-up", wait=True)
    msg = await interaction.edit_original_response(content="final draft")
    original = await interaction.original_response()
    emit(scenario="slash-commands", step="edit", id=str(interaction.id), followup=str(extra.id), edited=msg.content, original=original.content)


# Global commands (the ones above are the guild's), synced on request by !sync.
@bot.tree.command(name="hello", description="Say hello")
@app_commands.describe(name="Whom to greet", times="How often")
async def hello(interaction: discord.Interaction, name: str, times: app_commands.Range[int, 1, 3] = 1):
    await interaction.response.send_message(f"hello {name}" * times)


tag = app_commands.Group(name="tag", description="Tags")


@tag.command(name="get", description="Get a tag")
async def tag_get(interaction: discord.Interaction, key: str):
    await interaction.response.send_message(key)


bot.tree.add_command(tag)


@bot.command(name="sync")
async def sync_(ctx: commands.Context):
    synced = await bot.tree.sync()
    fetched = await bot.tree.fetch_commands()
    hello_cmd = next(c for c in synced if c.name == "hello")
    tag_cmd = next(c for c in synced if c.name == "tag")
    emit(
        scenario="slash-commands",
        step="sync",
        synced=sorted(c.name for c in synced),
        fetched=sorted(c.name for c in fetched),
        hello_options=[[o.name, o.required, getattr(o, "min_value", None), getattr(o, "max_value", None)] for o in hello_cmd.options],
        tag_sub=[o.name for o in tag_cmd.options],
    )


async def main():
    try:
        async with bot:
            await bot.start(token)
    except Exception as e:  # reported so the test shows the library's own words
        emit(event="error", **error_of(e))
    emit(event="stopped")


asyncio.run(main())
