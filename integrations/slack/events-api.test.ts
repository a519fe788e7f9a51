import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { FETCH_JSON_MAX_CALLS, ServiceApiError, fixtureRequest } from "../kit/index.js";
import type { DispatchOutcome, JsonFetcher, WebhookMessage } from "../kit/index.js";
import { dispatchWebhookAsync } from "../kit/stages.js";
import slack from "./index.js";

/**
 * Zulip's SlackWebhookTests (zerver/webhooks/slack/tests.py): the Events API with
 * `slack_app_token` in the URL and Slack's Web API mocked with Zulip's recorded answers
 * (fixtures/slack-api/: `users.info` names everyone "John Doe", `conversations.info` names every
 * channel "Slack general"). Expected topics and messages are Zulip's.
 */

const dir = new URL(".", import.meta.url);
const TOKEN = "xoxp-XXXXXXXXXXXXXXXXXXXXX";
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const USER = "John Doe";
const TOPIC = "Message from Slack";
const API_CHANNEL_NAME = "Slack general";
const NORMAL_TEXT = "Hello, this is a normal text message";

/** One request to the stubbed Web API. */
interface Call {
  url: string;
  headers: Readonly<Record<string, string>>;
}

function recorded(method: string): unknown {
  const file = new URL(`./fixtures/slack-api/${method}.json`, import.meta.url);
  return JSON.parse(fs.readFileSync(fileURLToPath(file), "utf8")) as unknown;
}

/**
 * Slack's Web API as Zulip's tests mock it: any GET of `users.info` or `conversations.info` gets
 * the recorded answer (`answer` may replace it); any other URL fails the test.
 */
function slackApi(
  calls: Call[],
  answer: (url: URL) => Promise<unknown> | undefined = () => undefined,
): JsonFetcher {
  return (url, headers) => {
    calls.push({ url, headers });
    const parsed = new URL(url);
    const method = /^https:\/\/slack\.com\/api\/(users\.info|conversations\.info)$/.exec(
      `${parsed.origin}${parsed.pathname}`,
    )?.[1];
    if (method === undefined) throw new Error(`The test's Slack API has no answer for ${url}`);
    return answer(parsed) ?? Promise.resolve(recorded(method));
  };
}

async function post(
  fixture: string,
  params: Record<string, string> = {},
  answer?: (url: URL) => Promise<unknown> | undefined,
): Promise<{ outcome: DispatchOutcome; calls: Call[] }> {
  const calls: Call[] = [];
  const outcome = await dispatchWebhookAsync(slack, {
    ...fixtureRequest(slack, dir, fixture, { stream: "slack", slack_app_token: TOKEN, ...params }),
    fetchJson: slackApi(calls, answer),
  });
  return { outcome, calls };
}

async function messagesOf(
  fixture: string,
  params: Record<string, string> = {},
  answer?: (url: URL) => Promise<unknown> | undefined,
): Promise<WebhookMessage[]> {
  const { outcome } = await post(fixture, params, answer);
  if (outcome.kind !== "messages") throw new Error(`expected messages, got ${outcome.kind}`);
  return outcome.messages;
}

const users = (id: string): Call => ({ url: `https://slack.com/api/users.info?user=${id}`, headers: AUTH });
const channels = (id: string): Call => ({
  url: `https://slack.com/api/conversations.info?channel=${id}`,
  headers: AUTH,
});

