"""Calls hobby bots make now and then, each answering what it got (or the error it met) in
one line, so the test reads the outcome as the person who asked would."""
import discord
from discord.ext import commands

from parley_target import emit


async def outcome(ctx: commands.Context, label: str, coro):
    try:
        result = await coro
    except discord.HTTPException as e:
        await ctx.send(f"{label}: HTTP {e.status} {e.code}")
        return None
    except Exception as e:  # what a hobby bot would print
        await ctx.send(f"{label}: {type(e).__name__}: {e}")
        return None
    return result


class Extras(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.command()
    @commands.is_owner()
    async def extras(self, ctx: commands.Context):
        """Run the occasional calls."""
        guild = ctx.guild
        role = await outcome(ctx, "create_role", guild.create_role(name="Gamers", colour=discord.Colour.green(), hoist=True, mentionable=True))
        if role:
            await ctx.send(f"create_role: {role.name} {role.colour} hoist={role.hoist} mentionable={role.mentionable}")
            edited = await outcome(ctx, "role.edit", role.edit(name="Players"))
            if edited:
                await ctx.send(f"role.edit: {edited.name}")
        m = await ctx.reply("no ping", mention_author=False)
        await ctx.send(f"reply: {m.reference and m.reference.message_id == ctx.message.id}")
        await m.add_reaction("👍")
        await m.add_reaction("🎉")
        await m.remove_reaction("👍", self.bot.user)
        fresh = await ctx.channel.fetch_message(m.id)
        await ctx.send(f"reactions: {[str(r.emoji) + ':' + str(r.count) for r in fresh.reactions]}")
        await fresh.clear_reactions()
        fresh = await ctx.channel.fetch_message(m.id)
        await ctx.send(f"cleared: {len(fresh.reactions)}")
        e = await ctx.send(embed=discord.Embed(title="old"))
        e2 = await e.edit(content="now text", embed=None)
        await ctx.send(f"edit: {e2.content!r} embeds={len(e2.embeds)}")
        fetched = await outcome(ctx, "fetch_member", guild.fetch_member(ctx.author.id))
        if fetched:
            await ctx.send(f"fetch_member: {fetched.name} roles={len(fetched.roles)} owner={fetched.id == guild.owner_id}")
        user = await outcome(ctx, "fetch_user", self.bot.fetch_user(ctx.author.id))
        if user:
            await ctx.send(f"fetch_user: {user.name}")
        invite = await outcome(ctx, "create_invite", ctx.channel.create_invite(max_age=300, max_uses=1))
        if invite:
            await ctx.send(f"create_invite: max_uses={invite.max_uses} max_age={invite.max_age}")
        slow = await outcome(ctx, "channel.edit", ctx.channel.edit(slowmode_delay=5, topic="slow now"))
        if slow:
            await ctx.send(f"channel.edit: {slow.slowmode_delay} {slow.topic}")
        async with ctx.typing():
            pass
        await outcome(ctx, "change_presence", self.bot.change_presence(activity=discord.Game("chess"), status=discord.Status.idle))
        many = await ctx.send(embeds=[discord.Embed(title="a"), discord.Embed(title="b", colour=0xFF0000)])
        await ctx.send(f"embeds: {[x.title for x in many.embeds]}")
        mention = await ctx.send(f"hey {ctx.author.mention} @everyone", allowed_mentions=discord.AllowedMentions(everyone=False, users=True))
        await ctx.send(f"mentions: {[u.name for u in mention.mentions]} everyone={mention.mention_everyone}")
        thread = await outcome(ctx, "create_thread", m.create_thread(name="talk"))
        if thread:
            await ctx.send(f"create_thread: {thread.name}")
        member = guild.get_member(ctx.author.id)
        await ctx.send(f"get_member: {member and member.name} top={member and member.top_role.name}")
        webhook = await outcome(ctx, "create_webhook", ctx.channel.create_webhook(name="hook"))
        if webhook:
            sent = await outcome(ctx, "webhook.send", webhook.send("from the hook", username="Hooky", wait=True))
            if sent:
                await ctx.send(f"webhook.send: {sent.author.name}")
        new = await guild.create_text_channel("scratch", overwrites={guild.default_role: discord.PermissionOverwrite(send_messages=False)})
        await ctx.send(f"overwrites: {[(str(k), v.send_messages) for k, v in new.overwrites.items()]}")
        await new.delete()
        cat = await outcome(ctx, "create_category", guild.create_category("Projects"))
        if cat:
            inner = await guild.create_text_channel("alpha", category=cat)
            await ctx.send(f"category: {inner.category and inner.category.name} {[c.name for c in cat.channels]}")
            moved = await outcome(ctx, "move", inner.edit(category=None))
            if moved:
                await ctx.send(f"move: {moved.category}")
        target = discord.utils.get(guild.members, name="carol")
        await outcome(ctx, "member overwrite", ctx.channel.set_permissions(target, send_messages=False, view_channel=False))
        ow = ctx.channel.overwrites_for(target)
        fresh_channel = await guild.fetch_channel(ctx.channel.id)
        fow = fresh_channel.overwrites_for(target)
        await ctx.send(f"member overwrite: send={ow.send_messages}/{fow.send_messages} view={ow.view_channel}/{fow.view_channel}")
        await ctx.channel.set_permissions(target, overwrite=None)
        helper = discord.utils.get(guild.roles, name="Helper")
        await outcome(ctx, "edit roles", target.edit(roles=[helper], nick="C"))
        again = await guild.fetch_member(target.id)
        await ctx.send(f"edit roles: {[r.name for r in again.roles[1:]]} nick={again.nick}")
        await outcome(ctx, "nick reset", again.edit(nick=None))
        await outcome(ctx, "remove_roles", again.remove_roles(helper))
        again = await guild.fetch_member(target.id)
        await ctx.send(f"reset: {[r.name for r in again.roles[1:]]} nick={again.nick} display={again.display_name}")
        pinned = await ctx.send("pin and unpin")
        await pinned.pin()
        await pinned.unpin()
        await ctx.send(f"pins after unpin: {len(await ctx.channel.pins())}")
        entries = [f"{e.action.name}" async for e in guild.audit_logs(limit=3)]
        await ctx.send(f"audit: {entries}")
        roles = await guild.fetch_roles()
        await ctx.send(f"fetch_roles: {len(roles)} channels={len(await guild.fetch_channels())} get_channel={self.bot.get_channel(ctx.channel.id) is not None}")
        await ctx.send("extras done")


async def setup(bot: commands.Bot):
    await bot.add_cog(Extras(bot))
