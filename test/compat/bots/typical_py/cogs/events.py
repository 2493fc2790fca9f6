"""Listeners writing to the log channel, and a task loop posting to the status channel."""
import discord
from discord.ext import commands, tasks

from parley_target import emit


class Events(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.ticks = 0

    async def cog_load(self):
        self.status.start()

    async def cog_unload(self):
        self.status.cancel()

    def log_channel(self, guild: discord.Guild) -> discord.TextChannel:
        return discord.utils.get(guild.text_channels, name="log")

    @tasks.loop(seconds=1, count=3)
    async def status(self):
        self.ticks += 1
        for guild in self.bot.guilds:
            channel = discord.utils.get(guild.text_channels, name="status")
            await channel.send(f"tick {self.status.current_loop + 1}")

    @status.before_loop
    async def before_status(self):
        await self.bot.wait_until_ready()

    @commands.Cog.listener()
    async def on_member_join(self, member: discord.Member):
        channel = member.guild.system_channel
        await channel.send(f"Welcome {member.mention} to {member.guild.name}! We are {member.guild.member_count}.")

    @commands.Cog.listener()
    async def on_message_edit(self, before: discord.Message, after: discord.Message):
        if after.author.bot or not after.guild:
            return
        await self.log_channel(after.guild).send(f"{after.author.name} edited: {before.content!r} -> {after.content!r}")

    @commands.Cog.listener()
    async def on_message_delete(self, message: discord.Message):
        if message.author.bot or not message.guild:
            return
        await self.log_channel(message.guild).send(f"{message.author.name} deleted: {message.content!r}")

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent):
        emit(event="raw_reaction", emoji=str(payload.emoji), user=str(payload.user_id), message=str(payload.message_id),
             member=payload.member and payload.member.name)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member):
        emit(event="member_update", name=after.name, nick=[before.nick, after.nick],
             roles=[[r.name for r in before.roles[1:]], [r.name for r in after.roles[1:]]])

    @commands.Cog.listener()
    async def on_member_remove(self, member: discord.Member):
        emit(event="member_remove", name=member.name, count=member.guild.member_count)

    @commands.Cog.listener()
    async def on_member_ban(self, guild: discord.Guild, user):
        emit(event="member_ban", name=user.name)

    @commands.Cog.listener()
    async def on_member_unban(self, guild: discord.Guild, user):
        emit(event="member_unban", name=user.name)

    @commands.Cog.listener()
    async def on_bulk_message_delete(self, messages):
        emit(event="bulk_delete", contents=sorted(m.content for m in messages))

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent):
        emit(event="raw_bulk_delete", count=len(payload.message_ids), cached=len(payload.cached_messages))

    @commands.Cog.listener()
    async def on_reaction_remove(self, reaction: discord.Reaction, user):
        emit(event="reaction_remove", emoji=str(reaction.emoji), user=user.name, count=reaction.count)

    @commands.Cog.listener()
    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent):
        emit(event="raw_reaction_remove", emoji=str(payload.emoji), user=str(payload.user_id))

    @commands.Cog.listener()
    async def on_guild_role_create(self, role: discord.Role):
        emit(event="role_create", name=role.name, position=role.position)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role):
        emit(event="role_update", name=[before.name, after.name], colour=[str(before.colour), str(after.colour)])

    @commands.Cog.listener()
    async def on_guild_role_delete(self, role: discord.Role):
        emit(event="role_delete", name=role.name)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before, after):
        emit(event="channel_update", name=[before.name, after.name], topic=[getattr(before, "topic", None), getattr(after, "topic", None)])

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel):
        emit(event="channel_delete", name=channel.name)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent):
        emit(event="raw_edit", message=str(payload.message_id), cached=payload.cached_message is not None, content=payload.data.get("content"))

    @commands.Cog.listener()
    async def on_typing(self, channel, user, when):
        emit(event="typing", channel=getattr(channel, "name", None), user=user.name)

    @commands.Cog.listener()
    async def on_invite_create(self, invite: discord.Invite):
        emit(event="invite_create", inviter=invite.inviter and invite.inviter.name, max_uses=invite.max_uses)

    @commands.Cog.listener()
    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel):
        await self.log_channel(channel.guild).send(f"Channel created: #{channel.name} ({channel.type})")


async def setup(bot: commands.Bot):
    await bot.add_cog(Events(bot))
