import type { IPv4, IPv6 } from "ipaddr.js";
import { JsonableError } from "../../errors.js";

/** One `--outgoing-webhook-allow` entry: an internal target the operator lets requests reach. */
export type AllowRule =
  | { kind: "host"; host: string; port?: number; text: string }
  | { kind: "cidr"; range: [IPv4 | IPv6, number]; port?: number; text: string };

/** What the server's own outbound requests may do (docs/reliability.md, "Egress policy"). */
export interface EgressConfig {
  /** Internal targets allowed besides public addresses (`--outgoing-webhook-allow`). */
  allow: readonly AllowRule[];
}

/**
 * A URL the server will not request: a scheme other than http/https, or a host that is (or
 * resolves to) a loopback, private, link-local, shared (CGNAT), multicast, reserved or unspecified
 * address that no allow rule covers. At bot creation or edit it is a 400 to the bot's owner; at
 * delivery its message is the attempt's failure reason.
 */
export class EgressDeniedError extends JsonableError {
  constructor(
    msg: string,
    readonly url: string,
  ) {
    super(msg);
  }
}
