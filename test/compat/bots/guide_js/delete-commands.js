// The guide's "Deleting commands": one command by id, then all of a scope with an empty put.
const { REST, Routes } = require('discord.js');
const { clientId, guildId, token, api } = require('./config.js');

const rest = new REST({ api }).setToken(token);
const [commandId] = process.argv.slice(2);

(async () => {
	try {
		if (commandId) {
			await rest.delete(Routes.applicationGuildCommand(clientId, guildId, commandId));
			console.log('Successfully deleted guild command');
		} else {
			await rest.put(Routes.applicationCommands(clientId), { body: [] });
			console.log('Successfully deleted all application commands.');
		}
	} catch (error) {
		console.error(error);
		process.exitCode = 1;
	}
})();
