"""A discord.py 2.2 bot of the kind real bots are: its prefix is its own mention
(commands.when_mentioned) and it has no MESSAGE_CONTENT intent; it offers a user and a
message context-menu command. Used by test/compat/fidelity-discordpy.test.ts, which also
shows with it how discord.py reads Parley's 13-bit permissions ("perms", "card").

Usage: py_fidelity_bot.py BASE GATEWAY TOKEN GUILD_ID
"""
import asyncio
import json
import sys

import discord
import discord.utils
import yarl
from discord import app_commands
from discord.ext import commands

base, gateway, token, guild_id = sys.argv[1:5]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
# Parley's snowflakes count from 2025-01-01 (spec 2.1); discord.py's dates read right with this.
discord.utils.DISCORD_EPOCH = 1735689600000

intents = discord.Intents.none()
intents.guilds = True
intents.guild_messages = True
# A wait for a rate limit longer than 30 s raises discord.RateLimited instead of sleeping
# (docs/compatibility.md, "Limits": PATCH /channels/{id} is 2 per 10 minutes).
bot = commands.Bot(command_prefix=commands.when_mentioned, intents=intents, max_ratelimit_timeout=30)
guild = discord.Object(id=int(guild_id))


def emit(**kw):
    print(json.dumps(kw), flush=True)


@bot.command(name="ping")
async def ping(ctx: commands.Context):
    await ctx.reply("pong")
    emit(scenario="mention-prefix", content=ctx.message.content)


@bot.command(name="perms")
async def perms(ctx: commands.Context):
    """What discord.py says the bot may do: in the channel, and server-wide."""
    granted = lambda p: sorted(name for name, on in p if on)
    emit(scenario="perms", channel=granted(ctx.channel.permissions_for(ctx.me)), guild=granted(ctx.me.guild_permissions))


@bot.command(name="card")
@commands.bot_has_permissions(embed_links=True)
async def card(ctx: commands.Context):
    await ctx.send(embed=discord.Embed(title="a card"))


@bot.command(name="say")
async def say(ctx: commands.Context, *, text: str):
    sent = await ctx.send(text)
    emit(scenario="say", author=str(ctx.author.id), author_bot=ctx.author.bot, sent=str(sent.id))


@bot.command(name="topics")
async def topics(ctx: commands.Context):
    """Set the channel's topic three times in a row: PATCH /channels/{id} allows 2 per 10 minutes."""
    out = []
    for i in range(3):
        try:
            await ctx.channel.edit(topic=f"topic {i}")
            out.append("edited")
        except discord.RateLimited as e:
            out.append({"type": "RateLimited", "retry_after": e.retry_after})
    emit(scenario="topics", edits=out)


@bot.command(name="nick")
async def nick(ctx: commands.Context, *, name: str = None):
    """Set the bot's own nickname (None clears it), and read it back once the gateway says so."""
    me_id = ctx.me.id
    updated = asyncio.ensure_future(bot.wait_for("member_update", check=lambda b, a: a.id == me_id, timeout=5))
    try:
        await ctx.me.edit(nick=name)
        error = None
    except discord.HTTPException as e:
        error = {"status": e.status, "code": e.code, "text": e.text}
        updated.cancel()
    cached = None
    if error is None:
        _, after = await updated
        cached = after.nick
    emit(scenario="nick", error=error, nick=cached, display=ctx.guild.me.display_name)


@app_commands.context_menu(name="Profile")
async def profile(interaction: discord.Interaction, user: discord.Member):
    await interaction.response.send_message(f"profile of {user.name} ({user.id})", ephemeral=True)
    emit(scenario="user-command", target=str(user.id), name=user.name)


@app_commands.context_menu(name="Quote")
async def quote(interaction: discord.Interaction, message: discord.Message):
    await interaction.response.send_message(f"> {message.content}")
    emit(scenario="message-command", target=str(message.id), content=message.content, author=str(message.author.id))


@bot.event
async def on_ready():
    bot.tree.add_command(profile, guild=guild)
    bot.tree.add_command(quote, guild=guild)
    synced = await bot.tree.sync(guild=guild)
    emit(event="ready", user=str(bot.user.id), synced=sorted(c.name for c in synced))


@bot.event
async def on_command_error(ctx, error):
    emit(event="command-error", type=type(error).__name__, text=str(error))


async def main():
    try:
        async with bot:
            await bot.start(token)
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
