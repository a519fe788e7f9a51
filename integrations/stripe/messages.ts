import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic, unixToIso } from "../kit/message-text.js";
import { pythonStr } from "../kit/python-json.js";

/** Dashboard names and URL folders of Stripe object ids, by prefix (`ch_…`, `cus_…`). */
const ID_PREFIXES: Readonly<Record<string, readonly [string, string | null]>> = {
  ch: ["Charge", "charges"],
  cus: ["Customer", "customers"],
  dp: ["Dispute", "disputes"],
  du: ["Dispute", "disputes"],
  file: ["File", "files"],
  link: ["File link", "file_links"],
  pi: ["Payment intent", "payment_intents"],
  po: ["Payout", "payouts"],
  prod: ["Product", "products"],
  re: ["Refund", "refunds"],
  tok: ["Token", "tokens"],
  ba: ["Bank account", null],
  card: ["Card", null],
  src: ["Source", null],
  in: ["Invoice", "invoices"],
  ii: ["Invoice item", "invoiceitems"],
  sub: ["Subscription", "subscriptions"],
  si: ["Subscription item", "subscription_items"],
  mbur: ["Usage record", null],
  py: ["Payment", "payments"],
  pyr: ["Refund", "refunds"],
};

/** `[Charge](https://dashboard.stripe.com/charges/ch_…)`; an id of an unknown kind is shown as is. */
export function linkifiedId(id: string, lower = false): string {
  const known = ID_PREFIXES[id.split("_")[0] ?? ""];
  if (known === undefined) return id;
  const name = lower ? known[0].toLowerCase() : known[0];
  return known[1] === null ? name : `[${name}](https://dashboard.stripe.com/${known[1]}/${id})`;
}

const ZERO_DECIMAL = new Set("bif djf jpy krw pyg vnd xaf xpf clp gnf kmf mga rwf vuv xof".split(" "));

/** "1.00 AUD", "$1.00", "500 JPY". */
export function amountString(amount: number, currency: string): string {
  const decimal = ZERO_DECIMAL.has(currency) ? String(amount) : (amount * 0.01).toFixed(2);
  return currency === "usd" ? `$${decimal}` : `${decimal} ${currency.toUpperCase()}`;
}

/** A value of an updated attribute: timestamps as Zulip's global times, the rest as Python prints it. */
function stringify(value: unknown): string {
  if (typeof value === "number" && Number.isInteger(value) && value > 1500000000 && value < 2000000000) {
    return `<time:${unixToIso(value)}>`;
  }
  return pythonStr(value);
}

