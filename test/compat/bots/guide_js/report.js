// Not from the guide: one JSON line per thing the test should see the bot notice, where a
// person could not see it (an error the library raised, an event it received).
module.exports = (what, data = {}) => console.log(JSON.stringify({ event: what, ...data }));
