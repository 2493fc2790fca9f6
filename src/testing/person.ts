import type { CommandOptions, InteractOptions, InteractionResult, Person, PersonFile } from "./person-types.js";
import type { SdkContext } from "./context.js";
import type { InteractionHelpers } from "./interactions.js";
import { HarnessError } from "./wire-types.js";

/** The harness's person actions, for one person. */
// Longer than 80 lines because it is one method per harness action of a person, returned as the one object `Person` describes.
export function personActions(ctx: SdkContext, interactions: InteractionHelpers, user: string): Person {
  const { harness, world } = ctx;
  const u = encodeURIComponent(user);
  const post = (body: Record<string, unknown>) =>
    harness.call<{ id: string; delivered: boolean }>("POST", `/users/${u}/interactions`, body);
  const appOf = (o: InteractOptions) => world.app(o.app ?? world.defaultApp(ctx.underTest()));

  /**
   * Post a command, waiting (up to the wait's timeout) while the bot has not registered it:
   * a bot registers its commands itself once ready, so a test that runs one right after
   * `login` would otherwise fail or pass by the race.
   */
  async function postCommand(what: string, body: Record<string, unknown>, o: InteractOptions) {
    const ms = o.timeoutMs ?? 5000;
    const deadline = ctx.ticks.now() + ms;
    for (;;) {
      try {
        return await post(body);
      } catch (e) {
        if (!unknownCommand(e)) throw e;
        if (ctx.ticks.now() >= deadline) {
          // No bot running at all is the likelier cause then: a misspelt name is not.
          const live = (await ctx.harness.call<{ connected: boolean }[]>("GET", `/applications/${body.application_id}/sessions`)).some(
            (s) => s.connected,
          );
          const cause = live
            ? "check the name, and that the bot registers it"
            : "and the bot is not running (no live gateway session): login() it first";
          throw new HarnessError(
            e.status,
            e.body,
            `${what}: the bot has no command '${body.name}' (still none after ${ms} ms; a bot registers its own commands, ` +
              `with commands.set() or tree.sync() once ready: ${cause})`,
          );
        }
        await ctx.ticks.sleep(o.intervalMs ?? 50);
      }
    }
  }

  /** Start an interaction, remember it for strict mode, and wait for the bot's answer. */
  async function run(what: string, body: Record<string, unknown>, o: InteractOptions): Promise<InteractionResult> {
    const { id, delivered } = body.name === undefined ? await post(body) : await postCommand(what, body, o);
    ctx.test.interactions.push({ id, what, delivered });
    if (!delivered) return interactions.result(id, false);
    return interactions.waitFor(id, o.until === "responded" ? ["responded", "expired"] : ["deferred", "responded", "expired"], o, true);
  }
  const useOnBody = (channel: string, appId: string, name: string, target: Target) =>
    contextMenuBody(world.channelId(channel), appId, name, target);
  let session: Promise<{ token: string; user_id: string }> | undefined;
  const openSession = () => {
    session ??= harness.call<{ token: string; user_id: string }>("POST", `/users/${u}/session`);
    return session;
  };

  return {
    say: (channel, content, o = {}) =>
      harness.call("POST", `/users/${u}/messages`, {
        channel_id: world.channelId(channel),
        content,
        ...(o.embeds ? { embeds: o.embeds } : {}),
        ...(o.replyTo ? { reply_to: o.replyTo } : {}),
        ...filesBody(o.files),
      }),
    dm: (recipient, content, o = {}) => {
      const app = world.answer.applications[recipient];
      return harness.call("POST", `/users/${u}/dms`, { recipient_id: app ? app.bot_user_id : recipient, content, ...filesBody(o.files) });
    },
    device: () => harness.call("POST", `/users/${u}/device`),
    session: openSession,
    api: async (method, path, body) => {
      const { token } = await openSession();
      return peopleCall(harness.url, token, method, path, body);
    },
    react: (channel, message_id, emoji) =>
      harness.call("PUT", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    unreact: (channel, message_id, emoji) =>
      harness.call("DELETE", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    pin: (channel, message_id) => harness.call("PUT", `/users/${u}/pins`, { channel_id: world.channelId(channel), message_id }),
    unpin: (channel, message_id) => harness.call("DELETE", `/users/${u}/pins`, { channel_id: world.channelId(channel), message_id }),
    slash: (channel, name, options, o = {}) =>
      run(
        `/${name} in ${channel}`,
        { channel_id: world.channelId(channel), application_id: appOf(o).id, name, type: 1, ...rawOptions(options) },
        o,
      ),
    click: (channel, messageId, customId, o = {}) =>
      run(`a click on '${customId}'`, { channel_id: world.channelId(channel), message_id: messageId, custom_id: customId }, o),
    select: (channel, messageId, customId, values, o = {}) =>
      run(
        `a choice of ${JSON.stringify(values)} in '${customId}'`,
        { channel_id: world.channelId(channel), message_id: messageId, custom_id: customId, values },
        o,
      ),
    contextMenu: (channel, name, target, o = {}) =>
      run(`'${name}' on ${JSON.stringify(target)}`, useOnBody(channel, appOf(o).id, name, target), o),
    useOn: async (channel, app, name, target) => {
      const got = await post(useOnBody(channel, world.appId(app), name, target));
      ctx.test.interactions.push({ id: got.id, what: `'${name}' on ${JSON.stringify(target)}`, delivered: got.delivered });
      return got;
    },
    edit: (messageId, content) => harness.call("PATCH", `/users/${u}/messages/${messageId}`, { content }),
    delete: (messageId) => harness.call("DELETE", `/users/${u}/messages/${messageId}`),
    type: (channel) => harness.call("POST", `/users/${u}/typing`, { channel_id: world.channelId(channel) }),
    invite: async (channel, o = {}) =>
      (
        await harness.call<{ code: string }>("POST", `/users/${u}/invites`, {
          channel_id: world.channelId(channel),
          max_age: o.maxAge,
          max_uses: o.maxUses,
        })
      ).code,
    join: async (code) => (await harness.call<{ guild_id: string }>("POST", `/users/${u}/invites/${encodeURIComponent(code)}`)).guild_id,
    leave: (guild) => harness.call("DELETE", `/users/${u}/guilds/${world.answer.guilds[guild]?.id ?? guild}`),
    interact: async (body) => {
      const b: Record<string, unknown> = { ...body };
      if (typeof b.channel_id === "string") b.channel_id = world.channelId(b.channel_id);
      if (typeof b.application_id === "string" && world.answer.applications[b.application_id])
        b.application_id = world.answer.applications[b.application_id].id;
      const got = await post(b);
      ctx.test.interactions.push({
        id: got.id,
        what: String(b.name ? `/${b.name}` : `a click on '${b.custom_id}'`),
        delivered: got.delivered,
      });
      return got;
    },
  };
}

type Target = { user: string } | { message: string };

/** A people's API request with a session token; the people's API sits beside the harness. */
async function peopleCall(harnessUrl: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(harnessUrl.replace(/\/api\/harness\/v1$/, "/api/client/v1") + path, {
    method,
    headers: { Authorization: `Session ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new HarnessError(res.status, parsed, `${method} ${path}`);
  return parsed;
}

/** A context-menu command on a user (type 2) or a message (type 3), as the harness takes it. */
function contextMenuBody(channelId: string, appId: string, name: string, target: Target) {
  return {
    channel_id: channelId,
    application_id: appId,
    name,
    type: "user" in target ? 2 : 3,
    target_id: "user" in target ? target.user : target.message,
  };
}

/** `{ text: "hi" }` as the harness takes options: `[{ name: "text", value: "hi" }]`; a list as it is. */
function rawOptions(options: CommandOptions | undefined): { options?: unknown[] } {
  if (options === undefined) return {};
  if (Array.isArray(options)) return { options };
  return { options: Object.entries(options).map(([name, value]) => ({ name, value })) };
}

/** A file's bytes as the harness takes them (base64); text is sent as UTF-8. */
function base64Of(data: Uint8Array | string): string {
  return Buffer.from(typeof data === "string" ? new TextEncoder().encode(data) : data).toString("base64");
}

/** The `files` of a harness body, when there are any. */
function filesBody(files: PersonFile[] | undefined): { files?: unknown[] } {
  if (!files) return {};
  return {
    files: files.map((f) => ({
      name: f.name,
      data: base64Of(f.data),
      ...(f.description ? { description: f.description } : {}),
      ...(f.spoiler ? { spoiler: true } : {}),
    })),
  };
}

/** The harness's refusal of a command the application has not registered (400/50035 APPLICATION_COMMAND_UNKNOWN on `name`). */
function unknownCommand(e: unknown): e is HarnessError {
  if (!(e instanceof HarnessError) || e.status !== 400) return false;
  const errors = (e.body as { errors?: { name?: { _errors?: { code?: string }[] } } } | undefined)?.errors;
  return errors?.name?._errors?.some((x) => x.code === "APPLICATION_COMMAND_UNKNOWN") ?? false;
}
