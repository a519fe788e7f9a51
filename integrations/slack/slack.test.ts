import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { Wild, fixtureRequest } from "../kit/index.js";
import type { WebhookMessage } from "../kit/index.js";
import { dispatchWebhook, dispatchWebhookAsync } from "../kit/stages.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import slack from "./index.js";
import { convertSlackFormatting, replaceLinks } from "./markdown.js";

const here = new URL(".", import.meta.url);

describeCases(slack, new URL("./fixtures/cases", import.meta.url));

function form(body: string, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(slack, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "slack", ...params },
    rawBody: Buffer.from(body, "utf8"),
  });
}

/** The messages an Events API fixture gives, without slack_app_token (no Web API calls). */
async function eventMessages(
  fixture: string,
  params: Record<string, string> = {},
): Promise<WebhookMessage[]> {
  const outcome = await dispatchWebhookAsync(slack, fixtureRequest(slack, here, fixture, params));
  if (outcome.kind !== "messages") throw new Error(`expected messages, got ${outcome.kind}`);
  return outcome.messages;
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return (err as { toJSON(): unknown }).toJSON();
  }
  return undefined;
}

describe("slack: legacy outgoing webhooks", () => {
  it("converts Slack formatting, links and mailto links", () => {
    expectFixture(slack, here, "outgoing_webhook__links", {
      topic: "Message from Slack",
      body: "**slack_user**: Read **this** [the docs](https://example.com/docs) or mail mailto:help@example.com",
    });
  });

  it("answers a missing field as Zulip does", () => {
    expect(errorOf(() => form("user_name=u&channel_name=general"))).toEqual({
      result: "error",
      msg: "Missing 'text' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "text",
    });
  });

  it("posts to a stream named after the Slack channel with channels_map_to_topics=0", () => {
    const outcome = form("user_name=slack_user&channel_name=random&text=hi", { channels_map_to_topics: "0" });
    expect(outcome).toEqual({
      kind: "messages",
      event: "outgoing_webhook",
      messages: [{ topic: "Message from Slack", body: "**slack_user**: hi", stream: "random" }],
    });
  });

  it("rejects channels_map_to_topics other than 0 or 1", () => {
    expect(errorOf(() => form("user_name=u&channel_name=c&text=t", { channels_map_to_topics: "2" }))).toEqual(
      {
        result: "error",
        msg: "Error: channels_map_to_topics parameter other than 0 or 1",
        code: "BAD_REQUEST",
      },
    );
  });
});

describe("slack: Events API", () => {
  // Without slack_app_token (Zulip's Web API lookups, events-api.test.ts): ids, or user_profile.
  it("posts a channel message with Slack formatting converted (links are kept, as in Zulip)", async () => {
    expect(await eventMessages("message__normal_text")).toEqual([
      {
        topic: "Message from Slack",
        body: "**U06NU4E26M9**: Hello **team**, see <https://zulip.com|Zulip> and ~~old~~ *new* plans @**all**",
      },
    ]);
  });

  it("names the sender from user_profile, converts mentions and lists shared files", async () => {
    expect(await eventMessages("message__with_files_and_mentions", { channels_map_to_topics: "1" })).toEqual([
      {
        topic: "channel: C06NRA6JLER",
        body:
          "**John Doe**: @**John Doe** shared files in **#general** and **#[private Slack channel]**\n" +
          "*[wallpaper.jpg](https://ds-py62195.slack.com/files/U06NU4E26M9/F079B7G7NUD/wallpaper.jpg)*\n" +
          "*[TestPDFfile.pdf](https://ds-py62195.slack.com/files/U06NU4E26M9/F07A2TVKNQ0/testpdffile.pdf)*",
      },
    ]);
  });

  it("posts to a stream named after the channel's id with channels_map_to_topics=0", async () => {
    expect(await eventMessages("message__normal_text", { channels_map_to_topics: "0" })).toMatchObject([
      { topic: "Message from Slack", stream: "C06NRA6JLER" },
    ]);
  });

  it("does not mirror back messages of a Zulip bridge bot", () => {
    expectFixture(slack, here, "bridge_bot_message__from_zulip", null);
  });

  it("rejects messages of Slack integrations (no user) as unsupported", () => {
    expect(() =>
      dispatchWebhook(slack, fixtureRequest(slack, here, "integration_bot_message__clickup")),
    ).toThrow(
      expect.objectContaining({
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        eventType: "integration bot message",
      }),
    );
  });

  it("ignores Slack's retries of a callback", () => {
    const req = fixtureRequest(slack, here, "message__normal_text");
    const outcome = dispatchWebhook(slack, { ...req, headers: { ...req.headers, "x-slack-retry-num": "1" } });
    expect(outcome.kind).toBe("ignored");
  });

  it("rejects other event types as unsupported", () => {
    const outcome = (): unknown =>
      dispatchWebhook(slack, {
        headers: { "content-type": "application/json" },
        params: {},
        rawBody: Buffer.from(JSON.stringify({ type: "event_callback", event: { type: "reaction_added" } })),
      });
    expect(outcome).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "reaction_added" }),
    );
  });
});

