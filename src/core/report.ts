/**
 * Where an unexpected failure is told: an event subscriber that threw, a timer that threw.
 * The composition root points this at the structured logger (one line per failure, in
 * the log's own format); until it does, a failure is one JSON line on stderr, so even
 * then a `--log-format json` stream stays parseable. Nothing in the core writes to the
 * console itself.
 */
export interface ReportWhere {
  /** A domain event's type, when a subscriber to it failed. */
  event?: string;
  /** A loop or timer ("timer"). */
  loop?: string;
  /** A surface whose own handler failed outside any request (a socket's frame: "gateway"). */
  surface?: string;
}

export type Report = (err: unknown, where: ReportWhere) => void;

export const reportToStderr: Report = (err, where) => {
  const e = err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { message: String(err) };
  process.stderr.write(`${JSON.stringify({ level: "error", time: Date.now(), msg: "unexpected failure", ...where, err: e })}\n`);
};
