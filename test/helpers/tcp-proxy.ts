import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a service (PostgreSQL, Redis), for outage tests that must
 * not stop the machine's shared servers. Three faults:
 * - `down()` (refuse): drops every connection and stops listening, so new ones are refused;
 * - `drop()` (silent): keeps listening and accepts, but forwards nothing in either direction, on old
 *   connections and new ones alike, as when a network drops packets: nobody is told anything;
 * - `up()` (restore): forwards again. Connections held during a silent drop are reset (a real
 *   network's long outage ends with the peers' retransmissions given up); new ones work.
 */
export interface TcpProxy {
  port: number;
  down(): Promise<void>;
  drop(): void;
  up(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let server: net.Server | undefined;
  let port = 0;
  let dropping = false;

  const destroy = (pair: Pair): void => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };

  /** Stops forwarding on a pair: its bytes are read and thrown away, nothing is closed. */
  const hold = (pair: Pair): void => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.on("data", () => undefined);
    pair.upstream?.on("data", () => undefined);
  };

  const accept = (client: net.Socket): void => {
    const pair: Pair = { client, upstream: undefined };
    pairs.add(pair);
    client.on("error", () => destroy(pair)).on("close", () => destroy(pair));
    if (dropping) {
      hold(pair);
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on("error", () => destroy(pair)).on("close", () => destroy(pair));
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = net.createServer(accept);
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const down = async (): Promise<void> => {
    dropping = false;
    const s = server;
    server = undefined;
    for (const pair of [...pairs]) destroy(pair);
    if (s !== undefined) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    down,
    drop() {
      dropping = true;
      for (const pair of pairs) hold(pair);
    },
    async up() {
      if (dropping) {
        dropping = false;
        for (const pair of [...pairs]) destroy(pair);
      }
      if (server === undefined) await listen();
    },
    close: down,
  };
}
