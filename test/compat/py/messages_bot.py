"""A discord.py 2.x bot driving Parley's REST message, reaction and channel routes.

Usage: messages_bot.py BASE TOKEN CHANNEL_ID GUILD_ID PERSON_ID. Prints one JSON line of results.
"""
import asyncio
import json
import sys

import discord


async def main(base, token, channel_id, guild_id, person_id):
    discord.http.Route.BASE = base + "/api/v10"
    client = discord.Client(intents=discord.Intents.none())
    out = {}
    await client.login(token)
    try:
        channel = await client.fetch_channel(int(channel_id))
        embed = discord.Embed(title="Status", description="all good", colour=0x00FF00)
        embed.add_field(name="cpu", value="3%", inline=True)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="OK", custom_id="ok", style=discord.ButtonStyle.primary))
        view.add_item(discord.ui.Button(label="Docs", url="https://example.com"))
        msg = await channel.send("hello", embed=embed, view=view)
        out["sent"] = {"id": str(msg.id), "content": msg.content, "embeds": len(msg.embeds), "rows": len(msg.components)}
        reply = await channel.send("a reply", reference=msg)
        out["reply_type"] = reply.type.value
        out["reply_ref"] = str(reply.reference.message_id)
        edited = await msg.edit(content="hello again")
        out["edited"] = {"content": edited.content, "embeds": len(edited.embeds), "edited": edited.edited_at is not None}
        await msg.add_reaction("\N{THUMBS UP SIGN}")
        history = [m async for m in channel.history(limit=10)]
        out["history"] = [str(m.id) for m in history]
        out["history_reactions"] = [[str(r.emoji), r.count, r.me] for r in history[-1].reactions]
        guild = channel.guild  # GET /guilds/{id} belongs to another area; the channel carries its guild
        assert str(guild.id) == guild_id
        created = await guild.create_text_channel("from-dpy", topic="made by a bot")
        out["created"] = {"id": str(created.id), "name": created.name, "topic": created.topic}
        person = await client.fetch_user(int(person_id))
        await created.set_permissions(person, overwrite=discord.PermissionOverwrite(send_messages=False, manage_messages=True))
        await reply.delete()
        await msg.delete()
        try:
            await channel.send("x" * 2001)
        except discord.HTTPException as e:
            out["refused"] = {"status": e.status, "code": e.code}
    finally:
        await client.close()
    print(json.dumps(out))


asyncio.run(main(*sys.argv[1:6]))
