/** Sign up, sign in, sign out, and who am I. Bot users can never sign in (spec 5.12). */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { anonymous, person } from "./http";
import { meView } from "./views";

export const SignUp = Type.Object(
  {
    username: Type.String({ minLength: 2, maxLength: 32 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    global_name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false },
);
export const SignIn = Type.Object({ username: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 256 }) }, { additionalProperties: false });

export function authRoutes(p: ClientContext) {
  return new Elysia()
    .post(
      "/auth/signup",
      anonymous(p, async ({ body }) => {
        const b = await body(SignUp);
        const { user, token } = p.core.users.signUp({ username: b.username, password: b.password, globalName: b.global_name ?? null });
        return { token, user: meView(user) };
      }),
    )
    .post(
      "/auth/signin",
      anonymous(p, async ({ body }) => {
        const b = await body(SignIn);
        const { token, user } = p.core.users.signIn(b.username, b.password);
        return { token, user: meView(user) };
      }),
    )
    .post(
      "/auth/signout",
      person(p, ({ token }) => {
        p.core.users.signOut(token);
      }),
    )
    .get(
      "/users/@me",
      person(p, ({ me }) => meView(me)),
    );
}
