/**
 * The harness's part of the API description (test mode only). Its operations are read
 * off the route declarations (wire/openapi.ts#fragmentOf), like every door's;
 * docs/harness.md has the answers, with examples.
 */
export const HARNESS_DESCRIPTION = {
  tag: "harness",
  description:
    "The test harness, mounted only in test mode (--harness): seed a world, act as the people around a bot, read what the bot did, move the clock. Ids are the snowflakes bots see; people are named by their seed name or snowflake.",
};
