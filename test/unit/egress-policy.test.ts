/** The egress policy's allow rules (`--outgoing-webhook-allow HOST_OR_CIDR[:PORT]`) and address checks. */
import { describe, expect, it } from "@jest/globals";
import { parseAllowRule } from "../../src/domain/egress/allow-rules.js";
import { EgressPolicy } from "../../src/domain/egress/egress-policy.js";

/** Whether `url` (an address literal) passes a policy with `allow`. */
function passes(allow: string[], url: string): boolean {
  const policy = new EgressPolicy({ allow: allow.map(parseAllowRule) });
  try {
    policy.target(url);
    return true;
  } catch {
    return false;
  }
}

describe("parseAllowRule", () => {
  it("reads hosts, addresses and ranges, with and without a port", () => {
    const shape = (v: string) => {
      const r = parseAllowRule(v);
      return r.kind === "host"
        ? [r.kind, r.host, r.port]
        : [r.kind, r.range[0].toString(), r.range[1], r.port];
    };
    expect(
      [
        "127.0.0.1:5002",
        "[::1]:5002",
        "::1",
        "10.0.0.0/8",
        "10.0.0.0/8:443",
        "[fd00::/8]:443",
        "Bots.Internal:80",
        "localhost",
      ].map(shape),
    ).toEqual([
      ["cidr", "127.0.0.1", 32, 5002],
      ["cidr", "::1", 128, 5002],
      ["cidr", "::1", 128, undefined],
      ["cidr", "10.0.0.0", 8, undefined],
      ["cidr", "10.0.0.0", 8, 443],
      ["cidr", "fd00::", 8, 443],
      ["host", "bots.internal", 80],
      ["host", "localhost", undefined],
    ]);
  });

  it("refuses what is none of these, naming the value", () => {
    expect(() => parseAllowRule("10.0.0.0/33")).toThrow(
      "--outgoing-webhook-allow: '10.0.0.0/33' is not a valid CIDR range",
    );
    expect(() => parseAllowRule("127.0.0.1:70000")).toThrow(
      "--outgoing-webhook-allow: '127.0.0.1:70000' has no valid port (1 to 65535)",
    );
    expect(() => parseAllowRule("bad host!")).toThrow(
      "--outgoing-webhook-allow: 'bad host!' is not a host name, an address or a CIDR range",
    );
  });
});

describe("EgressPolicy.target", () => {
  it("lets public addresses through and denies internal ones unless allowed, port by port", () => {
    expect(passes([], "http://93.184.216.34/")).toBe(true);
    expect(passes([], "https://[2606:2800:220:1::1]/")).toBe(true);
    expect(passes([], "http://127.0.0.1:5002/")).toBe(false);
    expect(passes(["127.0.0.1:5002"], "http://127.0.0.1:5002/")).toBe(true);
    expect(passes(["127.0.0.1:5002"], "http://127.0.0.1:5003/")).toBe(false);
    expect(passes(["127.0.0.0/8"], "http://2130706434:9/")).toBe(true);
    expect(passes(["10.0.0.0/8"], "http://[::ffff:10.1.2.3]/")).toBe(true);
    expect(passes(["10.0.0.0/8"], "http://[::ffff:127.0.0.1]/")).toBe(false);
    expect(passes([], "http://[64:ff9b::7f00:1]/")).toBe(false);
    expect(passes([], "http://[2002:7f00:1::]/")).toBe(false);
    expect(passes([], "ftp://93.184.216.34/")).toBe(false);
  });
});
