/** Zulip's keyboard shortcuts that the app has, for the `?` list. */
export const SHORTCUTS: readonly [string, string][] = [
  ["/", "Search messages"],
  ["c", "New message in the current stream or topic"],
  ["r", "Reply to the selected message"],
  ["j / k", "Select the next / previous message"],
  ["n", "Go to the next topic with unread messages"],
  ["t", "Open Recent conversations"],
  ["d", "Open Drafts"],
  ["Esc", "Close a dialog, or leave the compose box"],
  ["Enter", "Send (Shift+Enter: a new line)"],
  ["Alt+P", "Preview the message in the compose box, or go back to editing it"],
  ["?", "Show this list"],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <div
      class="dialog-backdrop"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <section class="dialog card" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
        <h2>Keyboard shortcuts</h2>
        <table class="shortcuts">
          <tbody>
            {SHORTCUTS.map(([key, what]) => (
              <tr key={key}>
                <th scope="row">
                  <kbd>{key}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose} ref={(el) => el?.focus()}>
          Close
        </button>
      </section>
    </div>
  );
}
