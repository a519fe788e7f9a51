import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { ChatStore, Message, Reaction } from "../lib/chat-store.js";
import { emojiChar, searchEmoji, unicodeEmoji } from "../lib/emoji.js";

interface Group {
  name: string;
  code: string;
  type: string;
  users: number[];
}

function groups(reactions: readonly Reaction[]): Group[] {
  const out = new Map<string, Group>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = out.get(key);
    if (g) g.users.push(r.user_id);
    else out.set(key, { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [r.user_id] });
  }
  return [...out.values()];
}

function Glyph({ store, name, code, type }: { store: ChatStore; name: string; code: string; type: string }) {
  if (type === "realm_emoji") {
    const custom = store.customEmoji.get(name);
    return custom ? <img src={custom.source_url} alt="" width={18} height={18} /> : <span>:{name}:</span>;
  }
  const char = emojiChar(code);
  return <span aria-hidden="true">{char === "" ? `:${name}:` : char}</span>;
}

/** Picks an emoji by name: the realm's custom emoji first, then the full Unicode set. */
export function EmojiPicker({
  store,
  label,
  onPick,
  onClose,
}: {
  store: ChatStore;
  label: string;
  onPick: (name: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const [table, setTable] = useState<Readonly<Record<string, string>>>({});
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void unicodeEmoji().then(setTable);
    input.current?.focus();
  }, []);
  const custom = [...store.customEmoji.keys()];
  const names = searchEmoji([...new Set([...custom, ...Object.keys(table)])], query);
  return (
    <div
      class="emoji-popover"
      role="dialog"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          const first = names[0];
          if (e.key === "Enter" && first !== undefined) {
            e.preventDefault();
            onPick(first);
          }
        }}
      />
      <div class="emoji-grid">
        {names.map((name) => (
          <button
            key={name}
            type="button"
            class="emoji-choice"
            aria-label={name}
            title={`:${name}:`}
            onClick={() => onPick(name)}
          >
            <Glyph
              store={store}
              name={name}
              code={table[name] ?? ""}
              type={store.customEmoji.has(name) ? "realm_emoji" : "unicode_emoji"}
            />
          </button>
        ))}
      </div>
    </div>
  );
}

/** A message's reactions (click to add or remove yours) and the button that adds one. */
export function Reactions({ store, m }: { store: ChatStore; m: Message }) {
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState("");
  const me = store.me.user_id;
  const toggle = async (g: { name: string; code?: string; type?: string }, mine: boolean) => {
    setError("");
    try {
      const params = {
        emoji_name: g.name,
        ...(g.code !== undefined && g.code !== "" ? { emoji_code: g.code } : {}),
        ...(g.type !== undefined ? { reaction_type: g.type } : {}),
      };
      if (mine) await api.delete(`/messages/${m.id}/reactions`, params);
      else await api.post(`/messages/${m.id}/reactions`, params);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot reach the server.");
    }
  };
  const list = groups(m.reactions ?? []);
  return (
    <div class="reactions">
      {list.map((g) => {
        const mine = g.users.includes(me);
        const who = g.users.map((id) => (id === me ? "You" : (store.users.get(id)?.full_name ?? "Someone")));
        const n = g.users.length;
        return (
          <button
            key={`${g.type}:${g.code}`}
            type="button"
            class={mine ? "reaction mine" : "reaction"}
            aria-pressed={mine}
            aria-label={`${g.name}: ${n} reaction${n === 1 ? "" : "s"}, ${mine ? "remove" : "add"} yours`}
            title={`${who.join(", ")} reacted with :${g.name}:`}
            onClick={() => void toggle(g, mine)}
          >
            <Glyph store={store} name={g.name} code={g.code} type={g.type} /> <span>{n}</span>
          </button>
        );
      })}
      <button
        type="button"
        class="reaction add-reaction"
        aria-label="Add reaction"
        aria-expanded={picking}
        title="Add reaction"
        onClick={() => setPicking(!picking)}
      >
        <span aria-hidden="true">☺+</span>
      </button>
      {picking && (
        <EmojiPicker
          store={store}
          label="Choose a reaction"
          onClose={() => setPicking(false)}
          onPick={(name) => {
            setPicking(false);
            const existing = list.find((g) => g.name === name);
            void toggle({ name }, existing?.users.includes(me) ?? false);
          }}
        />
      )}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