describe("slack: Zulip's Events API tests, names from Slack's Web API", () => {
  it("test_slack_only_stream_parameter: the sender's real_name from users.info, Bearer token", async () => {
    const { outcome, calls } = await post("message__with_normal_text");
    expect(outcome).toEqual({
      kind: "messages",
      event: "message",
      messages: [{ topic: TOPIC, body: `**${USER}**: ${NORMAL_TEXT}` }],
    });
    // No channel mapping: conversations.info is not asked.
    expect(calls).toEqual([users("U06NU4E26M9")]);
  });

  it("test_slack_with_user_specified_topic", async () => {
    expect(await messagesOf("message__with_normal_text", { topic: "test" })).toEqual([
      { topic: "test", body: `**${USER}**: ${NORMAL_TEXT}` },
    ]);
  });

  it("test_slack_channels_map_to_topics_true: the channel's name from conversations.info", async () => {
    const { outcome, calls } = await post("message__with_normal_text", { channels_map_to_topics: "1" });
    expect(outcome).toMatchObject({
      messages: [{ topic: `channel: ${API_CHANNEL_NAME}`, body: `**${USER}**: ${NORMAL_TEXT}` }],
    });
    expect(calls).toEqual([users("U06NU4E26M9"), channels("C06NRA6JLER")]);
  });

  it("test_slack_channels_map_to_topics_true_and_user_specified_topic", async () => {
    expect(
      await messagesOf("message__with_normal_text", { topic: "test", channels_map_to_topics: "1" }),
    ).toEqual([{ topic: "test", body: `**${USER}**: ${NORMAL_TEXT}` }]);
  });

  it("test_slack_channels_map_to_topics_false: a stream named after the channel", async () => {
    expect(await messagesOf("message__with_normal_text", { channels_map_to_topics: "0" })).toEqual([
      { topic: TOPIC, body: `**${USER}**: ${NORMAL_TEXT}`, stream: API_CHANNEL_NAME },
    ]);
  });

  it("test_url_options_channels_mapping_true (mapping=channels)", async () => {
    expect(await messagesOf("message__with_normal_text", { mapping: "channels" })).toEqual([
      { topic: TOPIC, body: `**${USER}**: ${NORMAL_TEXT}`, stream: API_CHANNEL_NAME },
    ]);
  });

  it("test_slack_channels_map_to_topics_false_and_user_specified_topic", async () => {
    expect(
      await messagesOf("message__with_normal_text", { topic: "test", channels_map_to_topics: "0" }),
    ).toEqual([{ topic: "test", body: `**${USER}**: ${NORMAL_TEXT}`, stream: API_CHANNEL_NAME }]);
  });

  it("test_url_options_map_to_channels_and_user_specified_topic", async () => {
    expect(
      await messagesOf("message__with_normal_text", { topic: "Message from Slack", mapping: "channels" }),
    ).toEqual([
      { topic: "Message from Slack", body: `**${USER}**: ${NORMAL_TEXT}`, stream: API_CHANNEL_NAME },
    ]);
  });

  it("test_invalid_channels_map_to_topics", async () => {
    await expect(post("message__with_normal_text", { channels_map_to_topics: "abc" })).rejects.toMatchObject({
      message: "Error: channels_map_to_topics parameter other than 0 or 1",
      httpStatus: 400,
    });
  });

  it.each([
    ["test_message_with_bullet_points", "message__with_bullet_points", "• list three\n• list two"],
    [
      "test_message_with_channel_and_user_mentions",
      "message__with_channel_and_user_mentions",
      "@**John Doe** **#general** message with both channel and user mentions",
    ],
    [
      "test_message_with_channel_mentions",
      "message__with_channel_mentions",
      "**#zulip-mirror** **#general** message with channel mentions",
    ],
    [
      "test_message_with_formatted_texts",
      "message__with_formatted_texts",
      "**Bold text** *italic text* ~~strikethrough~~",
    ],
    [
      "test_message_with_image_files",
      "message__with_image_files",
      "\n*[5e44bcbc-e43c-4a2e-85de-4be126f392f4.jpg](https://ds-py62195.slack.com/files/U06NU4E26M9/F079E4173BL/5e44bcbc-e43c-4a2e-85de-4be126f392f4.jpg)*\n" +
        "*[notif_bot.png](https://ds-py62195.slack.com/files/U06NU4E26M9/F079GJ49X4L/notif_bot.png)*\n" +
        "*[books.jpg](https://ds-py62195.slack.com/files/U06NU4E26M9/F07A2TA6PPS/books.jpg)*",
    ],
    ["test_message_with_inline_code", "message__with_inline_code", "`asdasda this is a code block`"],
    [
      "test_message_with_ordered_list",
      "message__with_ordered_list",
      "1. point one\n2. point two\n3. mix both\n4. pour water\n5. etc",
    ],
    [
      "test_message_with_user_mentions",
      "message__with_user_mentions",
      "@**John Doe** @**John Doe** @**John Doe** hello, this is a message with mentions",
    ],
    [
      "test_message_with_variety_files",
      "message__with_variety_files",
      "Message with an assortment of file types\n" +
        "*[postman-agent-0.4.25-linux-x64.tar.gz](https://ds-py62195.slack.com/files/U06NU4E26M9/F079E4CMY5Q/postman-agent-0.4.25-linux-x64.tar.gz)*\n" +
        "*[discord-0.0.55.deb](https://ds-py62195.slack.com/files/U06NU4E26M9/F079SQ33CBT/discord-0.0.55.deb)*\n" +
        "*[Slack-bot-scopes-List.xlsx](https://ds-py62195.slack.com/files/U06NU4E26M9/F079SQ721A5/slack-bot-scopes-list.xlsx)*\n" +
        "*[wallpaper.jpg](https://ds-py62195.slack.com/files/U06NU4E26M9/F079B7G7NUD/wallpaper.jpg)*\n" +
        "*[TestPDFfile.pdf](https://ds-py62195.slack.com/files/U06NU4E26M9/F07A2TVKNQ0/testpdffile.pdf)*\n" +
        "*[channels.json](https://ds-py62195.slack.com/files/U06NU4E26M9/F07A2TVQ7C0/channels.json)*",
    ],
    [
      "test_message_with_workspace_mentions",
      "message__with_workspace_mentions",
      "@**all** @**all** Sorry for mentioning. This is for the test fixtures for the Slack integration update PR I'm working on and can't be done in a private channel. :bow:",
    ],
    [
      "test_message_with_code_block",
      "message__with_code_block",
      "```def is_bot_message(payload: WildValue) -&gt; bool:\n" +
        '    app_api_id = payload.get("api_app_id").tame(check_none_or(check_string))\n' +
        "    bot_app_id = (\n" +
        '        payload.get("event", {})\n' +
        '        .get("bot_profile", {})\n' +
        '        .get("app_id")\n' +
        "        .tame(check_none_or(check_string))\n" +
        "    )\n" +
        "    return bot_app_id is not None and app_api_id == bot_app_id```",
    ],
    [
      "test_message_with_complex_formatted_texts",
      "message__with_complex_formatted_texts",
      "this is text messages with overlapping formatting\n***bold with italic***\n~~**bold with strike through**~~\n~~*italic with strike through*~~\n~~***all three***~~",
    ],
    [
      "test_message_with_complex_formatted_mentions",
      "message__with_complex_formatted_mentions",
      "@**John Doe** **#general** ~~***@**all*****~~",
    ],
    ["test_message_with_quote_block", "message__with_quote_block", "&gt; This is a quote"],
  ])("%s", async (_test, fixture, message) => {
    expect(await messagesOf(fixture)).toEqual([{ topic: TOPIC, body: `**${USER}**: ${message}` }]);
  });

  it("asks users.info once per user of an event (the sender mentions themself)", async () => {
    const { calls } = await post("message__with_user_mentions");
    expect(calls).toEqual([users("U06NU4E26M9"), users("U074VRHQ11T"), users("U074G5E1ANR")]);
  });

  it("test_block_message_from_slack_bridge_bot: nothing posted, nothing asked", async () => {
    const { outcome, calls } = await post("bridge_bot_message__from_zulip");
    expect(outcome.kind).toBe("ignored");
    expect(calls).toEqual([]);
  });

  it("test_block_slack_retries: nothing posted, nothing asked", async () => {
    const calls: Call[] = [];
    const request = fixtureRequest(slack, dir, "message__with_normal_text", { slack_app_token: TOKEN });
    const outcome = await dispatchWebhookAsync(slack, {
      ...request,
      headers: { ...request.headers, "x-slack-retry-num": "1" },
      fetchJson: slackApi(calls),
    });
    expect(outcome.kind).toBe("ignored");
    expect(calls).toEqual([]);
  });

  it("test_message_from_slack_integration_bot: rejected as unsupported before any call", async () => {
    const calls: Call[] = [];
    await expect(
      dispatchWebhookAsync(slack, {
        ...fixtureRequest(slack, dir, "integration_bot_message__clickup", { slack_app_token: TOKEN }),
        fetchJson: slackApi(calls),
      }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "integration bot message" });
    expect(calls).toEqual([]);
  });
});

