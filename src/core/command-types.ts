/** The shapes of application commands (spec 2.4), shared by the service and the body checks. */

/** Option types (spec 2.4): 1 SUB_COMMAND, 2 SUB_COMMAND_GROUP, 3 STRING ... 11 ATTACHMENT. */
export const OPT = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

export const MAX_COMMANDS_PER_SCOPE = 100;

type Localizations = Record<string, string> | null;

export interface CommandChoice {
  name: string;
  value: string | number;
  name_localizations?: Localizations;
}

export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  choices?: CommandChoice[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number | null;
  max_value?: number | null;
  min_length?: number | null;
  max_length?: number | null;
  autocomplete?: boolean;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
}

/** A command as a bot sends it (already shape-checked at the boundary). */
export interface CommandInput {
  name: string;
  type?: number;
  description?: string;
  options?: CommandOption[];
  default_member_permissions?: string | number | null;
  dm_permission?: boolean | null;
  nsfw?: boolean | null;
  contexts?: number[] | null;
  integration_types?: number[] | null;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
}

/** The stored, normalised command body. */
export interface CommandBody {
  name: string;
  type: number;
  description: string;
  options: CommandOption[];
  default_member_permissions: string | null;
  dm_permission: boolean;
  nsfw: boolean;
  contexts: number[] | null;
  integration_types: number[];
  name_localizations: Localizations;
  description_localizations: Localizations;
}

export interface Command {
  id: string;
  application_id: string;
  guild_id: string | null;
  name: string;
  type: number;
  body: CommandBody;
  version: number;
  created_at: number;
}
