/** The template integration's renderer: rendering, filters, and every limit tripped by a hostile template. */
import { describe, expect, it } from "@jest/globals";
import { markdownEscape, markdownLink, renderTemplates } from "../../integrations/template/engine.js";
import { TemplateError } from "../../integrations/template/render-protocol.js";

const scope = {
  payload: {
    // Looping over `many` allocates nothing (it comes with the payload): only time runs out.
    many: Array.from({ length: 1000 }, (_, i) => i),
    long: "x".repeat(10_000),
    name: "a*b_[c]",
    url: "https://x.test/a b",
    items: [{ n: 1 }, { n: 2 }],
    status: "down",
  },
  headers: { "x-event": "alert" },
  query: { env: "prod" },
};

function errorOf(topic: string, body: string): Record<string, unknown> {
  try {
    renderTemplates({ topic, body }, scope);
  } catch (err) {
    expect(err).toBeInstanceOf(TemplateError);
    return (err as TemplateError).toJSON();
  }
  throw new Error("expected a TemplateError");
}

describe("renderTemplates", () => {
  it("renders topic and body against payload, headers and query", () => {
    expect(
      renderTemplates(
        {
          topic: "{{ payload.status | upcase }} in {{ query.env }}",
          body: "{% for i in payload.items %}- {{ i.n }}\n{% endfor %}event: {{ headers['x-event'] }}",
        },
        scope,
      ),
    ).toEqual({ topic: "DOWN in prod", body: "- 1\n- 2\nevent: alert" });
  });

  it("escapes Markdown and builds safe links", () => {
    expect(
      renderTemplates(
        { topic: "t", body: "{{ payload.name | markdown_escape }} {{ payload.url | link: payload.name }}" },
        scope,
      ),
    ).toEqual({ topic: "t", body: "a\\*b\\_\\[c\\] [a\\*b\\_\\[c\\]](https://x.test/a%20b)" });
    expect(markdownEscape("**bold** `code` @all")).toBe("\\*\\*bold\\*\\* \\`code\\` \\@all");
    expect(markdownLink("javascript:alert(1)", "click")).toBe("click");
    expect(markdownLink("https://example.com/")).toBe("[https\\://example\\.com/](https://example.com/)");
  });

  it("cuts a long topic to 60 characters and joins its lines", () => {
    expect(
      renderTemplates(
        { topic: "{{ 'x' | append: '\n' }}{% for i in (1..70) %}y{% endfor %}", body: "b" },
        scope,
      ),
    ).toEqual({
      topic: `x ${"y".repeat(55)}...`,
      body: "b",
    });
  });

  it("sees no prototype properties", () => {
    expect(
      renderTemplates({ topic: "t", body: "[{{ payload.constructor }}{{ payload.__proto__ }}]" }, scope),
    ).toEqual({
      topic: "t",
      body: "[]",
    });
  });
});

describe("errors name the template, line and column", () => {
  it("an unknown filter", () => {
    expect(errorOf("t", "line1\n  {{ payload.a | nofilter }}")).toEqual({
      result: "error",
      msg: "Error in template_body at line 2, column 3: undefined filter: nofilter",
      code: "BAD_REQUEST",
      template: "template_body",
      line: 2,
      column: 3,
    });
  });

  it("an unclosed tag in the topic", () => {
    expect(errorOf("ok\n{% if payload.a %}", "b")).toEqual({
      result: "error",
      msg: "Error in template_topic at line 2, column 1: tag {% if payload.a %} not closed",
      code: "BAD_REQUEST",
      template: "template_topic",
      line: 2,
      column: 1,
    });
  });
});

