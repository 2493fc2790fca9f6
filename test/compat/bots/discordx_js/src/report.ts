// Not from the templates: one JSON line per thing the test should see the bot notice, where a
// person could not see it (commands initialised, a listener that fired).
export const report = (what: string, data: Record<string, unknown> = {}) => console.log(JSON.stringify({ event: what, ...data }));
