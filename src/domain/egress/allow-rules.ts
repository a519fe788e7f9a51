import ipaddr from "ipaddr.js";
import type { AllowRule } from "./types.js";

/**
 * Parses one `--outgoing-webhook-allow` value: `HOST_OR_CIDR[:PORT]`. A host is a name
 * (`bots.internal`, `localhost`) or an address, a CIDR is `10.0.0.0/8` or `fd00::/8`; an IPv6
 * address or CIDR followed by a port is written in brackets (`[::1]:5002`, `[fd00::/8]:443`).
 * Throws an Error naming the value when it is none of these (the server refuses to start).
 */
export function parseAllowRule(value: string): AllowRule {
  const text = value.trim();
  let target = text;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null) {
    target = bracketed[1]!;
    portText = bracketed[2];
  } else if (!isAddressOrCidr(text)) {
    // Not a bare IPv6 address or CIDR: a last ":digits" is the port.
    const m = /^(.*):(\d+)$/.exec(text);
    if (m !== null) {
      target = m[1]!;
      portText = m[2];
    }
  }
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new Error(`--outgoing-webhook-allow: '${value}' has no valid port (1 to 65535)`);
  }
  const withPort = <T extends object>(rule: T): T & { port?: number } =>
    port === undefined ? rule : { ...rule, port };
  if (target.includes("/")) {
    if (!ipaddr.isValidCIDR(target)) {
      throw new Error(`--outgoing-webhook-allow: '${value}' is not a valid CIDR range`);
    }
    const [address, bits] = ipaddr.parseCIDR(target);
    return withPort({ kind: "cidr", range: [address, bits], text: value });
  }
  if (ipaddr.isValid(target)) {
    const address = ipaddr.process(target);
    const bits = address.kind() === "ipv4" ? 32 : 128;
    return withPort({ kind: "cidr", range: [address, bits], text: value });
  }
  const host = target.toLowerCase().replace(/\.$/, "");
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) {
    throw new Error(`--outgoing-webhook-allow: '${value}' is not a host name, an address or a CIDR range`);
  }
  return withPort({ kind: "host", host, text: value });
}

function isAddressOrCidr(text: string): boolean {
  return text.includes("/") ? ipaddr.isValidCIDR(text) : ipaddr.IPv6.isValid(text);
}
