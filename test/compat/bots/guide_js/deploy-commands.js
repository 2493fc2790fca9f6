// The guide's deploy-commands.js: every command's data as JSON, put in one request to the
// test server (or, with --global, to the application's global commands).
const { REST, Routes } = require('discord.js');
const { clientId, guildId, token, api } = require('./config.js');
const fs = require('node:fs');
const path = require('node:path');

const commands = [];
const foldersPath = path.join(__dirname, 'commands');
const commandFolders = fs.readdirSync(foldersPath);

for (const folder of commandFolders) {
	const commandsPath = path.join(foldersPath, folder);
	const commandFiles = fs.readdirSync(commandsPath).filter(file => file.endsWith('.js'));
	for (const file of commandFiles) {
		const filePath = path.join(commandsPath, file);
		const command = require(filePath);
		if ('data' in command && 'execute' in command) {
			commands.push(command.data.toJSON());
		} else {
			console.log(`[WARNING] The command at ${filePath} is missing a required "data" or "execute" property.`);
		}
	}
}

const rest = new REST({ api }).setToken(token);
const global = process.argv.includes('--global');

(async () => {
	try {
		console.log(`Started refreshing ${commands.length} application (/) commands.`);
		const route = global ? Routes.applicationCommands(clientId) : Routes.applicationGuildCommands(clientId, guildId);
		const data = await rest.put(route, { body: commands });
		console.log(`Successfully reloaded ${data.length} application (/) commands.`);
	} catch (error) {
		console.error(error);
		process.exitCode = 1;
	}
})();
