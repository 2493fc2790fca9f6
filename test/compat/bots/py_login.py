# discord.py 2.x login against Parley: GET /users/@me then GET /oauth2/applications/@me.
import asyncio, json, os
import discord
from discord.http import Route

Route.BASE = os.environ["PARLEY_BASE"] + "/api/v10"

async def main():
    client = discord.Client(intents=discord.Intents.default())
    await client.login(os.environ["PARLEY_TOKEN"])
    app = await client.application_info()
    print(json.dumps({"event": "login", "user_id": str(client.user.id), "bot": client.user.bot,
                      "app_id": str(app.id), "app_name": app.name, "owner_id": str(app.owner.id)}), flush=True)
    try:
        await client.fetch_sticker(123456789012345678)
    except discord.HTTPException as e:
        print(json.dumps({"event": "http_error", "status": e.status, "code": e.code}), flush=True)
    await client.close()

asyncio.run(main())
