// The guide keeps these in config.json; here they come from the test that starts the bot.
// `api` is the one line that points discord.js at Parley instead of the reference.
module.exports = {
	token: process.env.DISCORD_TOKEN,
	clientId: process.env.CLIENT_ID,
	guildId: process.env.GUILD_ID,
	api: process.env.PARLEY_API,
};
