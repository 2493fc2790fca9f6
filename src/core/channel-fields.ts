/** A channel's fields as every surface hands them in: their limits, checked before a write, and what an audit entry records of them. */
import { DomainError } from "./errors";
import type { Channel } from "./models";

/** Limits of a channel's fields (reference-gaps 2.1a), held here for every surface. */
export const CHANNEL_LIMITS = { name: 100, topic: 1024, rateLimitPerUser: 21_600 } as const;

const VOICE = 2;

/** A channel's fields as a surface hands them to the core (absent: unchanged). */
export interface ChannelInput {
  name?: string;
  type?: number;
  topic?: string | null;
  nsfw?: boolean | null;
  parentId?: string | null;
  rateLimitPerUser?: number | null;
  userLimit?: number | null;
  bitrate?: number | null;
  position?: number | null;
  overwrites?: { targetId: string; targetType: 0 | 1; allow: number; deny: number }[] | null;
}

/** A name of 1 to 100 characters, a topic of at most 1024, slow mode of 0 to 21600 seconds. */
export function checkFields(input: ChannelInput): void {
  if (input.name != null && (input.name.trim().length < 1 || input.name.length > CHANNEL_LIMITS.name))
    throw DomainError.invalid("name", `Must be between 1 and ${CHANNEL_LIMITS.name} in length.`, "BASE_TYPE_BAD_LENGTH");
  if (input.topic != null && input.topic.length > CHANNEL_LIMITS.topic)
    throw DomainError.invalid("topic", `Must be ${CHANNEL_LIMITS.topic} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  const rate = input.rateLimitPerUser;
  if (rate != null && (!Number.isInteger(rate) || rate < 0 || rate > CHANNEL_LIMITS.rateLimitPerUser))
    throw DomainError.invalid("rate_limit_per_user", `Must be between 0 and ${CHANNEL_LIMITS.rateLimitPerUser}.`, "NUMBER_TYPE_MAX");
}

/** The channel fields an audit entry records (internal ids; the boundary maps them). */
export function auditView(c: Channel): Record<string, unknown> {
  return {
    name: c.name,
    type: c.type,
    topic: c.topic,
    position: c.position,
    parent_id: c.parent_id,
    nsfw: !!c.nsfw,
    rate_limit_per_user: c.rate_limit_per_user,
    ...(c.type === VOICE ? { user_limit: c.user_limit, bitrate: c.bitrate } : {}),
  };
}
