import { describe, expect, it } from "@jest/globals";
import { JsonableError, UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration, form, json, jsonOrForm, option, parse, payloadField, reply } from "./index.js";
import { dispatchWebhook, dispatchWebhookAsync, type WebhookRequest } from "./stages.js";

const shop = defineIntegration({
  name: "shop",
  displayName: "Shop",
  categories: ["misc"],
  body: json(),
  eventHeader: { name: "X-Shop-Event", optional: true },
  options: { only_big: option("Only big orders", parse.bool, { default: false }) },
  classify: ({ header, payload, options }) => {
    const type = header ?? payload.get("type").str();
    if (type === "order.created" && options.only_big === true && payload.get("total").int() < 100) {
      return "order.small";
    }
    return type;
  },
  events: {
    "order.created": (p, ctx) => ({
      topic: "orders",
      body: `Order ${p.get("id").text()} (${ctx.event}, header ${ctx.eventHeader ?? "none"})`,
    }),
    "order.paid": (p) => [
      { topic: "orders", body: `Paid ${p.get("id").text()}` },
      { topic: "money", body: "ka-ching" },
    ],
    "order.silent": () => null,
    ping: () => reply({ ok: true }, { topic: "ping", body: "pong" }),
  },
  ignoredEvents: ["order.small", "customer.*"],
  unfilteredEvents: ["ping"],
});

function req(
  payload: unknown,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
): WebhookRequest {
  return {
    headers: { "content-type": "application/json", ...headers },
    params,
    rawBody: Buffer.from(JSON.stringify(payload)),
  };
}

function thrown(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    if (err instanceof JsonableError) return err.toJSON();
    throw err;
  }
  throw new Error("did not throw");
}

describe("defineIntegration: the event table", () => {
  it("lists its events in declaration order", () => {
    expect(shop.eventTypes).toEqual(["order.created", "order.paid", "order.silent", "ping"]);
    expect(shop.eventHeader).toEqual({ name: "X-Shop-Event", optional: true });
    expect(shop.body.kind).toBe("json");
  });

  it("classifies from the payload when the optional header is absent", () => {
    expect(dispatchWebhook(shop, req({ type: "order.created", id: 7, total: 5 }))).toEqual({
      kind: "messages",
      event: "order.created",
      messages: [{ topic: "orders", body: "Order 7 (order.created, header none)" }],
    });
  });

  it("passes the header to the classifier and the handler", () => {
    const out = dispatchWebhook(shop, req({ id: 8 }, {}, { "x-shop-event": "order.created" }));
    expect(out).toEqual({
      kind: "messages",
      event: "order.created",
      messages: [{ topic: "orders", body: "Order 8 (order.created, header order.created)" }],
    });
  });

  it("gives parsed options to the classifier", () => {
    expect(
      dispatchWebhook(shop, req({ type: "order.created", id: 7, total: 5 }, { only_big: "true" })),
    ).toEqual({
      kind: "ignored",
      event: "order.small",
    });
  });

  it("ignores events matched by ignoredEvents wildcards, and handlers returning null", () => {
    expect(dispatchWebhook(shop, req({ type: "customer.deleted" }))).toEqual({
      kind: "ignored",
      event: "customer.deleted",
    });
    expect(dispatchWebhook(shop, req({ type: "order.silent" }))).toEqual({
      kind: "ignored",
      event: "order.silent",
    });
  });

  it("rejects other events naming the event and the integration", () => {
    expect(thrown(() => dispatchWebhook(shop, req({ type: "refund.created" })))).toEqual({
      result: "error",
      msg: "The 'refund.created' event isn't currently supported by the Shop webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      webhook_name: "Shop",
      event_type: "refund.created",
    });
  });

  it("filters by only_events / exclude_events on the event name, except unfiltered events", () => {
    const only = { only_events: '["order.paid"]' };
    expect(dispatchWebhook(shop, req({ type: "order.created", id: 1, total: 500 }, only))).toEqual({
      kind: "filtered",
      event: "order.created",
    });
    expect(dispatchWebhook(shop, req({ type: "ping" }, only))).toEqual({
      kind: "messages",
      event: "ping",
      messages: [{ topic: "ping", body: "pong" }],
      reply: { ok: true },
    });
    expect(
      dispatchWebhook(shop, req({ type: "order.paid", id: 2 }, { exclude_events: '["order*"]' })),
    ).toEqual({
      kind: "filtered",
      event: "order.paid",
    });
  });

  it("applies the URL's topic to every message, decoded once more", () => {
    expect(dispatchWebhook(shop, req({ type: "order.paid", id: 3 }, { topic: "Sales%20desk" }))).toEqual({
      kind: "messages",
      event: "order.paid",
      messages: [
        { topic: "Sales desk", body: "Paid 3" },
        { topic: "Sales desk", body: "ka-ching" },
      ],
    });
  });

  it("names a bad option", () => {
    expect(thrown(() => dispatchWebhook(shop, req({ type: "ping" }, { only_big: "maybe" })))).toEqual({
      result: "error",
      msg: "Invalid value for option 'only_big' (Only big orders): is not a boolean",
      code: "BAD_REQUEST",
    });
  });

  it("refuses a definition that both handles and ignores an event", () => {
    expect(() =>
      defineIntegration({
        name: "bad",
        displayName: "Bad",
        categories: [],
        events: { a: () => null },
        ignoredEvents: ["a"],
      }),
    ).toThrow("Integration 'bad': event 'a' is both handled and ignored");
  });
});

