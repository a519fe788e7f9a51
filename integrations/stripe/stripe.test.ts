import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import stripe from "./index.js";
import { amountString, linkifiedId, trialDaysLeft } from "./messages.js";
import { pythonRepr, pythonStr } from "../kit/python-json.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(stripe, cases);

/** Hand-written events (fixtures/<type>__<variant>.json) and the message each one must produce. */
const FIXTURES: [string, { topic: string; body: string } | null][] = [
  [
    "charge.captured__card",
    {
      topic: "cus_PoQkVj1",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for $20.00 captured",
    },
  ],
  [
    "charge.expired__card",
    {
      topic: "cus_PoQkVj1",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for $20.00 expired",
    },
  ],
  [
    "charge.pending__card",
    {
      topic: "cus_PoQkVj1",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for $20.00 pending",
    },
  ],
  [
    "charge.refunded__card",
    {
      topic: "cus_PoQkVj1",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for $20.00 refunded",
    },
  ],
  [
    "charge.updated__card",
    {
      topic: "cus_PoQkVj1",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for $20.00 updated",
    },
  ],
  [
    "charge.failed__card_declined",
    {
      topic: "charges",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) for 19.99 EUR failed. Failure code: card_declined",
    },
  ],
  [
    "charge.dispute.created__needs_response",
    {
      topic: "disputes",
      body: "[Dispute](https://dashboard.stripe.com/disputes/dp_1OzUhK2eZvKYlo2C) created. Current status: needs response.",
    },
  ],
  [
    "charge.dispute.funds_reinstated__needs_response",
    {
      topic: "disputes",
      body: "[Dispute](https://dashboard.stripe.com/disputes/dp_1OzUhK2eZvKYlo2C) funds reinstated. Current status: needs response.",
    },
  ],
  [
    "charge.dispute.funds_withdrawn__needs_response",
    {
      topic: "disputes",
      body: "[Dispute](https://dashboard.stripe.com/disputes/dp_1OzUhK2eZvKYlo2C) funds withdrawn. Current status: needs response.",
    },
  ],
  [
    "charge.dispute.updated__under_review",
    {
      topic: "disputes",
      body: "[Dispute](https://dashboard.stripe.com/disputes/dp_1OzUhK2eZvKYlo2C) updated\n* Status is now under_review. Current status: under review.",
    },
  ],
  [
    "charge.refund.updated__succeeded",
    {
      topic: "refunds",
      body: "A [refund](https://dashboard.stripe.com/refunds/re_3OzUgG2eZvKYlo2C1) for a [charge](https://dashboard.stripe.com/charges/ch_3OzUgG2eZvKYlo2C0) of 5.00 EUR was updated.",
    },
  ],
  [
    "customer.created__email_and_metadata",
    {
      topic: "cus_PoQkVj1",
      body: "[Customer](https://dashboard.stripe.com/customers/cus_PoQkVj1) created\nEmail: hamlet@zulip.com\nplan: team",
    },
  ],
  [
    "customer.updated__email",
    {
      topic: "cus_PoQkVj1",
      body: "[Customer](https://dashboard.stripe.com/customers/cus_PoQkVj1) updated\n* Email is now prince@zulip.com",
    },
  ],
  ["customer.updated__only_ignored_attributes", null],
  [
    "customer.discount.deleted__unnamed_coupon",
    {
      topic: "cus_PoQkVj1",
      body: "Discount deleted ([SUMMER24](https://dashboard.stripe.com/coupons/SUMMER24)).",
    },
  ],
  [
    "customer.discount.updated__unnamed_coupon",
    {
      topic: "cus_PoQkVj1",
      body: "Discount updated ([SUMMER24](https://dashboard.stripe.com/coupons/SUMMER24)).",
    },
  ],
  ["customer.source.created__card", { topic: "cus_PoQkVj1", body: "Card created" }],
  ["customer.source.deleted__card", { topic: "cus_PoQkVj1", body: "Card deleted" }],
  ["customer.source.expiring__card", { topic: "cus_PoQkVj1", body: "Card expiring" }],
  ["customer.source.updated__card", { topic: "cus_PoQkVj1", body: "Card updated\n* Exp year is now 2030" }],
  [
    "customer.subscription.paused__active",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) paused",
    },
  ],
  [
    "customer.subscription.pending_update_applied__active",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) pending update applied",
    },
  ],
  [
    "customer.subscription.pending_update_expired__active",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) pending update expired",
    },
  ],
  [
    "customer.subscription.resumed__active",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) resumed",
    },
  ],
  [
    "customer.subscription.trial_will_end__three_days",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) trial will end in 3 days",
    },
  ],
  [
    "customer.subscription.updated__status",
    {
      topic: "cus_PoQkVj1",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1OzUl92eZvKYlo2C) updated\n* Current period end is now <time:2023-12-14T22:13:20+00:00>\n* Status is now past_due",
    },
  ],
  [
    "file.created__dispute_evidence",
    {
      topic: "files",
      body: "[File](https://dashboard.stripe.com/files/file_1OzUm52eZvKYlo2C) created (dispute evidence). \nTitle: None",
    },
  ],
  [
    "invoice.created__subscription_cycle",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) created (subscription cycle)\nTotal: $15.00\nAmount due: $15.00",
    },
  ],
  [
    "invoice.deleted__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) deleted",
    },
  ],
  [
    "invoice.finalization_failed__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) finalization failed",
    },
  ],
  [
    "invoice.finalized__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) finalized",
    },
  ],
  [
    "invoice.marked_uncollectible__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) marked uncollectible",
    },
  ],
  [
    "invoice.overdue__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) overdue",
    },
  ],
  [
    "invoice.paid__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) paid",
    },
  ],
  [
    "invoice.payment_action_required__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) payment action required",
    },
  ],
  [
    "invoice.payment_succeeded__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) payment succeeded",
    },
  ],
  [
    "invoice.sent__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) sent",
    },
  ],
  [
    "invoice.voided__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) voided",
    },
  ],
  [
    "invoice.will_be_due__open",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) will be due",
    },
  ],
  ["invoice.upcoming__next_cycle", { topic: "cus_PoQkVj1", body: "Upcoming invoice created" }],
  [
    "invoice.updated__now_paid",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) is now paid",
    },
  ],
  [
    "invoice.updated__status",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1OzUn72eZvKYlo2C) updated\n* Status is now open",
    },
  ],
  [
    "invoiceitem.created__setup_fee",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice item](https://dashboard.stripe.com/invoiceitems/ii_1OzUo82eZvKYlo2C) created for 10.00 CAD",
    },
  ],
  [
    "invoiceitem.deleted__setup_fee",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice item](https://dashboard.stripe.com/invoiceitems/ii_1OzUo82eZvKYlo2C) deleted",
    },
  ],
  [
    "invoiceitem.updated__amount",
    {
      topic: "cus_PoQkVj1",
      body: "[Invoice item](https://dashboard.stripe.com/invoiceitems/ii_1OzUo82eZvKYlo2C) updated\n* Amount is now 1200",
    },
  ],
  [
    "account.updated__business_profile",
    {
      topic: "account updates",
      body: "* Business profile is now {'name': 'Kandra Labs', 'url': None}\n* Charges enabled is now True",
    },
  ],
  ["payout.paid__ignored", null],
];

