import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { Bot } from "./bots.js";

/** Milliseconds of quiet typing before the preview is asked for. */
export const PREVIEW_DELAY_MS = 300;

const EXAMPLE_PAYLOAD = `{
  "name": "api",
  "status": "down",
  "url": "https://healthchecks.example.com/checks/1/details/"
}`;
const EXAMPLE_TOPIC = "{{ payload.name }}";
const EXAMPLE_BODY = `{% if payload.status == "down" %}:red_circle: **{{ payload.name | markdown_escape }}** is down{% else %}:green_circle: **{{ payload.name | markdown_escape }}** is back up{% endif %} ({{ payload.url | link: "details" }})`;

type Preview =
  | { kind: "idle" }
  | { kind: "ok"; topic: string; body: string }
  | { kind: "error"; message: string; template?: string; line?: number; column?: number };

function errorOf(err: unknown): Preview {
  if (!(err instanceof ApiError)) return { kind: "error", message: "Cannot reach the server." };
  const b = err.body;
  return {
    kind: "error",
    message: err.message,
    ...(typeof b["template"] === "string" ? { template: b["template"] } : {}),
    ...(typeof b["line"] === "number" ? { line: b["line"] } : {}),
    ...(typeof b["column"] === "number" ? { column: b["column"] } : {}),
  };
}

/**
 * The template integration's editor: topic and body templates (LiquidJS) and a sample payload,
 * previewed by the server (`POST /integrations/template/preview`) as the author types, and saved
 * into the chosen bot's configuration.
 */
export function TemplateEditor({ bot }: { bot: Bot | undefined }) {
  const [topic, setTopic] = useState(EXAMPLE_TOPIC);
  const [body, setBody] = useState(EXAMPLE_BODY);
  const [payload, setPayload] = useState(EXAMPLE_PAYLOAD);
  const [preview, setPreview] = useState<Preview>({ kind: "idle" });
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState("");
  const [saveError, setSaveError] = useState("");
  /** Only the answer to the latest request is shown (an older one may arrive after it). */
  const latest = useRef(0);

  useEffect(() => {
    setPending(true);
    const timer = setTimeout(() => {
      const n = ++latest.current;
      api
        .post("/integrations/template/preview", { template_topic: topic, template_body: body, payload })
        .then((res) => {
          if (n === latest.current)
            setPreview({ kind: "ok", topic: String(res["topic"]), body: String(res["body"]) });
        })
        .catch((err: unknown) => {
          if (n === latest.current) setPreview(errorOf(err));
        })
        .finally(() => {
          if (n === latest.current) setPending(false);
        });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [topic, body, payload]);

  const save = async () => {
    if (bot === undefined) return;
    setSaved("");
    setSaveError("");
    try {
      await api.patch(`/bots/${bot.user_id}`, {
        config_data: JSON.stringify({ template_topic: topic, template_body: body }),
      });
      setSaved(`Templates saved to ${bot.full_name}.`);
    } catch (err) {
      setSaveError(err instanceof ApiError ? err.message : "Cannot reach the server.");
    }
  };

  const where = (name: string) =>
    preview.kind === "error" && preview.template === name && preview.line !== undefined
      ? `line ${preview.line}, column ${preview.column ?? 1}`
      : undefined;
  return (
    <section class="card template-editor" aria-label="Template editor">
      <h2>Templates</h2>
      <p class="meta">
        LiquidJS templates see <code>payload</code> (the JSON body), <code>headers</code> and{" "}
        <code>query</code>. Filters: <code>markdown_escape</code>, <code>link</code>, <code>code</code>,{" "}
        <code>json</code>.
      </p>
      <div class="editor-grid">
        <div class="editor-inputs">
          <label>
            Topic template
            <input
              class="mono"
              value={topic}
              aria-invalid={where("template_topic") !== undefined}
              onInput={(e) => setTopic(e.currentTarget.value)}
            />
          </label>
          <label>
            Body template
            <textarea
              class="mono"
              rows={6}
              value={body}
              aria-invalid={where("template_body") !== undefined}
              onInput={(e) => setBody(e.currentTarget.value)}
            />
          </label>
          <label>
            Sample payload (JSON)
            <textarea
              class="mono"
              rows={8}
              value={payload}
              onInput={(e) => setPayload(e.currentTarget.value)}
            />
          </label>
        </div>
        <div class="editor-preview" aria-label="Preview" aria-busy={pending}>
          <h3>Preview {pending && <span class="meta">(updating…)</span>}</h3>
          {preview.kind === "ok" && (
            <>
              <p class="preview-topic">
                <span class="meta">Topic</span> <strong aria-label="Preview topic">{preview.topic}</strong>
              </p>
              <pre class="preview-body" aria-label="Preview body">
                {preview.body === "" ? "(empty: nothing would be posted)" : preview.body}
              </pre>
            </>
          )}
          {preview.kind === "error" && (
            <div class="error" role="alert" aria-label="Template error">
              <p>{preview.message}</p>
              {preview.line !== undefined && (
                <p class="mono">
                  {preview.template} · line {preview.line}, column {preview.column ?? 1}
                </p>
              )}
            </div>
          )}
        </div>
      </div>
      <div class="actions">
        <button type="button" disabled={bot === undefined} onClick={() => void save()}>
          Save templates to bot
        </button>
        {bot === undefined && <span class="meta">Pick a bot above first.</span>}
      </div>
      {saved !== "" && <p role="status">{saved}</p>}
      {saveError !== "" && (
        <p class="error" role="alert">
          {saveError}
        </p>
      )}
    </section>
  );
}
