import type Koa from "koa";
import type { AddressInfo } from "node:net";

/** Listens on 127.0.0.1 port 0; returns the base URL and a close function. */
export async function listen(app: Koa): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
