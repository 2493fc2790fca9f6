/**
 * The gateway (spec 3.2, 5, 6): Bun's native WebSocket server at /gateway.
 * (Sessions, intents, replay and resume are built by the gateway issue.)
 */
import type { Server, WebSocketHandler } from "bun";
import type { BotApi } from "../botapi/context";

export interface GatewaySocketData {
  connId: number;
}

export interface Gateway {
  websocket: WebSocketHandler<GatewaySocketData>;
  /** Upgrade a request for the gateway path; undefined when it was not a WebSocket request. */
  upgrade(req: Request, server: Server<GatewaySocketData>): Response | undefined;
  /** Close every socket and forget every session (shutdown, harness reset). */
  closeAll(): void;
  /** Whether the bot user has at least one live (connected, identified) session. */
  hasLiveSession(botUserId: string): boolean;
}

export function createGateway(_api: BotApi): Gateway {
  let next = 1;
  return {
    websocket: {
      open() {},
      message() {},
      close() {},
    },
    upgrade(req, server) {
      if (server.upgrade(req, { data: { connId: next++ } })) return new Response(null, { status: 101 });
      return new Response(JSON.stringify({ code: 0, message: "WebSocket upgrade required" }), {
        status: 400,
        headers: { "Content-Type": "application/json" },
      });
    },
    closeAll() {},
    hasLiveSession: () => false,
  };
}