describe("event headers", () => {
  const strict = defineIntegration({
    name: "strict",
    displayName: "Strict",
    categories: [],
    eventHeader: "X-Strict-Event",
    events: { push: () => ({ topic: "t", body: "pushed" }) },
  });

  it("uses a required header's value as the event", () => {
    expect(dispatchWebhook(strict, req({}, {}, { "x-strict-event": "push" }))).toEqual({
      kind: "messages",
      event: "push",
      messages: [{ topic: "t", body: "pushed" }],
    });
  });

  it("answers MISSING_HTTP_EVENT_HEADER without it", () => {
    expect(thrown(() => dispatchWebhook(strict, req({})))).toEqual({
      result: "error",
      msg: "Missing the HTTP event header 'X-Strict-Event'",
      code: "MISSING_HTTP_EVENT_HEADER",
      webhook_name: "Strict",
      header: "X-Strict-Event",
    });
  });
});

describe("body readers", () => {
  const echo = (body: ReturnType<typeof json>) =>
    defineIntegration({
      name: "echo",
      displayName: "Echo",
      categories: [],
      body,
      events: { default: (p) => ({ topic: "echo", body: JSON.stringify(p.value) }) },
    });
  const formReq = (fields: Record<string, string>, params: Record<string, string> = {}): WebhookRequest => ({
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { ...params, ...fields },
    rawBody: Buffer.from(new URLSearchParams(fields).toString()),
    form: fields,
  });
  const bodyOf = (out: ReturnType<typeof dispatchWebhook>): string | undefined =>
    out.kind === "messages" ? out.messages[0]?.body : undefined;

  it("json() reads the raw body whatever the Content-Type, and rejects bad JSON", () => {
    const r = { headers: { "content-type": "text/plain" }, params: {}, rawBody: Buffer.from('{"a":1}') };
    expect(bodyOf(dispatchWebhook(echo(json()), r))).toBe('{"a":1}');
    expect(thrown(() => dispatchWebhook(echo(json()), { ...r, rawBody: Buffer.from("{") }))).toEqual({
      result: "error",
      msg: "Malformed JSON",
      code: "INVALID_JSON",
    });
  });

  it("form() reads the fields as strings", () => {
    expect(bodyOf(dispatchWebhook(echo(form()), formReq({ a: "1", b: "x" })))).toBe('{"a":"1","b":"x"}');
  });

  it("jsonOrForm() takes the form when there is one, JSON otherwise", () => {
    expect(bodyOf(dispatchWebhook(echo(jsonOrForm()), formReq({ a: "1" })))).toBe('{"a":"1"}');
    expect(bodyOf(dispatchWebhook(echo(jsonOrForm()), req({ a: 1 })))).toBe('{"a":1}');
  });

  it("payloadField() reads JSON text from a form field, or the body for application/json", () => {
    const reader = payloadField("payload", { unlessJsonContentType: true });
    expect(bodyOf(dispatchWebhook(echo(reader), formReq({ payload: '{"a":2}' })))).toBe('{"a":2}');
    expect(bodyOf(dispatchWebhook(echo(reader), req({ a: 3 })))).toBe('{"a":3}');
    expect(thrown(() => dispatchWebhook(echo(reader), formReq({ other: "1" })))).toEqual({
      result: "error",
      msg: "Missing 'payload' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "payload",
    });
  });
});

describe("errors of handlers", () => {
  it("names the webhook in an unsupported event raised by a handler without a name", () => {
    const picky = defineIntegration({
      name: "picky",
      displayName: "Picky",
      categories: ["misc"],
      events: {
        only: (p) => {
          throw new UnsupportedWebhookEventTypeError(p.get("kind").str());
        },
      },
    });
    let caught: unknown;
    try {
      dispatchWebhook(picky, { headers: {}, params: {}, rawBody: Buffer.from('{"kind":"odd"}') });
    } catch (err) {
      caught = err;
    }
    expect((caught as JsonableError).toJSON()).toEqual({
      result: "error",
      msg: "The 'odd' event isn't currently supported by the Picky webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      webhook_name: "Picky",
      event_type: "odd",
    });
  });
});

