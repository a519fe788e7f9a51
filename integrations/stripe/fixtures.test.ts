import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import stripe from "./index.js";

const here = new URL(".", import.meta.url);

/** Zulip's own Stripe fixtures beyond the recorded cases, with the message Zulip's tests expect. */
const ZULIP: [string, { topic: string; body: string }][] = [
  [
    "charge.dispute.created__zulip",
    {
      topic: "disputes",
      body: "[Dispute](https://dashboard.stripe.com/disputes/dp_00000000000000) created. Current status: needs response.",
    },
  ],
  [
    "charge.refund.updated__failed",
    {
      topic: "refunds",
      body: "A [refund](https://dashboard.stripe.com/refunds/re_1Gib6ZHLwdCOCoR7VrzCnXlj) for a [charge](https://dashboard.stripe.com/charges/ch_1Gib61HLwdCOCoR71rnkccye) of 300000.00 INR was updated.",
    },
  ],
  [
    "charge.refund.updated__pseudo_refund",
    {
      topic: "refunds",
      body: "A [refund](https://dashboard.stripe.com/refunds/pyr_abcde12345ABCDF) for a [payment](https://dashboard.stripe.com/payments/py_abcde12345ABCDG) of 12.34 EUR was updated.",
    },
  ],
  [
    "invoice.updated__paid",
    {
      topic: "cus_FDmrSwQt9Fck5M",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1EjLINHuGUuNWDDZjDf2WNqd) is now paid",
    },
  ],
  [
    "customer.created__email",
    {
      topic: "cus_00000000000000",
      body: "[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) created\nEmail: example@abc.com",
    },
  ],
  [
    "invoiceitem.created__api_docs",
    {
      topic: "cus_00000000000000",
      body: "[Invoice item](https://dashboard.stripe.com/invoiceitems/ii_00000000000000) created for 10.00 CAD",
    },
  ],
  [
    "invoice.created__manual",
    {
      topic: "cus_HH97asvHvaYQYp",
      body: "[Invoice](https://dashboard.stripe.com/invoices/in_1GpmuuHLwdCOCoR7ghzQDQLW) created (manual)\nTotal: 0.00 INR\nAmount due: 0.00 INR",
    },
  ],
  [
    "customer.subscription.trial_will_end__zulip",
    {
      topic: "cus_00000000000000",
      body: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_00000000000000) trial will end in 3 days",
    },
  ],
  [
    "customer.subscription.updated__trialing",
    {
      topic: "cus_00000000000000",
      body:
        "[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) updated\n" +
        "* Billing cycle anchor is now <time:2019-11-01T12:00:00+00:00>\n" +
        "* Current period end is now <time:2019-11-01T12:00:00+00:00>\n" +
        "* Current period start is now <time:2018-12-06T05:53:55+00:00>\n" +
        "* Start is now <time:2018-12-06T05:53:55+00:00>\n" +
        "* Status is now trialing\n" +
        "* Trial end is now <time:2019-11-01T12:00:00+00:00>\n" +
        "* Trial start is now <time:2018-12-06T05:53:55+00:00>",
    },
  ],
];

describe("stripe: Zulip's other fixtures", () => {
  for (const [name, expected] of ZULIP) {
    it(`posts ${name} as Zulip does`, () => {
      expectFixture(stripe, here, name, expected);
    });
  }
});