describe("hostile templates trip a limit", () => {
  it("no file system: include, render and layout are refused", () => {
    for (const tag of ["include", "render", "layout"]) {
      expect(errorOf("t", `{% ${tag} '/etc/passwd' %}`)).toEqual({
        result: "error",
        msg: `Error in template_body at line 1, column 1: the "${tag}" tag is not available (templates cannot read files)`,
        code: "BAD_REQUEST",
        template: "template_body",
        line: 1,
        column: 1,
      });
    }
  });

  it("memory limit: a huge range", () => {
    expect(errorOf("t", "{% for i in (1..100000000) %}x{% endfor %}")["msg"]).toBe(
      "Error in template_body at line 1, column 1: memory alloc limit exceeded",
    );
  });

  it("memory limit: a string doubled again and again", () => {
    expect(
      errorOf(
        "t",
        '{% assign s = "xxxxxxxxxx" %}{% for i in (1..30) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      )["msg"],
    ).toBe("Error in template_body at line 1, column 52: memory alloc limit exceeded");
  });

  it("render time limit: nested loops over the payload (no allocation)", () => {
    expect(
      errorOf(
        "t",
        "{% for i in payload.many %}{% for j in payload.many %}{% for k in payload.many %}{% endfor %}{% endfor %}{% endfor %}",
      )["msg"],
    ).toBe("Error in template_body at line 1, column 55: template render limit exceeded");
  });

  it("output size cap", () => {
    expect(errorOf("t", "{{ payload.status | append: payload.long }}")).toEqual({
      result: "error",
      msg: "Error in template_body: the output is longer than 10000 characters",
      code: "BAD_REQUEST",
      template: "template_body",
    });
  });

  it("parse limit: a template over 20,000 characters", () => {
    expect(errorOf("t", "x".repeat(20_001))).toEqual({
      result: "error",
      msg: "Error in template_body: the templates are longer than 20000 characters",
      code: "BAD_REQUEST",
      template: "template_body",
    });
  });
});

describe("the examples of docs/integration-operations.md", () => {
  const render = (topic: string, body: string, payload: unknown) =>
    renderTemplates({ topic, body }, { payload, headers: {}, query: {} });

  it("Vercel", () => {
    expect(
      render(
        "{{ payload.payload.deployment.name }}",
        '{% if payload.type == "deployment.error" %}:x:{% else %}:rocket:{% endif %} {{ payload.type | remove_first: "deployment." }} of **{{ payload.payload.deployment.name | markdown_escape }}** ({{ payload.payload.target | default: "preview" }}): {{ payload.payload.links.deployment | link: "inspect" }}',
        {
          type: "deployment.succeeded",
          payload: {
            deployment: { name: "my-app", url: "my-app-abc.vercel.app" },
            links: { deployment: "https://vercel.com/acme/my-app/abc" },
            target: "production",
          },
        },
      ),
    ).toEqual({
      topic: "my-app",
      body: ":rocket: succeeded of **my\\-app** (production): [inspect](https://vercel.com/acme/my-app/abc)",
    });
  });

  it("Docker Hub", () => {
    expect(
      render(
        "{{ payload.repository.repo_name }}",
        "**{{ payload.push_data.pusher | markdown_escape }}** pushed `{{ payload.push_data.tag }}` to {{ payload.repository.repo_url | link: payload.repository.repo_name }}",
        {
          push_data: { pusher: "trustedbuilder", tag: "latest" },
          repository: {
            repo_name: "svendowideit/testhook",
            repo_url: "https://registry.hub.docker.com/u/svendowideit/testhook/",
          },
        },
      ),
    ).toEqual({
      topic: "svendowideit/testhook",
      body: "**trustedbuilder** pushed `latest` to [svendowideit/testhook](https://registry.hub.docker.com/u/svendowideit/testhook/)",
    });
  });

  it("Healthchecks.io", () => {
    expect(
      render(
        "{{ payload.name }}",
        '{% if payload.status == "down" %}:red_circle: **{{ payload.name | markdown_escape }}** is down{% else %}:green_circle: **{{ payload.name | markdown_escape }}** is back up{% endif %} ({{ payload.url | link: "details" }})',
        { name: "nightly backup", status: "down", url: "https://healthchecks.io/checks/1234/details/" },
      ),
    ).toEqual({
      topic: "nightly backup",
      body: ":red_circle: **nightly backup** is down ([details](https://healthchecks.io/checks/1234/details/))",
    });
  });
});
