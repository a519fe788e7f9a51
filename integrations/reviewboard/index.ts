import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/** Review Board: POST /api/v1/external/reviewboard. The event is the `X-ReviewBoard-Event` header. */
export default defineIntegration({
  name: "reviewboard",
  displayName: "ReviewBoard",
  categories: ["version-control"],
  description: "Review requests opened, closed and reopened, reviews and replies from Review Board.",
  eventHeader: "X-ReviewBoard-Event",
  // Review Board's webhook "Secret": X-Hub-Signature is "sha1=" + the hex HMAC-SHA1 of the body.
  signature: { kind: "hmac", header: "X-Hub-Signature", algorithm: "sha1", prefix: "sha1=" },
  events: {
    review_request_published: (p) => m.reviewRequestPublished(p),
    review_request_reopened: (p) => m.reviewRequestReopened(p),
    review_request_closed: (p) => m.reviewRequestClosed(p),
    review_published: (p) => m.reviewPublished(p),
    reply_published: (p) => m.replyPublished(p),
  },
});
