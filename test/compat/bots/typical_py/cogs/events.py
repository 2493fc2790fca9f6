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
    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel):
        await self.log_channel(channel.guild).send(f"Channel created: #{channel.name} ({channel.type})")


async def setup(bot: commands.Bot):
    await bot.add_cog(Events(bot))
