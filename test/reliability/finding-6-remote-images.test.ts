/**
 * Issue 23, finding 6: remote images in messages load straight from third-party hosts (the poster
 * learns every viewer's IP address; Zulip proxies them). The image proxy `/external_content/...`
 * fetches signed URLs itself, under the egress policy, so viewers' addresses stay private.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { send } from "../http/message-helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A "third-party host" on loopback that records the requests it gets. */
async function receiver(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; requests: http.IncomingHttpHeaders[] }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

async function server(allowLoopback = true): Promise<TestServer> {
  const t = await startTestServer({ allowLoopback });
  cleanups.push(() => t.close());
  return t;
}

describe("finding 6: remote images in messages load straight from third-party hosts", () => {
  it("serves a signed remote image through the server, without the viewer's cookies or auth", async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: "#f00" } })
      .png()
      .toBuffer();
    const host = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "image/png", "set-cookie": "tracker=1" });
      res.end(png);
    });
    const t = await server();
    const path = t.running.services.camo.path(`${host.url}/cat.png`);
    expect(path).toMatch(/^\/external_content\/[0-9a-f]{40}\/[0-9a-f]+$/);
    const res = await fetch(`${t.url}${path}`, { headers: { cookie: "sessionid=secret" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect(host.requests).toHaveLength(1);
    expect(host.requests[0]!["cookie"]).toBeUndefined();
    expect(host.requests[0]!["authorization"]).toBeUndefined();
  });

  it("refuses a bad signature with 403", async () => {
    const t = await server();
    const good = t.running.services.camo.path("https://example.com/cat.png");
    const bad = good.replace(/\/external_content\/[0-9a-f]{40}\//, `/external_content/${"0".repeat(40)}/`);
    const res = await fetch(`${t.url}${bad}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      result: "error",
      msg: "Invalid image proxy signature.",
      code: "BAD_SIGNATURE",
    });
  });

  it("refuses a file that is not an image", async () => {
    const host = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<script>alert(1)</script>");
    });
    const t = await server();
    const res = await fetch(`${t.url}${t.running.services.camo.path(`${host.url}/page`)}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      result: "error",
      msg: "The remote file is not an image (Content-Type: text/html).",
      code: "BAD_IMAGE",
    });
  });

  it("does not follow a redirect", async () => {
    const host = await receiver((_req, res) => {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
      res.end();
    });
    const t = await server();
    const res = await fetch(`${t.url}${t.running.services.camo.path(`${host.url}/moved.png`)}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      result: "error",
      msg: "The service answered with a redirect (HTTP 302); redirects are not followed.",
      code: "BAD_IMAGE",
    });
  });

  it("cuts an image over 25 MiB", async () => {
    const host = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "image/png", "content-length": String(26 * 1024 * 1024) });
      res.end();
    });
    const t = await server();
    const res = await fetch(`${t.url}${t.running.services.camo.path(`${host.url}/huge.png`)}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      result: "error",
      msg: `The service's answer was larger than ${25 * 1024 * 1024} bytes (this server's limit); it was not read.`,
      code: "BAD_IMAGE",
    });
  });

  it("refuses an internal address when the operator has not allowed it", async () => {
    const host = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end("x");
    });
    const t = await server(false);
    const res = await fetch(`${t.url}${t.running.services.camo.path(`${host.url}/internal.png`)}`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { result: string; code: string; msg: string };
    expect(body.result).toBe("error");
    expect(body.code).toBe("BAD_IMAGE");
    expect(body.msg).toMatch(/loopback address/);
    expect(host.requests).toHaveLength(0);
  });

  it("renders a remote image in a message as an <img> of the proxy, never of the third-party host", async () => {
    const t = await server();
    const { hamlet, othello } = t.users;
    const id = await send(t, hamlet, {
      type: "private",
      to: JSON.stringify([othello.id]),
      content: "![cat](https://images.example/cat.png)",
    });
    const res = await t.api.get(`/api/v1/messages/${id}`, { as: othello });
    expect(res.status).toBe(200);
    const proxied = t.running.services.camo.path("https://images.example/cat.png");
    expect((res.body["message"] as { content: string }).content).toBe(
      `<p><img alt="cat" src="${proxied}"></p>`,
    );
  });

  it("previews a link to a remote image as Zulip does, through the proxy", async () => {
    const t = await server();
    const { hamlet, othello } = t.users;
    const url = "https://images.example/cat.png";
    const id = await send(t, hamlet, {
      type: "private",
      to: JSON.stringify([othello.id]),
      content: `look at [the cat](${url})`,
    });
    const res = await t.api.get(`/api/v1/messages/${id}`, { as: othello });
    const proxied = t.running.services.camo.path(url);
    expect((res.body["message"] as { content: string }).content).toBe(
      `<p>look at <a href="${url}">the cat</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="the cat"><img src="${proxied}"></a></div>`,
    );
  });
});
