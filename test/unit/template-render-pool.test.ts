/**
 * Issue 23, finding 5: "a template render holds the event loop". Templates render in a thread of
 * their own (integrations/template/render-pool.ts): the server's event loop turns while one runs,
 * a render that never ends is cut at the hard limit and its thread replaced, and the queue is bounded.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { RateLimitedError } from "../../src/errors.js";
import { TemplateError } from "../../integrations/template/render-protocol.js";
import { HARD_LIMIT_MS, MAX_QUEUED, TemplateRenderPool } from "../../integrations/template/render-pool.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "template-pool-"));
/** A thread that never answers: ready, it spins on the first job it gets. */
const SPINNING = pathToFileURL(path.join(dir, "spin.mjs"));
fs.writeFileSync(
  SPINNING,
  'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { for (;;) {} });\n' +
    "parentPort.postMessage({ ready: true });\n",
);

const pools: TemplateRenderPool[] = [];
function pool(script?: URL): TemplateRenderPool {
  const p = script === undefined ? new TemplateRenderPool() : new TemplateRenderPool(script);
  pools.push(p);
  return p;
}
afterAll(async () => {
  for (const p of pools) await p.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const input = { payload: { repo: "hello", n: 3 }, headers: { "x-event": "push" }, query: { stream: "ops" } };

describe("the template renderer's thread", () => {
  it("renders a pair with the payload, the headers (by either spelling) and the query", async () => {
    const rendered = await pool().render(
      {
        topic: "{{ payload.repo }}",
        body: "{{ headers.x_event }} {{ headers['x-event'] }} {{ query.stream }} {{ payload.n }}",
      },
      input,
    );
    expect(rendered).toEqual({ topic: "hello", body: "push push ops 3" });
  });

  it("answers a template's error as the TemplateError it is, naming the template and where", async () => {
    const failed = pool().render({ topic: "t", body: "ok\n{{ payload.n | nosuchfilter }}" }, input);
    await expect(failed).rejects.toBeInstanceOf(TemplateError);
    await expect(failed).rejects.toMatchObject({ template: "body", line: 2, column: 1 });
  });

  it("keeps the event loop turning while a render runs, and cuts one that never ends", async () => {
    const spinning = pool(SPINNING);
    let turned = false;
    const render = spinning.render({ topic: "t", body: "b" }, input).then(
      () => "rendered",
      (err: unknown) => err,
    );
    // The thread spins from the moment it gets the job: this timer fires all the same.
    setTimeout(() => {
      turned = true;
    }, 0);
    const outcome = await render;
    expect(turned).toBe(true);
    expect(outcome).toBeInstanceOf(TemplateError);
    expect((outcome as TemplateError).message).toBe(
      `Error in template_body: the templates took longer than ${HARD_LIMIT_MS} ms to render`,
    );
  });

  it(`refuses a render past ${MAX_QUEUED} waiting with a 429, and the thread after a cut renders again`, async () => {
    const spinning = pool(SPINNING);
    const waiting = Array.from({ length: MAX_QUEUED + 1 }, () =>
      spinning.render({ topic: "t", body: "b" }, input).catch((err: unknown) => err),
    );
    await expect(spinning.render({ topic: "t", body: "b" }, input)).rejects.toBeInstanceOf(RateLimitedError);
    await spinning.close();
    for (const w of await Promise.all(waiting)) expect(w).toBeInstanceOf(Error);

    const fresh = pool();
    const slow = fresh.render(
      { topic: "t", body: "{% for a in (1..999) %}{% for b in (1..999) %}{{ a }}{% endfor %}{% endfor %}" },
      input,
    );
    await expect(slow).rejects.toBeInstanceOf(TemplateError);
    await expect(fresh.render({ topic: "{{ payload.repo }}", body: "again" }, input)).resolves.toEqual({
      topic: "hello",
      body: "again",
    });
  });

  it("does not count a new thread's start-up against a render's limit", async () => {
    // A thread that takes twice the hard limit to load (a busy machine compiling its modules),
    // then answers every job.
    const slowStart = pathToFileURL(path.join(dir, "slow-start.mjs"));
    fs.writeFileSync(
      slowStart,
      'import { parentPort } from "node:worker_threads";\n' +
        `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${2 * HARD_LIMIT_MS});\n` +
        'parentPort.on("message", (job) => parentPort.postMessage({ id: job.id, ok: true, value: { topic: "t", body: "b" } }));\n' +
        "parentPort.postMessage({ ready: true });\n",
    );
    await expect(pool(slowStart).render({ topic: "t", body: "b" }, input)).resolves.toEqual({
      topic: "t",
      body: "b",
    });
  });
});