describe("slack: without the Web API's names (this server's fallback)", () => {
  it("asks nothing without slack_app_token: the ids are posted", async () => {
    const calls: Call[] = [];
    const outcome = await dispatchWebhookAsync(slack, {
      ...fixtureRequest(slack, dir, "message__with_channel_and_user_mentions", {
        channels_map_to_topics: "1",
      }),
      fetchJson: slackApi(calls),
    });
    expect(outcome).toMatchObject({
      messages: [
        {
          topic: "channel: C06NRA6JLER",
          body: "**U06NU4E26M9**: @**U074VRHQ11T** **#general** message with both channel and user mentions",
        },
      ],
    });
    expect(calls).toEqual([]);
  });

  it("falls back per lookup: a failed call, an ok: false answer, an answer without the name", async () => {
    const answer = (url: URL): Promise<unknown> | undefined => {
      const user = url.searchParams.get("user");
      if (user === "U06NU4E26M9") {
        return Promise.reject(new ServiceApiError(`${url.href} answered HTTP 500`, url.href, 500));
      }
      if (user === "U074VRHQ11T") return Promise.resolve({ ok: true, user: { id: user } });
      if (url.pathname.endsWith("/conversations.info")) {
        return Promise.resolve({ ok: false, error: "channel_not_found" });
      }
      return undefined;
    };
    expect(await messagesOf("message__with_user_mentions", { channels_map_to_topics: "0" }, answer)).toEqual([
      {
        topic: TOPIC,
        body: "**U06NU4E26M9**: @**U074VRHQ11T** @**John Doe** @**U06NU4E26M9** hello, this is a message with mentions",
        stream: "C06NRA6JLER",
      },
    ]);
  });

  it("keeps the event's user_profile name when users.info fails", async () => {
    const answer = (url: URL): Promise<unknown> =>
      Promise.reject(new ServiceApiError(`${url.href} timed out`, url.href));
    expect(
      await messagesOf("message__with_files_and_mentions", { channels_map_to_topics: "1" }, answer),
    ).toEqual([
      {
        topic: "channel: C06NRA6JLER",
        body:
          "**John Doe**: @**John Doe** shared files in **#general** and **#[private Slack channel]**\n" +
          "*[wallpaper.jpg](https://ds-py62195.slack.com/files/U06NU4E26M9/F079B7G7NUD/wallpaper.jpg)*\n" +
          "*[TestPDFfile.pdf](https://ds-py62195.slack.com/files/U06NU4E26M9/F07A2TVKNQ0/testpdffile.pdf)*",
      },
    ]);
  });

  it(`names the sender and the channel first when the mentions exceed ${FETCH_JSON_MAX_CALLS} calls`, async () => {
    const ids = Array.from(
      { length: FETCH_JSON_MAX_CALLS },
      (_, i) => `U0000000${String(i).padStart(2, "0")}`,
    );
    const request = fixtureRequest(slack, dir, "message__with_normal_text", {
      slack_app_token: TOKEN,
      channels_map_to_topics: "1",
    });
    const payload = JSON.parse(request.rawBody.toString("utf8")) as { event: { text: string } };
    payload.event.text = ids.map((id) => `<@${id}>`).join(" ");
    const calls: Call[] = [];
    const outcome = await dispatchWebhookAsync(slack, {
      ...request,
      rawBody: Buffer.from(JSON.stringify(payload)),
      fetchJson: slackApi(calls),
    });
    // The sender, the channel and 8 mentions fit in the budget; the last 2 mentions keep their ids.
    expect(outcome).toMatchObject({
      messages: [
        {
          topic: "channel: Slack general",
          body: `**John Doe**: ${"@**John Doe** ".repeat(8)}@**U000000008** @**U000000009**`,
        },
      ],
    });
    expect(calls).toHaveLength(FETCH_JSON_MAX_CALLS);
  });
});
