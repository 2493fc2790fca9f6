/**
 * The bot API's hook points are the pipeline's (wire/hooks.ts): the composition root
 * puts the harness's faults and transcripts and the operator's log and metrics in its
 * door's list.
 */
export type { Answer, RequestHooks, RequestInfo } from "../wire/hooks";
