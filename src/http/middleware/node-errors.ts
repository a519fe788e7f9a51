import type http from "node:http";
import type { Duplex } from "node:stream";

/** Node's parser error codes → the status and Zulip-style error body we answer with. */
function answerFor(code: string | undefined): { status: number; reason: string; msg: string; code: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        msg: "Request headers (or URL) too large",
        code: "REQUEST_TOO_LARGE",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, reason: "Request Timeout", msg: "Request timeout", code: "BAD_REQUEST" };
    default:
      return { status: 400, reason: "Bad Request", msg: "Malformed HTTP request", code: "BAD_REQUEST" };
  }
}

/**
 * Requests Node rejects before Koa sees them (malformed request lines or headers, headers or URLs
 * over the size limit, clients too slow to send their request) get a JSON error body like every
 * other error, instead of Node's empty answer; the connection is then closed.
 */
export function answerClientErrorsWithJson(server: http.Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const a = answerFor(err.code);
    const body = JSON.stringify({ result: "error", msg: a.msg, code: a.code });
    // An answer to HEAD has no body (the client would read it as the next response).
    const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
    socket.end(
      `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? "" : body}`,
    );
  });
}
