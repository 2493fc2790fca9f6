-- GET with the bot's token (env BOT_TOKEN).
wrk.headers["Authorization"] = "Bot " .. os.getenv("BOT_TOKEN")
