import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import type { DispatchOutcome } from "../kit/index.js";
import { casePayload, describeCases, dispatchPayload } from "../kit/testing.js";
import gitlab from "./index.js";

describeCases(gitlab, new URL("./fixtures/cases", import.meta.url));

type Json = Record<string, unknown>;

/** A recorded payload, deep-copied so a test may edit it. */
const fixture = (caseId: string): Json => casePayload(new URL("./fixtures/cases", import.meta.url), caseId);

function send(
  event: string | undefined,
  payload: unknown,
  params: Record<string, string> = {},
): DispatchOutcome {
  return dispatchPayload(gitlab, event, payload, params);
}

function message(outcome: DispatchOutcome): { topic: string; body: string } {
  if (outcome.kind !== "messages") throw new Error(`expected a message, got ${outcome.kind}`);
  expect(outcome.messages).toHaveLength(1);
  const [m] = outcome.messages;
  if (m === undefined) throw new Error("no message");
  return m;
}

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("expected an error");
}

const attrs = (p: Json): Json => p["object_attributes"] as Json;

describe("gitlab: behaviour the recorded cases do not show", () => {
  it("reports a deleted branch when `after` is the zero SHA", () => {
    const p = fixture("test_push_event_message");
    p["after"] = "0000000000000000000000000000000000000000";
    p["commits"] = [];
    expect(message(send("Push Hook", p))).toEqual({
      topic: "my-awesome-project / tomek",
      body: "Tomasz Kolek deleted branch tomek.",
    });
  });

  it("lists 20 commits and counts the rest", () => {
    const p = fixture("test_push_event_message");
    const commit = (p["commits"] as Json[])[0];
    p["commits"] = Array.from({ length: 23 }, () => commit);
    const body = message(send("Push Hook", p)).body;
    const lines = body.split("\n");
    expect(lines[0]).toBe(
      "Tomasz Kolek [pushed](https://gitlab.com/tomaszkolek0/my-awesome-project/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9) 23 commits to branch tomek.",
    );
    expect(lines.filter((l) => l.startsWith("* b ("))).toHaveLength(20);
    expect(lines[lines.length - 1]).toBe("[and 3 more commit(s)]");
  });

  it("matches the `branches` option against whole branch names", () => {
    const p = fixture("test_push_event_message");
    expect(send("Push Hook", p, { branches: "tom,tomeks" }).kind).toBe("ignored");
    expect(send("Push Hook", p, { branches: " master , tomek " }).kind).toBe("messages");
    expect(send("Push Hook", p, { branches: "" }).kind).toBe("messages");
  });

  it("announces a wiki page", () => {
    const p = {
      object_kind: "wiki_page",
      user: { name: "Tomasz Kolek", username: "tomaszkolek0" },
      project: { name: "my-awesome-project", web_url: "https://gitlab.com/tomaszkolek0/my-awesome-project" },
      object_attributes: {
        title: "how to",
        url: "https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to",
        action: "create",
      },
    };
    expect(message(send("Wiki Page Hook", p))).toEqual({
      topic: "my-awesome-project",
      body: 'Tomasz Kolek created [wiki page "how to"](https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to).',
    });
    p.object_attributes.action = "update";
    expect(message(send("Wiki Page Hook", p)).body).toBe(
      'Tomasz Kolek updated [wiki page "how to"](https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to).',
    );
  });

  it("links the artifacts a pipeline job built, and says a pending pipeline was created", () => {
    const p = fixture("test_pipeline_succeeded_event_message");
    const [first] = p["builds"] as Json[];
    if (first === undefined) throw new Error("fixture has builds");
    first["artifacts_file"] = { filename: "artifacts.zip", size: 1024 };
    p["builds"] = [first];
    attrs(p)["status"] = "pending";
    expect(message(send("Pipeline Hook", p))).toEqual({
      topic: "my-awesome-project / master",
      body:
        "[Pipeline (4414206)](https://gitlab.com/TomaszKolek/my-awesome-project/-/pipelines/4414206) was created with build(s):\n" +
        "* [job_name2](https://gitlab.com/TomaszKolek/my-awesome-project/-/jobs/4541113) - success\n" +
        "  * built artifact: *artifacts.zip* [[Browse](https://gitlab.com/TomaszKolek/my-awesome-project/-/jobs/4541113/artifacts/browse)|[Download](https://gitlab.com/TomaszKolek/my-awesome-project/-/jobs/4541113/artifacts/download)].",
    });
  });

  it("says a failed job changed status", () => {
    const p = fixture("test_build_created_event_message");
    p["build_status"] = "failed";
    expect(message(send("Job Hook", p)).body).toBe(
      "Build job_name from test stage changed status to failed.",
    );
  });

  it("reports a reopened merge request and an updated issue", () => {
    const mr = fixture("test_merge_request_closed_event_message");
    attrs(mr)["action"] = "reopen";
    expect(message(send("Merge Request Hook", mr))).toEqual({
      topic: "my-awesome-project / MR #2 NEW MR",
      body: "Tomasz Kolek reopened [MR #2](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/2).",
      // With resolve_topics=true, a reopened merge request unresolves its topic.
      resolves: false,
    });
    const issue = fixture("test_close_issue_event_message");
    attrs(issue)["action"] = "update";
    expect(message(send("Issue Hook", issue, { topic: "notifications" }))).toEqual({
      topic: "notifications",
      body: "[[my-awesome-project](https://gitlab.com/tomaszkolek0/my-awesome-project)] Tomasz Kolek updated [issue #1 Issue title_new](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).",
    });
  });

  it("reports a single reviewer's approval as theirs, not the merge request's", () => {
    const p = fixture("test_merge_request_approved_event_message");
    attrs(p)["action"] = "approval";
    expect(message(send("Merge Request Hook", p)).body).toBe(
      "Eeshan Garg added their approval for [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).",
    );
  });

  it("leaves the title out of merge request topics when use_merge_request_title is false", () => {
    const p = fixture("test_merge_request_closed_event_message");
    expect(message(send("Merge Request Hook", p, { use_merge_request_title: "false" })).topic).toBe(
      "my-awesome-project / MR #2",
    );
  });

  it("filters on 'header + action' names", () => {
    const p = fixture("test_merge_request_closed_event_message");
    const only = (names: string[]): string =>
      send("Merge Request Hook", p, { only_events: JSON.stringify(names) }).kind;
    expect(only(["Merge Request Hook open"])).toBe("filtered");
    expect(only(["Merge Request Hook close"])).toBe("messages");
    expect(only(["Merge Request Hook *"])).toBe("messages");
  });

  it("rejects an action it does not know with its full event name", () => {
    const p = fixture("test_merge_request_closed_event_message");
    attrs(p)["action"] = "delete";
    expect(errorOf(() => send("Merge Request Hook", p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "Merge Request Hook delete",
      webhook_name: "GitLab",
    });
  });

  it("names System Hook events after the payload's event_name", () => {
    const p = { event_name: "repository_update", user_name: "root", project_id: 1, changes: [] };
    expect(errorOf(() => send("System Hook", p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "Repository Update Hook",
    });
  });

  it("requires the X-GitLab-Event header", () => {
    expect(errorOf(() => send(undefined, fixture("test_push_event_message")))).toMatchObject({
      code: "MISSING_HTTP_EVENT_HEADER",
      header: "X-GitLab-Event",
    });
  });

  it("names the missing key of a malformed payload", () => {
    const p = fixture("test_push_event_message");
    delete p["user_name"];
    expect(errorOf(() => send("Push Hook", p)).msg).toBe("Missing key 'user_name' in JSON payload");
  });
});
