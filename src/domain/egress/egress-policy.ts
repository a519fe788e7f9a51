import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import net from "node:net";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import type { IPv4, IPv6 } from "ipaddr.js";
import { EgressDeniedError } from "./types.js";
import type { EgressConfig } from "./types.js";

/** A URL the policy accepted before connecting: what to connect to, and how to name it. */
export interface EgressTarget {
  url: URL;
  /** The host as the connection uses it (an IPv6 address without brackets). */
  hostname: string;
  port: number;
}

/** How a denied address is described to the bot's owner, by ipaddr.js's range name. */
const DESCRIPTIONS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  uniqueLocal: "a private network address (unique local)",
  linkLocal: "a link-local address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  unspecified: "the unspecified address",
  ipv4Compatible: "an IPv4-compatible IPv6 address",
};

const HOW_TO_ALLOW =
  "outgoing webhooks reach only public addresses unless the server's operator allows the target with --outgoing-webhook-allow";

/** Why an address is not public (ipaddr.js's range name), or undefined for a public unicast one. */
function nonPublicRange(ip: IPv4 | IPv6): string | undefined {
  const range = ip.range();
  if (range !== "unicast") return range;
  // ::a.b.c.d (deprecated IPv4-compatible form): ipaddr.js calls it unicast; it never is.
  if (ip.kind() === "ipv6" && (ip as IPv6).parts.slice(0, 6).every((p) => p === 0)) return "ipv4Compatible";
  return undefined;
}

/** A host written as an address (connected to without a lookup, so checked beforehand). */
function isAddress(host: string): boolean {
  return net.isIP(host) !== 0 || ipaddr.isValid(host);
}

/**
 * The one policy for every request the server makes to a URL a user gave (outgoing webhooks and
 * their replays): http and https only; the host's every address must be public (not loopback,
 * private, link-local, CGNAT, multicast, reserved, unspecified, nor an IPv6 form of those) unless
 * an allow rule covers it; the connection goes to exactly the addresses checked (`lookupFor` is
 * the socket's resolver), so a name cannot resolve to something else between check and connect.
 * Address spellings are normalised by the WHATWG URL parser (decimal, octal, hex, short IPv4) and
 * ipaddr.js (IPv4-mapped IPv6 is judged as the IPv4 address it maps).
 */
export class EgressPolicy {
  constructor(private readonly config: EgressConfig) {}

  /** Checks the scheme, and the address when the host is one. Throws EgressDeniedError. */
  target(rawUrl: string): EgressTarget {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new EgressDeniedError(`'${rawUrl}' is not a valid URL.`, rawUrl);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new EgressDeniedError(
        `The URL's scheme is ${url.protocol.replace(/:$/, "")}; outgoing webhooks use http or https only.`,
        rawUrl,
      );
    }
    const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    const target = { url, hostname, port };
    if (isAddress(hostname)) {
      const reason = this.denial(target, hostname);
      if (reason !== undefined) throw new EgressDeniedError(reason, rawUrl);
    }
    return target;
  }

  /** Why `address` may not be reached for `target`, or undefined when it may. */
  denial(target: EgressTarget, address: string): string | undefined {
    let ip: IPv4 | IPv6;
    try {
      ip = ipaddr.process(address);
    } catch {
      return `The URL's host ${target.hostname} resolved to '${address}', which is not an address.`;
    }
    const range = nonPublicRange(ip);
    if (range === undefined || this.allows(target, ip)) return undefined;
    const what = DESCRIPTIONS[range] ?? `a reserved address (${range})`;
    const shown = ip.toString();
    return target.hostname === address
      ? `The URL's host ${target.hostname} is ${what} (${shown}); ${HOW_TO_ALLOW}.`
      : `The URL's host ${target.hostname} resolves to ${shown}, ${what}; ${HOW_TO_ALLOW}.`;
  }

  private allows(target: EgressTarget, ip: IPv4 | IPv6): boolean {
    const host = target.hostname.toLowerCase().replace(/\.$/, "");
    return this.config.allow.some((rule) => {
      if (rule.port !== undefined && rule.port !== target.port) return false;
      if (rule.kind === "host") return rule.host === host;
      const [network, bits] = rule.range;
      return network.kind() === ip.kind() && ip.match(network, bits);
    });
  }

  /**
   * The resolver for the connection to `target`: resolves the name, checks every address it gets
   * (one denied address denies the request), and hands the socket only those checked addresses.
   */
  lookupFor(target: EgressTarget): LookupFunction {
    return (hostname, options, callback) => {
      dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
        if (err !== null) {
          callback(err, "", 0);
          return;
        }
        for (const { address } of addresses) {
          const reason = this.denial(target, address);
          if (reason !== undefined) {
            callback(new EgressDeniedError(reason, target.url.href), "", 0);
            return;
          }
        }
        if (options.all === true) {
          callback(null, addresses);
          return;
        }
        const first: LookupAddress | undefined = addresses[0];
        if (first === undefined)
          callback(Object.assign(new Error("No address"), { code: "ENOTFOUND" }), "", 0);
        else callback(null, first.address, first.family);
      });
    };
  }

  /**
   * At a bot's creation or edit: throws EgressDeniedError when the URL's scheme is not http(s), or
   * its host is or resolves to a denied address. A name that does not resolve (yet) is accepted;
   * every delivery checks again.
   */
  async checkOnSave(rawUrl: string): Promise<void> {
    const target = this.target(rawUrl);
    if (isAddress(target.hostname)) return;
    let addresses: LookupAddress[];
    try {
      addresses = await dns.promises.lookup(target.hostname, { all: true });
    } catch {
      return;
    }
    for (const { address } of addresses) {
      const reason = this.denial(target, address);
      if (reason !== undefined) throw new EgressDeniedError(reason, rawUrl);
    }
  }
}
