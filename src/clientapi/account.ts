/**
 * One's own account beyond signing in (auth.ts): the display name, device names, profile
 * cards of the people one shares a server or a DM with, and redeeming a password reset
 * link an administrator made (docs/people-api.md).
 */
import type { ClientContext } from "./context";
import { EditMe, RedeemReset, RenameDevice } from "../contract";
import * as C from "../contract";
import { Type } from "@sinclair/typebox";
import { pathId, route, type PeopleRoute } from "./http";
import { deviceView, meView } from "./views";
import { profileView } from "./community-views";
import { sessionLabel } from "./sessions";
import { attempt, tooManyRequests } from "./limits";
import { clientAddress } from "../wire/throttle";

export function accountRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "PATCH",
      path: "/users/@me",
      caller: "session",
      summary: "Set one's display name (any script; null or empty clears it) and avatar (a filled upload slot; null clears it)",
      answer: C.Me,
      body: EditMe,
      handler: async ({ caller: { user: me }, body }) => {
        const b = body();
        let user = me;
        // The name first: its check is the one likely to refuse, before any file is used.
        if (b.global_name !== undefined) user = core.profiles.setGlobalName(me.id, b.global_name);
        if (b.avatar_upload !== undefined)
          user = await core.media.setAvatar(me.id, b.avatar_upload === null ? null : { uploadId: b.avatar_upload });
        return meView(user);
      },
    }),
    route({
      method: "GET",
      path: "/users/{user_id}/profile",
      caller: "session",
      summary: "A profile card: names, and with guild_id the nickname and roles there",
      // message_id: the message the name was opened from, which shows someone who has left the server.
      query: Type.Object({ guild_id: Type.Optional(Type.String()), message_id: Type.Optional(Type.String()) }),
      answer: C.Profile,
      handler: ({ caller: { user: me }, params, query }) => {
        const g = query.get("guild_id");
        const m = query.get("message_id");
        return profileView(
          core.profiles.profile(me.id, pathId(params.user_id, "user"), g ? pathId(g, "guild") : null, m ? pathId(m, "message") : null),
        );
      },
    }),
    route({
      method: "PATCH",
      path: "/users/@me/devices/{device_id}",
      caller: "session",
      summary: "Rename one of one's devices",
      answer: C.Device,
      body: RenameDevice,
      handler: ({ caller: { user: me }, params, body }) =>
        deviceView(core.devices.rename(me.id, pathId(params.device_id, "device"), body().name)),
    }),
    route({
      method: "POST",
      path: "/auth/password-reset",
      caller: "none",
      summary: "Set a new password with a one-time reset link (ends every other session)",
      answer: C.SignedIn,
      body: RedeemReset,
      handler: async ({ body, request }) => {
        const b = body();
        // Guessing links is throttled as guessing passwords is: per address.
        const address = clientAddress(request);
        const wait = await attempt([p.limits.signInByAddress, address]);
        if (wait > 0) return tooManyRequests(wait);
        const { user, token } = await core.passwordResets.redeem(b.token, b.new_password, sessionLabel(request.headers.get("user-agent")));
        await p.limits.signInByAddress.refund(address);
        return { token, user: meView(user) };
      },
    }),
  ];
}
