// The plain-number latency histogram scrapes exactly as prom-client's own Histogram does
// for the same observations (the text exposition is compared whole).
import { expect, test } from "bun:test";
import { Histogram, Registry } from "prom-client";
import { PlainHistogram } from "../../src/ops/plain-histogram";

const BOUNDS = [0.001, 0.01, 0.1, 1];

test("scrapes as prom-client's Histogram: cumulative buckets, +Inf, sum and count per label set", async () => {
  const ours = new Registry();
  const theirs = new Registry();
  const plain = new PlainHistogram("t_seconds", "a test histogram", BOUNDS).register(ours);
  const reference = new Histogram({
    name: "t_seconds",
    help: "a test histogram",
    labelNames: ["surface", "route"],
    buckets: BOUNDS,
    registers: [theirs],
  });
  const seen: [string, string, number][] = [
    ["bot", "/a", 0.0005],
    ["bot", "/a", 0.001], // on a bound: counted in that bucket
    ["bot", "/a", 0.05],
    ["bot", "/a", 3], // above every bound: only +Inf
    ["people", "/b", 0.2],
  ];
  for (const [surface, route, v] of seen) {
    plain.observe(`${surface} ${route}`, () => ({ surface, route }), v);
    reference.observe({ surface, route }, v);
  }
  expect(await ours.metrics()).toBe(await theirs.metrics());
  expect(await ours.metrics()).toContain('t_seconds_bucket{le="0.01",surface="bot",route="/a"} 2');
  expect(
    (await ours.getMetricsAsJSON())[0].values.find((v: any) => v.metricName === "t_seconds_count" && v.labels.route === "/b")?.value,
  ).toBe(1);
  plain.reset();
  expect(await ours.metrics()).not.toContain("t_seconds_bucket");
});