describe("declared needs", () => {
  const greeter = (needs: readonly ("directory" | "botConfig")[]) =>
    defineIntegration({
      name: "greeter",
      displayName: "Greeter",
      categories: ["misc"],
      needs,
      events: {
        hello: (p, ctx) => {
          // A handler's own try must not change what it is given (the old lazy loading threw here).
          try {
            const name = ctx.userFullName(p.get("email").str()) ?? "nobody";
            return { topic: "greetings", body: `Hello ${name}, ${ctx.botConfig()["greeting"] ?? "hi"}` };
          } catch {
            return { topic: "greetings", body: "caught" };
          }
        },
      },
    });
  const request: WebhookRequest = {
    headers: {},
    params: {},
    rawBody: Buffer.from('{"email":"ANN@example.com"}'),
    userFullName: (email) => (email === "ANN@example.com" ? "Ann" : undefined),
    botConfig: () => ({ greeting: "welcome" }),
  };

  it("gives the handler the directory and the bot config it declares", () => {
    expect(dispatchWebhook(greeter(["directory", "botConfig"]), request)).toEqual({
      kind: "messages",
      event: "hello",
      messages: [{ topic: "greetings", body: "Hello Ann, welcome" }],
    });
  });

  it("refuses a read the integration does not declare, even inside the handler's try", () => {
    expect(dispatchWebhook(greeter(["directory"]), request)).toEqual({
      kind: "messages",
      event: "hello",
      messages: [{ topic: "greetings", body: "caught" }],
    });
    const undeclared = defineIntegration({
      name: "undeclared",
      displayName: "Undeclared",
      categories: ["misc"],
      events: { hello: (p, ctx) => ({ topic: "t", body: ctx.userFullName(p.get("email").str()) ?? "?" }) },
    });
    expect(() => dispatchWebhook(undeclared, request)).toThrow(
      `Integration 'undeclared' reads 'directory' without declaring needs: ["directory"]`,
    );
  });
});

describe("declared needs: http (ctx.fetchJson)", () => {
  const lookup = (needs: readonly "http"[], calls = 1) =>
    defineIntegration({
      name: "lookup",
      displayName: "Lookup",
      categories: ["misc"],
      needs,
      events: {
        item: async (p, ctx) => {
          const answers: string[] = [];
          for (let i = 0; i < calls; i++) {
            try {
              const answer = (await ctx.fetchJson(`https://api.example.com/items/${i}`, {
                headers: { authorization: "Bearer t" },
              })) as { name: string };
              answers.push(answer.name);
            } catch (err) {
              answers.push(`${(err as Error).name}: ${(err as Error).message}`);
            }
          }
          return { topic: p.get("id").str(), body: answers.join("\n") };
        },
      },
    });
  const seen: { url: string; headers: Readonly<Record<string, string>> }[] = [];
  const request: WebhookRequest = {
    headers: {},
    params: {},
    rawBody: Buffer.from('{"id":"x"}'),
    fetchJson: (url, headers) => {
      seen.push({ url, headers });
      return Promise.resolve({ name: `item at ${url}` });
    },
  };

  it("gives the handler the server's GET, with the handler's URL and headers", async () => {
    seen.length = 0;
    expect(await dispatchWebhookAsync(lookup(["http"]), request)).toEqual({
      kind: "messages",
      event: "item",
      messages: [{ topic: "x", body: "item at https://api.example.com/items/0" }],
    });
    expect(seen).toEqual([
      { url: "https://api.example.com/items/0", headers: { authorization: "Bearer t" } },
    ]);
  });

  it("refuses the call when `http` is not declared, or when no fetcher was given", async () => {
    seen.length = 0;
    expect(await dispatchWebhookAsync(lookup([]), request)).toMatchObject({
      messages: [{ body: `Error: Integration 'lookup' reads 'http' without declaring needs: ["http"]` }],
    });
    expect(await dispatchWebhookAsync(lookup(["http"]), { ...request, fetchJson: undefined })).toMatchObject({
      messages: [{ body: `Error: No fetchJson was given to this dispatch (needs: ["http"])` }],
    });
    expect(seen).toEqual([]);
  });

  it("makes at most 10 calls per event; the next ones fail with ServiceApiError, unsent", async () => {
    seen.length = 0;
    const outcome = await dispatchWebhookAsync(lookup(["http"], 12), request);
    expect(outcome).toMatchObject({
      messages: [
        {
          body: [
            ...Array.from({ length: 10 }, (_, i) => `item at https://api.example.com/items/${i}`),
            "ServiceApiError: At most 10 API calls are made per event",
            "ServiceApiError: At most 10 API calls are made per event",
          ].join("\n"),
        },
      ],
    });
    expect(seen).toHaveLength(10);
  });
});
