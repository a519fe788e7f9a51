import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, expectError } from "../kit/testing.js";
import papertrail, { timeMention } from "./index.js";

describeCases(papertrail, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown): ReturnType<typeof dispatchWebhook> {
  const form = { payload: JSON.stringify(payload) };
  return dispatchWebhook(papertrail, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "papertrail", ...form },
    rawBody: Buffer.from(new URLSearchParams(form).toString()),
    form,
  });
}

const search = { name: "Errors", query: "error", html_search_url: "https://papertrailapp.com/searches/7" };

describe("papertrail: searches the recorded cases lack", () => {
  it("quotes every match of a short search, without See more", () => {
    const event = { received_at: "2024-02-01T10:00:00Z", source_name: "web1", message: "error: boom" };
    expect(post({ saved_search: search, events: [event] })).toMatchObject({
      kind: "messages",
      messages: [
        {
          topic: "logs",
          body:
            '[Search for "Errors"](https://papertrailapp.com/searches/7) found **1** matches:\n\n' +
            "<time:2024-02-01T10:00:00+00:00> - web1 - error:\n``` quote\nerror: boom\n```",
        },
      ],
    });
  });

  it("writes times as Python's isoformat", () => {
    expect(timeMention("2011-05-18T20:30:02-07:00")).toBe("<time:2011-05-18T20:30:02-07:00>");
    expect(timeMention("2011-05-18T20:30:02.5+0200")).toBe("<time:2011-05-18T20:30:02.500000+02:00>");
  });

  it("answers a payload without events as Zulip does", () => {
    const caught = expectError(() => post({ saved_search: search }));
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "Events key is missing from payload",
      code: "BAD_REQUEST",
    });
  });
});

describe("papertrail: Zulip's other fixtures", () => {
  const savedSearch = {
    id: 42,
    name: "Important stuff",
    query: "cron OR server1",
    html_edit_url: "https://papertrailapp.com/searches/42/edit",
    html_search_url: "https://papertrailapp.com/searches/42",
  };
  const event = (id: number, source: string, host: string, ip: string, message: string): unknown => ({
    id,
    received_at: "2011-05-18T20:30:02-07:00",
    display_received_at: "May 18 20:30:02",
    source_ip: ip,
    source_name: source,
    source_id: source === "abc" ? 2 : 19,
    hostname: host,
    program: "CROND",
    severity: "Info",
    facility: "Cron",
    message,
  });

  it("quotes both matches of Zulip's short search (short_post)", () => {
    const payload = {
      events: [
        event(7711561783320576, "abc", "abc", "208.75.57.121", "message body"),
        event(7711562567655424, "server1", "def", "208.75.57.120", "A short event"),
      ],
      saved_search: savedSearch,
      max_id: 7711582041804800,
      min_id: 7711561783320576,
    };
    expect(post(payload)).toMatchObject({
      kind: "messages",
      messages: [
        {
          topic: "logs",
          body:
            '[Search for "Important stuff"](https://papertrailapp.com/searches/42) found **2** matches:\n\n' +
            "<time:2011-05-18T20:30:02-07:00> - abc - cron OR server1:\n``` quote\nmessage body\n```\n" +
            "<time:2011-05-18T20:30:02-07:00> - server1 - cron OR server1:\n``` quote\nA short event\n```",
        },
      ],
    });
  });

  it("answers Zulip's incorrect_post (no events) with its error", () => {
    const caught = expectError(() =>
      post({ saved_search: savedSearch, max_id: 7711582041804800, min_id: 7711561783320576 }),
    );
    expect(caught.toJSON()).toMatchObject({ msg: "Events key is missing from payload" });
  });
});
