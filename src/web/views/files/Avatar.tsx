/**
 * A person's picture (issue 31): their avatar from the server's content paths
 * (`/avatars/{id}/{hash}.png`), or their initial on a disc when they have none. Named
 * "Avatar of <name>" only when `named` (the member list); beside a name already read
 * (a message's header) it is decoration.
 */
import type { User } from "../../types";

export function Avatar({ user, name, named = false }: { user: Pick<User, "id" | "avatar"> | undefined; name: string; named?: boolean }) {
  if (user?.avatar)
    return (
      <img class="avatar" src={`/avatars/${user.id}/${user.avatar}.png`} alt={named ? `Avatar of ${name}` : ""} width={32} height={32} />
    );
  // The initial is drawn by CSS from an attribute: it is not text, so a row's text (and
  // what a search for the name finds) starts with the name itself.
  return <span class="avatar initial" aria-hidden="true" data-initial={(name.trim()[0] ?? "?").toUpperCase()} />;
}