/** Python's `str.capitalize()`. */
const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** Thrown-free marker: the update has nothing worth saying (Zulip's SuppressedEventError). */
const SUPPRESSED = Symbol("suppressed");

interface Event {
  type: string;
  category: string;
  resource: string;
  event: string;
  object: Wild;
  payload: Wild;
  /** The customer's id when the object names one. */
  customer: string | undefined;
}

export function splitType(type: string): { category: string; resource: string; event: string } | undefined {
  const parts = type.split(".");
  if (parts.length === 3)
    return { category: parts[0] ?? "", resource: parts[1] ?? "", event: parts[2] ?? "" };
  if (parts.length === 2)
    return { category: parts[0] ?? "", resource: parts[0] ?? "", event: parts[1] ?? "" };
  return undefined;
}

function readEvent(p: Wild): Event {
  const type = p.get("type").str();
  const split = splitType(type) ?? { category: type, resource: type, event: "" };
  const object = p.get("data").get("object");
  // The customer's id, or the id of an expanded customer object.
  const customerField = object.opt("customer");
  const customer = customerField?.isObject() === true ? customerField.opt("id")?.value : customerField?.value;
  return {
    type,
    ...split,
    object,
    payload: p,
    customer: typeof customer === "string" ? customer : undefined,
  };
}

const str = (w: Wild | undefined): string => pythonStr(w?.value);

/** "\n* Account balance is now 100" for each changed attribute (sorted), or SUPPRESSED. */
function updateString(e: Event, blacklist: readonly string[] = []): string | typeof SUPPRESSED {
  const previous = e.payload.get("data").opt("previous_attributes");
  if (previous === undefined || !previous.isObject()) return SUPPRESSED;
  const changed = previous
    .keys()
    .filter((k) => !blacklist.includes(k))
    .sort();
  if (changed.length === 0) return SUPPRESSED;
  return changed
    .map((a) => `\n* ${capitalize(a.replace(/_/g, " "))} is now ${stringify(e.object.opt(a)?.value)}`)
    .join("");
}

function defaultBody(e: Event, blacklist: readonly string[] = []): string | typeof SUPPRESSED {
  const body = `${linkifiedId(e.object.get("id").str())} ${e.event.replace(/_/g, " ")}`;
  if (e.event !== "updated") return body;
  const update = updateString(e, blacklist);
  return update === SUPPRESSED ? SUPPRESSED : body + update;
}

function message(topic: string, body: string | typeof SUPPRESSED): HandlerResult {
  if (body === SUPPRESSED) return null;
  return { topic: truncateTopic(topic === "" ? "(no topic)" : topic), body: normalizeBody(body) };
}

const amountOf = (object: Wild, field = "amount"): string =>
  amountString(object.get(field).num(), object.get("currency").str());

export function account(p: Wild): HandlerResult {
  const e = readEvent(p);
  return message("account updates", updateString(e));
}

export function charge(p: Wild): HandlerResult {
  const e = readEvent(p);
  let body = `${linkifiedId(e.object.get("id").str())} for ${amountOf(e.object)} ${e.event}`;
  const failure = e.object.opt("failure_code")?.value;
  if (typeof failure === "string" && failure !== "") body += `. Failure code: ${failure}`;
  return message(e.customer ?? "charges", body);
}

export function dispute(p: Wild): HandlerResult {
  const e = readEvent(p);
  const body = defaultBody(e);
  if (body === SUPPRESSED) return null;
  const status = str(e.object.opt("status")).replace(/_/g, " ");
  return message("disputes", `${body}. Current status: ${status}.`);
}

export function refund(p: Wild): HandlerResult {
  const e = readEvent(p);
  const chargeId = e.object.opt("charge")?.value;
  const body =
    `A ${linkifiedId(e.object.get("id").str(), true)} for a ` +
    `${typeof chargeId === "string" ? linkifiedId(chargeId, true) : "charge"} of ${amountOf(e.object)} was updated.`;
  return message("refunds", body);
}

export function customer(p: Wild): HandlerResult {
  const e = readEvent(p);
  let body = defaultBody(e, ["delinquent", "currency", "default_source"]);
  if (body === SUPPRESSED) return null;
  if (e.event === "created") {
    const email = e.object.opt("email")?.value;
    if (typeof email === "string" && email !== "") body += `\nEmail: ${email}`;
    const metadata = e.object.opt("metadata");
    if (metadata?.isObject() === true) {
      for (const [key, value] of metadata.entries()) body += `\n${key}: ${str(value)}`;
    }
  }
  return message(e.object.get("id").str(), body);
}

export function discount(p: Wild): HandlerResult {
  const e = readEvent(p);
  const coupon = e.object.get("coupon");
  const id = coupon.get("id").text();
  const name = coupon.opt("name")?.text() ?? id;
  const body = `Discount ${e.event.replace(/_/g, " ")} ([${name}](https://dashboard.stripe.com/coupons/${id})).`;
  return message(e.customer ?? "", body);
}

export function source(p: Wild): HandlerResult {
  const e = readEvent(p);
  return message(e.customer ?? "", defaultBody(e));
}

const DAY = 60 * 60 * 24;

/**
 * Whole days (rounded) from when Stripe created the event to the trial's end. Stripe sends the
 * event three days ahead (Zulip counts from the moment it arrives, which a handler cannot read):
 * when the event's time is missing or not within 30 days before the end, three days is assumed.
 */
export function trialDaysLeft(createdAt: unknown, trialEnd: unknown): number {
  if (typeof createdAt !== "number" || typeof trialEnd !== "number") return 3;
  const seconds = trialEnd - createdAt;
  if (seconds < 0 || seconds > 30 * DAY) return 3;
  return Math.floor((seconds + DAY / 2) / DAY);
}

export function subscription(p: Wild): HandlerResult {
  const e = readEvent(p);
  let body = defaultBody(e);
  if (body === SUPPRESSED) return null;
  if (e.event === "trial_will_end") {
    body += ` in ${trialDaysLeft(p.opt("created")?.value, e.object.opt("trial_end")?.value)} days`;
  }
  if (e.event === "created") {
    const plan = e.object.opt("plan");
    if (plan?.isObject() === true) {
      const id = plan.get("id").str();
      const nickname = plan.opt("nickname")?.value;
      body +=
        typeof nickname === "string"
          ? `\nPlan: [${nickname}](https://dashboard.stripe.com/plans/${id})`
          : `\nPlan: https://dashboard.stripe.com/plans/${id}`;
    }
    const quantity = e.object.opt("quantity")?.value;
    if (typeof quantity === "number" && quantity !== 0) body += `\nQuantity: ${pythonStr(quantity)}`;
    const billing = e.object.opt("billing")?.value;
    if (typeof billing === "string") body += `\nBilling method: ${billing.replace(/_/g, " ")}`;
  }
  return message(e.customer ?? "", body);
}

export function file(p: Wild): HandlerResult {
  const e = readEvent(p);
  const body = defaultBody(e);
  if (body === SUPPRESSED) return null;
  const purpose = str(e.object.opt("purpose")).replace(/_/g, " ");
  return message("files", `${body} (${purpose}). \nTitle: ${str(e.object.opt("title"))}`);
}

function isNowPaid(e: Event): boolean {
  const previous = e.payload.get("data").opt("previous_attributes");
  return (
    previous?.opt("paid")?.value === false &&
    e.object.opt("paid")?.value === true &&
    e.object.opt("amount_paid")?.value !== 0 &&
    e.object.opt("amount_remaining")?.value === 0
  );
}

export function invoice(p: Wild): HandlerResult {
  const e = readEvent(p);
  let body: string | typeof SUPPRESSED;
  if (e.event === "upcoming") {
    body = "Upcoming invoice created";
  } else if (e.event === "updated" && isNowPaid(e)) {
    body = `[Invoice](https://dashboard.stripe.com/invoices/${e.object.get("id").str()}) is now paid`;
  } else {
    body = defaultBody(e, [
      "lines",
      "description",
      "number",
      "finalized_at",
      "status_transitions",
      "payment_intent",
    ]);
  }
  if (body === SUPPRESSED) return null;
  if (e.event === "created") {
    const reason = e.object.opt("billing_reason")?.text();
    body +=
      (reason === undefined ? "" : ` (${reason.replace(/_/g, " ")})`) +
      `\nTotal: ${amountOf(e.object, "total")}\nAmount due: ${amountOf(e.object, "amount_due")}`;
  }
  return message(e.customer ?? "", body);
}

export function invoiceItem(p: Wild): HandlerResult {
  const e = readEvent(p);
  let body = defaultBody(e, ["description", "invoice"]);
  if (body === SUPPRESSED) return null;
  if (e.event === "created") body += ` for ${amountOf(e.object)}`;
  return message(e.customer ?? "", body);
}
