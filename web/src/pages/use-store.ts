import { useEffect, useState } from "preact/hooks";
import type { ChatStore } from "../lib/chat-store.js";

/** Re-renders the component whenever the store changes. */
export function useStore(store: ChatStore): number {
  const [, setVersion] = useState(store.version);
  useEffect(() => store.subscribe(() => setVersion(store.version)), [store]);
  return store.version;
}
