import { useEffect, useState } from "preact/hooks";
import { ApiError, api, text } from "../lib/api.js";
import type { ChatStore } from "../lib/chat-store.js";

interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invite_as: number;
  is_multiuse: boolean;
}

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

const EXPIRIES: readonly { minutes: number | null; label: string }[] = [
  { minutes: 60, label: "1 hour" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 10 * 24 * 60, label: "10 days" },
  { minutes: 30 * 24 * 60, label: "30 days" },
  { minutes: null, label: "Never" },
];

const ROLES: readonly { id: number; label: string; admin: boolean }[] = [
  { id: 400, label: "Member", admin: false },
  { id: 600, label: "Guest", admin: false },
  { id: 300, label: "Moderator", admin: true },
  { id: 200, label: "Administrator", admin: true },
];

/**
 * Who may invite: one person with a single-use link (`can_invite_users_group`), anyone with a
 * reusable link (`create_multiuse_invite_group`). The system groups that make sense, by menu key.
 */
const INVITE_SETTINGS = [
  { setting: "can_invite_users_group", label: "Who can invite one person" },
  { setting: "create_multiuse_invite_group", label: "Who can make links anyone can use" },
] as const;
type InviteSetting = (typeof INVITE_SETTINGS)[number]["setting"];
const NOBODY = { direct_members: [], direct_subgroups: [] };
const INVITERS: readonly { key: string; label: string; value: number | typeof NOBODY }[] = [
  { key: "2", label: "Administrators", value: 2 },
  { key: "3", label: "Administrators and moderators", value: 3 },
  { key: "4", label: "Full members", value: 4 },
  { key: "5", label: "All members", value: 5 },
  { key: "nobody", label: "Nobody", value: NOBODY },
];

type GroupValue = number | { direct_members?: unknown[]; direct_subgroups?: unknown[] } | null | undefined;

/**
 * The menu key of a group-setting value: a listed system group, "nobody" (no members, no
 * subgroups), or "custom" for any other group or set of people (shown, not offered).
 */
function invitersKey(value: GroupValue): string {
  if (value === undefined) return "2";
  if (typeof value === "number")
    return INVITERS.some((i) => i.key === String(value)) ? String(value) : "custom";
  return value?.direct_members?.length === 0 && value.direct_subgroups?.length === 0 ? "nobody" : "custom";
}

const roleLabel = (id: number) => ROLES.find((r) => r.id === id)?.label ?? `Role ${id}`;
const date = (s: number) =>
  new Date(s * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Invitation links: made here and shown once (the server keeps only a hash), listed with their
 * expiry, revoked. Administrators also choose who may invite.
 */
export function Invitations({ store }: { store: ChatStore }) {
  const admin = store.me.is_admin === true;
  const [singleUse, setSingleUse] = useState(true);
  const [expiry, setExpiry] = useState(2);
  const [role, setRole] = useState(400);
  const [link, setLink] = useState("");
  const [invites, setInvites] = useState<Invite[]>([]);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  // The choices being saved; otherwise the realm's values (register, `realm` events).
  const [choosing, setChoosing] = useState<Partial<Record<InviteSetting, string>>>({});
  const inviters = (setting: InviteSetting) =>
    choosing[setting] ?? invitersKey(store.realm[setting] as GroupValue);
  const reload = () =>
    api
      .get("/invites")
      .then((res) => setInvites(res["invites"] as Invite[]))
      .catch(() => undefined);
  useEffect(() => void reload(), []);
  const create = async (e: Event) => {
    e.preventDefault();
    setError("");
    setStatus("");
    try {
      const res = await api.post("/invites/multiuse", {
        invite_expires_in_minutes: EXPIRIES[expiry]?.minutes ?? null,
        invite_as: role,
        single_use: singleUse,
      });
      setLink(text(res["invite_link"]));
      void reload();
    } catch (err) {
      setError(message(err));
    }
  };
  const revoke = async (id: number) => {
    setError("");
    try {
      await api.delete(`/invites/multiuse/${id}`);
      setStatus("Invitation revoked.");
      void reload();
    } catch (err) {
      setError(message(err));
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setStatus("Link copied.");
    } catch {
      setError("Cannot copy here; select the link and copy it.");
    }
  };
  const saveInviters = async (setting: InviteSetting, key: string) => {
    const choice = INVITERS.find((i) => i.key === key);
    if (choice === undefined) return;
    setChoosing({ ...choosing, [setting]: key });
    setError("");
    setStatus("");
    try {
      await api.patch("/realm", { [setting]: { new: choice.value } });
      store.realm = { ...store.realm, [setting]: choice.value };
      store.changed();
      setStatus("Invitation policy saved.");
    } catch (err) {
      setError(message(err));
    }
    setChoosing(({ [setting]: _saved, ...others }) => others);
  };
  return (
    <section class="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite people</h2>
      {!admin && store.realm["can_invite_others_to_realm"] === false ? (
        <p class="meta">
          Your organization lets only some people invite others: ask an administrator for an invitation link.
        </p>
      ) : (
        <>
          <p class="meta">
            A link lets someone choose a name and password and join, in the default streams. No email is sent:
            give them the link yourself. It is shown only once.
          </p>
          <form class="invite-form" aria-label="New invitation" onSubmit={(e) => void create(e)}>
            <fieldset>
              <legend>Who can use it</legend>
              <label class="check">
                <input type="radio" name="uses" checked={singleUse} onChange={() => setSingleUse(true)} />
                One person
              </label>
              <label class="check">
                <input type="radio" name="uses" checked={!singleUse} onChange={() => setSingleUse(false)} />
                Anyone with the link
              </label>
            </fieldset>
            <label>
              Expires after
              <select value={expiry} onChange={(e) => setExpiry(Number(e.currentTarget.value))}>
                {EXPIRIES.map((x, i) => (
                  <option key={x.label} value={i}>
                    {x.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Join as
              <select value={role} onChange={(e) => setRole(Number(e.currentTarget.value))}>
                {ROLES.filter((r) => admin || !r.admin).map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Create invitation link</button>
          </form>
        </>
      )}
      {link !== "" && (
        <div class="inline-form">
          <label class="grow">
            Invitation link
            <input readOnly class="mono" value={link} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" class="secondary" onClick={() => void copy()}>
            Copy link
          </button>
        </div>
      )}
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <h3>Active invitations</h3>
      {invites.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul class="invites">
          {invites.map((i) => (
            <li key={i.id}>
              {i.is_multiuse ? "Anyone with the link" : "One person"} · {roleLabel(i.invite_as)} · made by{" "}
              {i.invited_by_user_id === store.me.user_id
                ? "you"
                : (store.users.get(i.invited_by_user_id)?.full_name ?? "someone")}{" "}
              on {date(i.invited)} ·{" "}
              {i.expiry_date === null ? "never expires" : `expires ${date(i.expiry_date)}`}{" "}
              <button type="button" class="link" onClick={() => void revoke(i.id)}>
                Revoke invitation {i.id}
              </button>
            </li>
          ))}
        </ul>
      )}
      {admin &&
        INVITE_SETTINGS.map(({ setting, label }) => (
          <label key={setting}>
            {label}
            <select
              value={inviters(setting)}
              onChange={(e) => void saveInviters(setting, e.currentTarget.value)}
            >
              {INVITERS.map((i) => (
                <option key={i.key} value={i.key}>
                  {i.label}
                </option>
              ))}
              {inviters(setting) === "custom" && (
                <option value="custom" disabled>
                  Custom group
                </option>
              )}
            </select>
          </label>
        ))}
    </section>
  );
}