describe("stripe: every event type it posts", () => {
  it.each(FIXTURES)("%s", (name, expected) => {
    expectFixture(stripe, here, name, expected);
  });
});

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("expected an error");
}

describe("stripe: routing and omitted fields", () => {
  it("rejects event types it does not know", () => {
    const p = { type: "customer.tax_id.created", data: { object: { id: "txi_1" } } };
    expect(errorOf(() => dispatchPayload(stripe, undefined, p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "customer.tax_id.created",
    });
  });

  it("filters with Stripe's event types", () => {
    const p = casePayload(cases, "test_charge_failed");
    expect(dispatchPayload(stripe, undefined, p, { only_events: '["charge.succeeded"]' }).kind).toBe(
      "filtered",
    );
    expect(dispatchPayload(stripe, undefined, p, { only_events: '["charge.*"]' }).kind).toBe("messages");
  });

  it("posts a charge without a failure code field or customer", () => {
    const p = casePayload(cases, "test_charge_failed") as { data: { object: Record<string, unknown> } };
    delete p.data.object["failure_code"];
    delete p.data.object["customer"];
    expect(onlyMessage(dispatchPayload(stripe, undefined, p))).toEqual({
      topic: "charges",
      body: "[Charge](https://dashboard.stripe.com/charges/ch_00000000000000) for 1.00 AUD failed",
    });
  });

  it("names the topic after an expanded customer object's id", () => {
    const p = casePayload(cases, "test_invoice_payment_failed") as {
      data: { object: Record<string, unknown> };
    };
    p.data.object["customer"] = { id: "cus_EXPANDED", object: "customer", email: "a@example.com" };
    expect(onlyMessage(dispatchPayload(stripe, undefined, p)).topic).toBe("cus_EXPANDED");
  });

  it("posts a new subscription without a plan or quantity", () => {
    const p = casePayload(cases, "test_customer_subscription_created") as {
      data: { object: Record<string, unknown> };
    };
    delete p.data.object["plan"];
    delete p.data.object["quantity"];
    delete p.data.object["billing"];
    expect(onlyMessage(dispatchPayload(stripe, undefined, p))).toEqual({
      topic: "cus_00000000000000",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) created",
    });
  });

  it("links ids by their prefix and shows unknown ones as they are", () => {
    expect(linkifiedId("py_1")).toBe("[Payment](https://dashboard.stripe.com/payments/py_1)");
    expect(linkifiedId("re_1", true)).toBe("[refund](https://dashboard.stripe.com/refunds/re_1)");
    expect(linkifiedId("card_1")).toBe("Card");
    expect(linkifiedId("pm_1")).toBe("pm_1");
  });

  it("counts the days left of a trial from the event's time, else Stripe's three", () => {
    expect(trialDaysLeft(1700000000, 1700000000 + 3 * 86400 - 100)).toBe(3);
    expect(trialDaysLeft(1700000000, 1700000000 + 86400 * 7)).toBe(7);
    expect(trialDaysLeft(1326853478, 1480892861)).toBe(3);
    expect(trialDaysLeft(undefined, 1480892861)).toBe(3);
  });

  it("writes amounts as Zulip does", () => {
    expect(amountString(100, "usd")).toBe("$1.00");
    expect(amountString(1999, "eur")).toBe("19.99 EUR");
    expect(amountString(500, "jpy")).toBe("500 JPY");
  });

  it("prints values as Python's str()", () => {
    expect(pythonStr(null)).toBe("None");
    expect(pythonStr(true)).toBe("True");
    expect(pythonStr(2.5)).toBe("2.5");
    expect(pythonRepr({ a: "it's", b: [1, false] })).toBe("{'a': \"it's\", 'b': [1, False]}");
  });
});

describe("stripe: Stripe-Signature", () => {
  const body = '{"id":"evt_1","object":"event","type":"customer.created"}';
  // HMAC-SHA256("whsec_test_secret", "1700000000." + body), from `openssl dgst -sha256 -hmac`.
  const header = "t=1700000000,v1=7401f12dfbd370e571f0ed15746eb48bff16d798a9b8f1fc8c91034db4bb4698";
  const check = (value: string, now: number, secret = "whsec_test_secret"): string => {
    const scheme = stripe.signature;
    if (scheme === undefined) throw new Error("no scheme");
    try {
      verifySignature(
        scheme,
        secret,
        {
          rawBody: Buffer.from(body),
          header: (n) => (n.toLowerCase() === "stripe-signature" ? value : undefined),
          url: "https://chat.example.com/api/v1/external/stripe",
        },
        now,
      );
      return "ok";
    } catch (err) {
      return err instanceof JsonableError ? err.code : String(err);
    }
  };

  it("accepts the endpoint secret's signature within five minutes", () => {
    expect(check(header, 1700000100)).toBe("ok");
    expect(check(header, 1700000400)).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(check(header, 1700000100, "whsec_other")).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(check("t=1700000000,v1=00", 1700000100)).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});
