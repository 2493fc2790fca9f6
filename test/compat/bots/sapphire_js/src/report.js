// Not from the templates: one JSON line per thing the test should see the bot notice, where a
// person could not see it (the registries done, a listener that fired).
module.exports = (what, data = {}) => console.log(JSON.stringify({ event: what, ...data }));
