import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { ChatStore, Narrow, Person } from "../lib/chat-store.js";
import { insertMention, matchMentions, mentionAt } from "../lib/mentions.js";
import type { MentionQuery } from "../lib/mentions.js";
import { insertEmoji } from "../lib/emoji.js";

export function Compose({ store, narrow }: { store: ChatStore; narrow: Narrow }) {
  const [kind, setKind] = useState<"stream" | "private">(narrow.private ? "private" : "stream");
  const [stream, setStream] = useState("");
  const [topic, setTopic] = useState("");
  const [to, setTo] = useState("");
  const [content, setContent] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  const [mention, setMention] = useState<MentionQuery | undefined>();
  const [active, setActive] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);

  // Follow the narrow: composing in a stream or topic view fills in the recipient.
  useEffect(() => {
    if (narrow.private) setKind("private");
    if (narrow.streamId !== undefined) {
      setKind("stream");
      setStream(store.streamName(narrow.streamId) ?? "");
      setTopic(narrow.topic ?? "");
    }
  }, [narrow.streamId, narrow.topic, narrow.private, store]);

  const people: Person[] = [...store.users.values()].filter((u) => u.user_id !== store.me.user_id);
  const suggestions = mention ? matchMentions(people, mention.query) : [];

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
        const recipients = to
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "");
        await api.post("/messages", { type: "private", to: recipients, content });
      }
      setContent("");
      setMention(undefined);
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
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void send();
  };

  const streams = [...store.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form class="compose" onSubmit={(e) => void send(e)} aria-label="Compose">
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
          <label class="compact grow">
            To
            <input
              placeholder="Emails, separated by commas"
              value={to}
              onInput={(e) => setTo(e.currentTarget.value)}
            />
          </label>
        )}
      </div>
      <div class="compose-row message-row">
        <label class="compact grow">
          Message
          <textarea
            ref={textarea}
            rows={3}
            value={content}
            aria-autocomplete="list"
            aria-controls="mention-list"
            aria-expanded={suggestions.length > 0}
            onInput={(e) => {
              setContent(e.currentTarget.value);
              updateMention(e.currentTarget.value, e.currentTarget.selectionStart);
            }}
            onKeyDown={onKeyDown}
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