describe("slack: the url_verification handshake", () => {
  const bot = { id: 3, email: "slack-bot@example.com", fullName: "Slack bot" };
  const noHeaders = (): undefined => undefined;

  it("answers the challenge", () => {
    const payload = new Wild({
      events: {
        token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
        challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
        type: "url_verification",
      },
    });
    expect(slack.handshake?.({ method: "POST", params: {}, header: noHeaders, payload, bot })).toEqual({
      status: 200,
      body: { result: "success", msg: "", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" },
    });
  });

  it("lets event callbacks and outgoing webhooks through", () => {
    const events = new Wild({ events: { type: "event_callback" } });
    const outgoing = new Wild({ outgoing: { text: "t" } });
    expect(
      slack.handshake?.({ method: "POST", params: {}, header: noHeaders, payload: events, bot }),
    ).toBeUndefined();
    expect(
      slack.handshake?.({ method: "POST", params: {}, header: noHeaders, payload: outgoing, bot }),
    ).toBeUndefined();
  });
});

describe("slack: X-Slack-Signature (v0)", () => {
  // Slack's documented example: signing secret, timestamp, body and the signature they give.
  const secret = "8f742231b10e8888abcd99yyyzzz85a5";
  const timestamp = "1531420618";
  const body = Buffer.from(
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
  );
  const signature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
  const scheme = slack.signature;
  if (scheme === undefined) throw new Error("slack declares a signature");
  const request = (headers: Record<string, string>) => ({
    rawBody: body,
    url: "https://chat.example.com/api/v1/external/slack?api_key=k&stream=slack",
    header: (name: string) => headers[name.toLowerCase()],
  });
  const signed = { "x-slack-signature": signature, "x-slack-request-timestamp": timestamp };

  it("accepts Slack's example within five minutes of its timestamp", () => {
    expect(() => verifySignature(scheme, secret, request(signed), 1531420618 + 120)).not.toThrow();
  });

  it("rejects a stale timestamp, another secret and a missing signature", () => {
    expect(() => verifySignature(scheme, secret, request(signed), 1531420618 + 301)).toThrow(
      expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }),
    );
    expect(() => verifySignature(scheme, "not-the-secret", request(signed), 1531420618)).toThrow(
      expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }),
    );
    expect(() =>
      verifySignature(scheme, secret, request({ "x-slack-request-timestamp": timestamp }), 1531420618),
    ).toThrow(expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }));
  });

  it("binds the timestamp into the signature", () => {
    const moved = { ...signed, "x-slack-request-timestamp": "1531420619" };
    expect(() => verifySignature(scheme, secret, request(moved), 1531420619)).toThrow(
      expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }),
    );
  });
});

describe("slack: formatting conversion", () => {
  it("formats only where Slack would", () => {
    expect(convertSlackFormatting("*bold* a*b*c _it_ ~st~ `*code*`")).toBe(
      "**bold** a*b*c *it* ~~st~~ `*code*`",
    );
    expect(convertSlackFormatting("line\n*bold*\n_it_")).toBe("line\n**bold**\n*it*");
  });

  it("converts plain and labelled links", () => {
    expect(replaceLinks("<https://foo.com> <http://www.foo.com/x|foo>")).toBe(
      "https://foo.com [foo](http://www.foo.com/x)",
    );
  });
});
