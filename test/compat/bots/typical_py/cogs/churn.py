"""The owner's commands that change the server (so the listeners in events.py see it
happen), read the role hierarchy, and handle files."""
import io

import discord
from discord.ext import commands

from parley_target import emit


class Churn(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_check(self, ctx: commands.Context) -> bool:
        return await self.bot.is_owner(ctx.author)

    @commands.command()
    async def hierarchy(self, ctx: commands.Context):
        """Where the bot stands."""
        guild = ctx.guild
        bob = guild.get_member_named("bob")
        emit(
            event="hierarchy",
            roles=[[r.name, r.position] for r in guild.roles],
            above_bob=guild.me.top_role > bob.top_role,
            manage_messages=[guild.me.guild_permissions.manage_messages, ctx.channel.permissions_for(guild.me).manage_messages],
            send_messages=[guild.me.guild_permissions.send_messages, ctx.channel.permissions_for(guild.me).send_messages],
            view_channel=[guild.me.guild_permissions.view_channel, ctx.channel.permissions_for(guild.me).view_channel],
        )
        await ctx.send(f"My top role is {guild.me.top_role.name}; bob's is {bob.top_role.name}.")

    @commands.command()
    async def churn(self, ctx: commands.Context):
        """Make and unmake a role and a channel; rename carol and make her a Helper."""
        guild = ctx.guild
        role = await guild.create_role(name="Temp")
        await role.edit(colour=discord.Colour.red(), name="Temp2")
        await role.delete()
        channel = await guild.create_text_channel("temp")
        await channel.edit(name="temp2", topic="t")
        await channel.delete()
        carol = guild.get_member_named("carol")
        await carol.edit(nick="Cee")
        await carol.add_roles(discord.utils.get(guild.roles, name="Helper"))
        await ctx.send("churned")

    @commands.command()
    async def files(self, ctx: commands.Context):
        """Read avatars and attachments; try to upload a file."""
        data = await ctx.author.display_avatar.read()
        await ctx.send(f"avatar bytes: {len(data)} png={data[:4] == bytes([0x89, 0x50, 0x4E, 0x47])}")
        try:
            await ctx.send("a file", file=discord.File(io.BytesIO(b"hello"), "hi.txt"))
        except discord.HTTPException as e:
            await ctx.send(f"upload: HTTP {e.status} {e.code}")
        for a in ctx.message.attachments:
            await ctx.send(f"yours: {a.filename} {a.size} {await a.read()!r}")


    @commands.command()
    async def wire(self, ctx: commands.Context, *, rest: str = ""):
        """What a message carries."""
        m = ctx.message
        emit(event="wire", mentions=[u.name for u in m.mentions], roles=[r.name for r in m.role_mentions],
             channels=[c.name for c in m.channel_mentions], raw_channels=len(m.raw_channel_mentions), clean=m.clean_content,
             reply_to=m.reference and m.reference.message_id and str(m.reference.message_id),
             resolved=getattr(m.reference and m.reference.resolved, "content", None), type=str(m.type),
             jump=m.jump_url, author_roles=[r.name for r in getattr(m.author, "roles", [])[1:]])
        e = await ctx.send(embed=discord.Embed(title="t", description="d"))
        emit(event="embed_type", type=e.embeds[0].type, dict=e.embeds[0].to_dict())
        try:
            s = await ctx.send("quiet one", silent=True)
            emit(event="silent", flags=s.flags.value, suppress_notifications=s.flags.suppress_notifications)
        except discord.HTTPException as ex:
            emit(event="silent", error=f"{ex.status} {ex.code} {ex.text}")
        try:
            u = await ctx.send("see https://example.com")
            u = await u.edit(suppress=True)
            emit(event="suppress", flags=u.flags.value)
        except discord.HTTPException as ex:
            emit(event="suppress", error=f"{ex.status} {ex.code} {ex.text}")
        try:
            t = await ctx.send("read aloud", tts=True)
            emit(event="tts", tts=t.tts)
        except discord.HTTPException as ex:
            emit(event="tts", error=f"{ex.status} {ex.code} {ex.text}")
        chans = [(c.name, c.position) for c in ctx.guild.text_channels]
        emit(event="positions", channels=chans)
        await ctx.send("wired")


    @commands.command()
    async def oops(self, ctx: commands.Context):
        """The mistakes a bot makes."""
        tries = {
            "empty": lambda: ctx.send(""),
            "long": lambda: ctx.send("x" * 2001),
            "embed": lambda: ctx.send(embed=discord.Embed(title="t" * 257)),
            "fields": lambda: ctx.send(embed=discord.Embed.from_dict({"fields": [{"name": "n", "value": "v"}] * 26})),
            "unknown message": lambda: ctx.channel.fetch_message(1),
            "unknown member": lambda: ctx.guild.fetch_member(1),
            "unknown channel": lambda: self.bot.fetch_channel(1),
            "higher role": lambda: ctx.author.add_roles(discord.utils.get(ctx.guild.roles, name="Keeper")),
            "own top role": lambda: discord.utils.get(ctx.guild.members, name="bob").add_roles(discord.utils.get(ctx.guild.roles, name="Keeper")),
            "bad emoji": lambda: ctx.message.add_reaction("notanemoji"),
            "kick owner": lambda: ctx.guild.kick(ctx.guild.owner),
            "buttons": lambda: ctx.send("b", view=self._too_many()),
        }
        for name, call in tries.items():
            try:
                await call()
                emit(event="oops", name=name, outcome="ok")
            except discord.HTTPException as e:
                emit(event="oops", name=name, outcome=f"{type(e).__name__} {e.status} {e.code} {e.text}")
            except Exception as e:
                emit(event="oops", name=name, outcome=f"{type(e).__name__}: {e}")
        await ctx.send("oopsed")

    def _too_many(self):
        view = discord.ui.View()
        for n in range(5):
            view.add_item(discord.ui.Button(label=str(n), row=0))
        return view


    @commands.command()
    async def pages(self, ctx: commands.Context):
        """Page through a long history and the member list."""
        for n in range(130):
            await ctx.channel.send(f"line {n}")
        every = [m.content async for m in ctx.channel.history(limit=None)]
        oldest = [m.content async for m in ctx.channel.history(limit=3, oldest_first=True)]
        after = [m.content async for m in ctx.channel.history(limit=2, after=discord.Object(id=ctx.message.id))]
        members = [m.name async for m in ctx.guild.fetch_members(limit=None)]
        g = await self.bot.fetch_guild(ctx.guild.id, with_counts=True)
        emit(event="pages", count=len(every), newest=every[0], oldest=oldest, after=after, members=sorted(members),
             approx=g.approximate_member_count)
        await ctx.send("paged")


async def setup(bot: commands.Bot):
    await bot.add_cog(Churn(bot))
