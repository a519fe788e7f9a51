import { defineIntegration } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import * as m from "./messages.js";

/** Stripe's event types this integration posts (Zulip's wording), by handler. */
const HANDLED: readonly (readonly [Handler, readonly string[]])[] = [
  [m.account, ["account.updated"]],
  [
    m.charge,
    [
      "charge.captured",
      "charge.expired",
      "charge.failed",
      "charge.pending",
      "charge.refunded",
      "charge.succeeded",
      "charge.updated",
    ],
  ],
  [
    m.dispute,
    [
      "charge.dispute.closed",
      "charge.dispute.created",
      "charge.dispute.funds_reinstated",
      "charge.dispute.funds_withdrawn",
      "charge.dispute.updated",
    ],
  ],
  [m.refund, ["charge.refund.updated"]],
  [m.customer, ["customer.created", "customer.deleted", "customer.updated"]],
  [m.discount, ["customer.discount.created", "customer.discount.deleted", "customer.discount.updated"]],
  [
    m.source,
    [
      "customer.source.created",
      "customer.source.deleted",
      "customer.source.expiring",
      "customer.source.updated",
    ],
  ],
  [
    m.subscription,
    [
      "customer.subscription.created",
      "customer.subscription.deleted",
      "customer.subscription.paused",
      "customer.subscription.pending_update_applied",
      "customer.subscription.pending_update_expired",
      "customer.subscription.resumed",
      "customer.subscription.trial_will_end",
      "customer.subscription.updated",
    ],
  ],
  [m.file, ["file.created"]],
  [
    m.invoice,
    [
      "invoice.created",
      "invoice.deleted",
      "invoice.finalization_failed",
      "invoice.finalized",
      "invoice.marked_uncollectible",
      "invoice.overdue",
      "invoice.paid",
      "invoice.payment_action_required",
      "invoice.payment_failed",
      "invoice.payment_succeeded",
      "invoice.sent",
      "invoice.upcoming",
      "invoice.updated",
      "invoice.voided",
      "invoice.will_be_due",
    ],
  ],
  [m.invoiceItem, ["invoiceitem.created", "invoiceitem.deleted", "invoiceitem.updated"]],
];

const events: Record<string, Handler> = Object.fromEntries(
  HANDLED.flatMap(([handler, types]) => types.map((type) => [type, handler] as const)),
);

/** Stripe: charges, disputes, refunds, customers, subscriptions, invoices, as Zulip words them. */
export default defineIntegration({
  name: "stripe",
  displayName: "Stripe",
  categories: ["financial"],
  description: "Posts Stripe charges, disputes, refunds, customers, subscriptions and invoices.",
  signature: { kind: "timestamped-hmac", header: "Stripe-Signature", toleranceSeconds: 300 },
  // The event's id (`evt_…`): the same on every retry of the event.
  deliveryId: (req) => req.payload?.().get("id").str(),
  classify: ({ payload }) => payload.get("type").str(),
  events,
  // Categories Zulip's integration accepts and does not post (Connect, balance, payouts, …).
  ignoredEvents: [
    "account.*",
    "application_fee.*",
    "balance.*",
    "checkout_beta.*",
    "coupon.*",
    "issuing*",
    "order*",
    "payment_intent.*",
    "payout.*",
    "plan.*",
    "product.*",
    "recipient.*",
    "reporting.*",
    "review.*",
    "sigma.*",
    "sku.*",
    "source.*",
    "subscription_schedule.*",
    "topup.*",
    "transfer.*",
  ],
});
