import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, text } from "../lib/api.js";
import type { ChatStore, Draft, Message, Narrow, Person } from "../lib/chat-store.js";
import { insertMention, matchMentions, mentionAt } from "../lib/mentions.js";
import type { MentionQuery } from "../lib/mentions.js";
import { insertEmoji } from "../lib/emoji.js";
import { sanitize } from "../lib/sanitize.js";
import { uploadFile, uploadMarkdown } from "../lib/upload.js";

/** How long typing pauses before the compose box is saved as a draft. */
const DRAFT_SAVE_MS = 600;

export function Compose({
  store,
  narrow,
  reply,
  restore,
}: {
  store: ChatStore;
  narrow: Narrow;
  /** A message to answer (`r`, Quote and reply): its conversation, and its text quoted when asked. */
  reply?: { m: Message; quote: boolean; nonce: number } | undefined;
  /** A draft to go on writing (the Drafts view's Restore). */
  restore?: { draft: Draft; nonce: number } | undefined;
}) {
  const [kind, setKind] = useState<"stream" | "private">(narrow.private ? "private" : "stream");
  const [stream, setStream] = useState("");
  const [topic, setTopic] = useState("");
  const [to, setTo] = useState("");
  const [recipients, setRecipients] = useState<Person[]>([]);
  const [activeTo, setActiveTo] = useState(0);
  const [content, setContent] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  const [mention, setMention] = useState<MentionQuery | undefined>();
  const [active, setActive] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const previewButton = useRef<HTMLButtonElement>(null);
  const [uploads, setUploads] = useState<{ id: number; name: string; fraction: number }[]>([]);
  const [dragging, setDragging] = useState(false);
  const lastTyping = useRef(0);
  /** The server's draft of what is in the box (POST /drafts, then PATCH; DELETE once sent or emptied). */
  const draftId = useRef<number | undefined>(undefined);
  const draftSaves = useRef<Promise<void>>(Promise.resolve());
  const [draftStatus, setDraftStatus] = useState("");
  /** Preview (Zulip's eye button, Alt+P): the draft as POST /messages/render renders it. */
  const [previewing, setPreviewing] = useState(false);
  const [preview, setPreview] = useState<{ html?: string; error?: string } | undefined>();

  /** Typing notices (POST /typing): a start at most every 10 s while typing, a stop on send. */
  const typingTarget = (): Record<string, string | number | number[]> | undefined => {
    if (kind === "stream") {
      const s = store.streamByName(stream);
      return s && topic.trim() !== ""
        ? { type: "stream", stream_id: s.stream_id, topic: topic.trim() }
        : undefined;
    }
    return recipients.length > 0 ? { type: "direct", to: recipients.map((r) => r.user_id) } : undefined;
  };
  const notifyTyping = (op: "start" | "stop") => {
    const target = typingTarget();
    if (target === undefined) return;
    // The user's choice not to be seen typing (send_stream/private_typing_notifications).
    const setting =
      target.type === "stream" ? "send_stream_typing_notifications" : "send_private_typing_notifications";
    if (store.settings[setting] === false) return;
    if (op === "start") {
      if (Date.now() - lastTyping.current < 10_000) return;
      lastTyping.current = Date.now();
    } else {
      lastTyping.current = 0;
    }
    void api.post("/typing", { op, ...target }).catch(() => undefined);
  };

  // Files (button, drag and drop, paste) upload one by one; each becomes a link at the caret.
  const attach = (files: Iterable<File>) => {
    for (const file of files) {
      const id = Math.random();
      setUploads((u) => [...u, { id, name: file.name, fraction: 0 }]);
      uploadFile(file, (fraction) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, fraction } : x))))
        .then(({ url, name }) => {
          const el = textarea.current;
          setContent((c) => {
            const at = el && el.value === c ? el.selectionStart : c.length;
            const link = uploadMarkdown(name, url);
            const before = c.slice(0, at);
            return `${before}${before === "" || /\s$/.test(before) ? "" : " "}${link} ${c.slice(at)}`;
          });
        })
        .catch((err: unknown) =>
          setError(err instanceof ApiError ? err.message : `Cannot upload ${file.name}.`),
        )
        .finally(() => setUploads((u) => u.filter((x) => x.id !== id)));
    }
  };

  // Follow the narrow: composing in a stream or topic view fills in the recipient.
  useEffect(() => {
    if (narrow.private) setKind("private");
    if (narrow.dm !== undefined) {
      setKind("private");
      setRecipients(
        narrow.dm
          .filter((id) => id !== store.me.user_id || narrow.dm?.length === 1)
          .map((id) => store.users.get(id))
          .filter((p): p is Person => p !== undefined),
      );
    }
    if (narrow.streamId !== undefined) {
      setKind("stream");
      setStream(store.streamName(narrow.streamId) ?? "");
      setTopic(narrow.topic ?? "");
    }
  }, [narrow.streamId, narrow.topic, narrow.private, narrow.dm?.join(","), store]);

  useEffect(() => {
    if (reply === undefined) return;
    const { m, quote } = reply;
    if (m.type === "stream" && m.stream_id !== undefined) {
      setKind("stream");
      setStream(
        store.streamName(m.stream_id) ?? (typeof m.display_recipient === "string" ? m.display_recipient : ""),
      );
      setTopic(m.subject);
    } else if (Array.isArray(m.display_recipient)) {
      setKind("private");
      const others = m.display_recipient.filter((r) => r.id !== store.me.user_id);
      setRecipients(others.map((r) => store.users.get(r.id)).filter((p): p is Person => p !== undefined));
    }
    const focus = () => requestAnimationFrame(() => textarea.current?.focus());
    if (!quote) {
      focus();
      return;
    }
    api
      .get(`/messages/${m.id}`, { apply_markdown: false })
      .then((res) => {
        const raw = text(res["raw_content"]);
        setContent(
          (c) =>
            `${c === "" ? "" : c + "\n"}@_**${m.sender_full_name}|${m.sender_id}** said:\n\`\`\`quote\n${raw}\n\`\`\`\n`,
        );
        focus();
      })
      .catch(() => focus());
  }, [reply?.nonce]);

  useEffect(() => {
    if (restore === undefined) return;
    const d = restore.draft;
    if (d.type === "stream" && d.to[0] !== undefined) {
      setKind("stream");
      setStream(store.streamName(d.to[0]) ?? "");
      setTopic(d.topic);
    } else if (d.type === "private") {
      setKind("private");
      setRecipients(d.to.map((id) => store.users.get(id)).filter((p): p is Person => p !== undefined));
    }
    draftId.current = d.id;
    setContent(d.content);
    requestAnimationFrame(() => textarea.current?.focus());
  }, [restore?.nonce]);

  // Drafts: what is in the box is saved on the server a moment after typing stops.
  useEffect(() => {
    const queue = (job: () => Promise<void>) => {
      draftSaves.current = draftSaves.current.then(job).catch(() => setDraftStatus("Draft not saved."));
    };
    if (content.trim() === "") {
      // Sent or emptied: the draft goes (after a save still on its way).
      queue(async () => {
        const id = draftId.current;
        draftId.current = undefined;
        setDraftStatus("");
        if (id !== undefined) await api.delete(`/drafts/${id}`).catch(() => undefined);
      });
      return undefined;
    }
    const timer = setTimeout(() => {
      const s = store.streamByName(stream);
      const draft =
        kind === "stream" && s
          ? { type: "stream", to: [s.stream_id], topic: topic.trim(), content }
          : kind === "private" && recipients.length > 0
            ? { type: "private", to: recipients.map((r) => r.user_id), topic: "", content }
            : { type: "", to: [], topic: "", content };
      queue(async () => {
        const id = draftId.current;
        if (id !== undefined) {
          try {
            await api.patch(`/drafts/${id}`, { draft });
            setDraftStatus("Draft saved.");
            return;
          } catch (err) {
            // Deleted elsewhere (the Drafts view, another tab): save it anew.
            if (!(err instanceof ApiError && err.status === 404)) throw err;
          }
        }
        const res = await api.post("/drafts", { drafts: [draft] });
        draftId.current = (res["ids"] as number[])[0];
        setDraftStatus("Draft saved.");
      });
    }, DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [content, kind, stream, topic, recipients, store]);

  // While previewing, the box's text is rendered by the server (again if it changes, e.g. an upload).
  useEffect(() => {
    if (!previewing) return undefined;
    if (content.trim() === "") {
      setPreview({});
      return undefined;
    }
    let current = true;
    setPreview(undefined);
    api
      .post("/messages/render", { content })
      .then((res) => current && setPreview({ html: sanitize(text(res["rendered"])) }))
      .catch(
        (err: unknown) =>
          current &&
          setPreview({
            error: err instanceof ApiError ? err.message : "Cannot reach the server to preview.",
          }),
      );
    return () => {
      current = false;
    };
  }, [previewing, content]);

  // Focus follows the toggle (Alt+P from the textarea, which goes away): the textarea, or the Edit button.
  const togglePreview = () => {
    requestAnimationFrame(() => (previewing ? textarea.current : previewButton.current)?.focus());
    setPreviewing(!previewing);
    setMention(undefined);
  };

  const people: Person[] = [...store.users.values()].filter((u) => u.user_id !== store.me.user_id);
  const suggestions = mention ? matchMentions(people, mention.query) : [];
  const toSuggestions =
    to.trim() === ""
      ? []
      : matchMentions(
          people.filter((p) => !recipients.some((r) => r.user_id === p.user_id)),
          to.trim(),
        );
  const addRecipient = (p: Person) => {
    setRecipients([...recipients, p]);
    setTo("");
    setActiveTo(0);
  };
  const onToKeyDown = (e: KeyboardEvent) => {
    if (toSuggestions.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : toSuggestions.length - 1;
        setActiveTo((activeTo + step) % toSuggestions.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        const p = toSuggestions[activeTo] ?? toSuggestions[0];
        if (p) {
          e.preventDefault();
          addRecipient(p);
        }
        return;
      }
    }
    if (e.key === "Backspace" && to === "" && recipients.length > 0) setRecipients(recipients.slice(0, -1));
  };

  const updateMention = (text: string, caret: number) => {
    const m = mentionAt(text, caret);
    setMention(m);
    setActive(0);
  };

  const pick = (p: Person) => {
    const el = textarea.current;
    if (!el || !mention) return;
    const next = insertMention(content, el.selectionStart, mention, p.full_name);
    setContent(next.text);
    setMention(undefined);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  // The emoji picker: the realm's custom emoji, inserted as `:name:` at the caret.
  const pickEmoji = (name: string) => {
    const el = textarea.current;
    const next = insertEmoji(content, el?.selectionStart ?? content.length, name);
    setContent(next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  const send = async (e?: Event) => {
    e?.preventDefault();
    if (content.trim() === "" || sending) return;
    setSending(true);
    setError("");
    try {
      if (kind === "stream") {
        await api.post("/messages", { type: "stream", to: stream.trim(), topic: topic.trim(), content });
      } else {
        const typed = to
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "");
        await api.post("/messages", {
          type: "private",
          to: [...recipients.map((r) => r.email), ...typed],
          content,
        });
      }
      notifyTyping("stop");
      setContent("");
      setMention(undefined);
      setPreviewing(false);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot reach the server; your message was not sent.");
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (suggestions.length > 0 && mention) {
      if (e.key === "ArrowDown") {
        e.preventDefault();
        setActive((active + 1) % suggestions.length);
        return;
      }
      if (e.key === "ArrowUp") {
        e.preventDefault();
        setActive((active + suggestions.length - 1) % suggestions.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        const p = suggestions[active];
        if (p) pick(p);
        return;
      }
      if (e.key === "Escape") {
        setMention(undefined);
        return;
      }
    }
    // Enter sends; Shift+Enter is a new line (Ctrl/Cmd+Enter send too).
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const streams = [...store.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form
      class={dragging ? "compose dragging" : "compose"}
      onSubmit={(e) => void send(e)}
      aria-label="Compose"
      onKeyDown={(e) => {
        // Alt+P (Zulip's shortcut) toggles the preview; the key's code, since Alt changes the character on a Mac.
        if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyP") {
          e.preventDefault();
          togglePreview();
        }
      }}
      onDragOver={(e) => {
        if (e.dataTransfer?.types.includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        const files = e.dataTransfer?.files;
        if (files && files.length > 0) {
          e.preventDefault();
          attach(files);
        }
      }}
    >
      <div class="compose-row">
        <label class="compact">
          Message type
          <select
            aria-label="Message type"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as "stream" | "private")}
          >
            <option value="stream">Stream</option>
            <option value="private">Private</option>
          </select>
        </label>
        {kind === "stream" ? (
          <>
            <label class="compact grow">
              Stream
              <input
                list="compose-streams"
                value={stream}
                onInput={(e) => setStream(e.currentTarget.value)}
              />
              <datalist id="compose-streams">
                {streams.map((s) => (
                  <option key={s.stream_id} value={s.name} />
                ))}
              </datalist>
            </label>
            <label class="compact grow">
              Topic
              <input value={topic} maxLength={60} onInput={(e) => setTopic(e.currentTarget.value)} />
            </label>
          </>
        ) : (
          <div class="compact grow recipients">
            <label for="compose-to">To</label>
            <div class="pills">
              {recipients.map((r) => (
                <span key={r.user_id} class="pill">
                  {r.full_name}
                  <button
                    type="button"
                    class="link"
                    aria-label={`Remove ${r.full_name}`}
                    onClick={() => setRecipients(recipients.filter((x) => x.user_id !== r.user_id))}
                  >
                    ×
                  </button>
                </span>
              ))}
              <input
                id="compose-to"
                role="combobox"
                aria-autocomplete="list"
                aria-controls="recipient-list"
                aria-expanded={toSuggestions.length > 0}
                placeholder={recipients.length === 0 ? "Name or email" : ""}
                value={to}
                onInput={(e) => {
                  setTo(e.currentTarget.value);
                  setActiveTo(0);
                }}
                onKeyDown={onToKeyDown}
              />
            </div>
            {toSuggestions.length > 0 && (
              <ul id="recipient-list" class="typeahead" role="listbox" aria-label="Recipient suggestions">
                {toSuggestions.map((p, i) => (
                  <li
                    key={p.user_id}
                    role="option"
                    aria-selected={i === activeTo}
                    class={i === activeTo ? "active" : ""}
                    onMouseDown={(e) => {
                      e.preventDefault();
                      addRecipient(p);
                    }}
                  >
                    {p.full_name} <small>{p.email}</small>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      <div class="compose-row message-row">
        {previewing ? (
          <div
            class="compact grow compose-preview"
            role="region"
            aria-label="Message preview"
            aria-live="polite"
          >
            {preview === undefined ? (
              <p class="meta">Rendering preview…</p>
            ) : preview.error !== undefined ? (
              <p class="error" role="alert">
                {preview.error}
              </p>
            ) : preview.html === undefined ? (
              <p class="meta">Nothing to preview.</p>
            ) : (
              <div class="content" dangerouslySetInnerHTML={{ __html: preview.html }} />
            )}
          </div>
        ) : (
          <label class="compact grow">
            Message
            <textarea
              id="compose-message"
              ref={textarea}
              rows={3}
              value={content}
              aria-autocomplete="list"
              aria-describedby="compose-hint"
              aria-controls={suggestions.length > 0 ? "mention-list" : undefined}
              onInput={(e) => {
                setContent(e.currentTarget.value);
                updateMention(e.currentTarget.value, e.currentTarget.selectionStart);
                if (e.currentTarget.value !== "") notifyTyping("start");
              }}
              onKeyDown={onKeyDown}
              onPaste={(e) => {
                const files = e.clipboardData?.files;
                if (files && files.length > 0) {
                  e.preventDefault();
                  attach(files);
                }
              }}
            />
          </label>
        )}
        <button
          ref={previewButton}
          type="button"
          class="secondary"
          aria-keyshortcuts="Alt+P"
          title={previewing ? "Back to editing (Alt+P)" : "Preview the message (Alt+P)"}
          onClick={togglePreview}
        >
          {previewing ? "Edit" : "Preview"}
        </button>
        <label class="button secondary attach">
          Attach files
          <input
            type="file"
            multiple
            class="visually-hidden"
            onChange={(e) => {
              const files = e.currentTarget.files;
              if (files) attach([...files]);
              e.currentTarget.value = "";
            }}
          />
        </label>
        {store.customEmoji.size > 0 && (
          <details class="emoji-picker">
            <summary>Emoji</summary>
            <div role="listbox" aria-label="Custom emoji">
              {[...store.customEmoji.values()].map((e) => (
                <button key={e.id} type="button" title={`:${e.name}:`} onClick={() => pickEmoji(e.name)}>
                  <img src={e.source_url} alt={`:${e.name}:`} width={20} height={20} />
                </button>
              ))}
            </div>
          </details>
        )}
        <button type="submit" disabled={sending}>
          Send
        </button>
      </div>
      {uploads.map((u) => (
        <p key={u.id} class="upload" role="status">
          Uploading {u.name} <progress aria-label={`Uploading ${u.name}`} max={1} value={u.fraction} />
        </p>
      ))}
      <p class="hint" id="compose-hint">
        Enter to send, Shift+Enter for a new line, Alt+P to preview
        {draftStatus !== "" && <span class="draft-status"> · {draftStatus}</span>}
      </p>
      {suggestions.length > 0 && (
        <ul id="mention-list" class="typeahead" role="listbox" aria-label="Mention suggestions">
          {suggestions.map((p, i) => (
            <li
              key={p.user_id}
              role="option"
              aria-selected={i === active}
              class={i === active ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
            >
              {p.full_name}
              {p.is_bot ? (
                <>
                  {" "}
                  <span class="tag">bot</span>
                </>
              ) : null}{" "}
              <small>{p.email}</small>
            </li>
          ))}
        </ul>
      )}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
