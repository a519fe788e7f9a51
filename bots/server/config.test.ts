import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ConfigError,
  loadBotServerConfig,
  parseBotConfigFile,
  parseBotServerConfig,
  parseBotServerEnvConfig,
} from "./config.js";
import { BOT_REGISTRY } from "../index.js";

const HELLO = `[helloworld]
email = helloworld-bot@example.com
key = hellokey
site = http://127.0.0.1:9991
token = hellotoken
`;
const CONVERTER = `[converter]
email = converter-bot@example.com
key = convkey
site = chat.example.com
token = convtoken
`;

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseBotServerConfig", () => {
  it("reads one bot per section, in file order", () => {
    const config = parseBotServerConfig(HELLO + CONVERTER);
    expect([...config.entries()]).toEqual([
      [
        "helloworld",
        {
          name: "helloworld",
          email: "helloworld-bot@example.com",
          key: "hellokey",
          site: "http://127.0.0.1:9991",
          token: "hellotoken",
        },
      ],
      [
        "converter",
        {
          name: "converter",
          email: "converter-bot@example.com",
          key: "convkey",
          site: "chat.example.com",
          token: "convtoken",
        },
      ],
    ]);
  });

  it("accepts a file without sections (no bots) and ignores unknown options", () => {
    expect(parseBotServerConfig("").size).toBe(0);
    expect(parseBotServerConfig(`${HELLO}bot-config-file = x\n`).get("helloworld")?.token).toBe("hellotoken");
  });

  it.each(["email", "key", "site", "token"])("names the section and the missing option %s", (option) => {
    const text = HELLO.split("\n")
      .filter((line) => !line.startsWith(`${option} =`))
      .join("\n");
    expect(errorOf(() => parseBotServerConfig(text))).toBe(
      `Section [helloworld] is missing option '${option}'`,
    );
  });

  it("treats an empty option as missing", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO.replace("token = hellotoken", "token =")))).toBe(
      "Section [helloworld] is missing option 'token'",
    );
  });

  it("lists the known bots for an unknown section name", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO.replace("[helloworld]", "[nobot]")))).toBe(
      `Unknown bot 'nobot' in section [nobot]. Known bots: ${[...BOT_REGISTRY.keys()].join(", ")}. A bot of your own: give its module with 'bot = ./path/to/bot.js'.`,
    );
  });

  it("hints at --bot-name for a zuliprc's [api] section", () => {
    expect(
      errorOf(() =>
        parseBotServerConfig(HELLO.replace("[helloworld]", "[api]"), { knownBots: ["helloworld"] }),
      ),
    ).toBe(
      "Unknown bot 'api' in section [api]. Known bots: helloworld. Did you forget to give the bot you want to run with --bot-name <botname>?",
    );
  });

  it("rejects an empty section header", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO.replace("[helloworld]", "[]")))).toBe(
      "The config file contains an empty section header []: write the name of the bot to run in each section header, e.g. [helloworld]",
    );
  });

  it("rejects options outside of any section", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO.replace("[helloworld]\n", "")))).toBe(
      "Option 'email' is outside of any section: put the options of each bot under a section named after the bot, e.g. [helloworld]",
    );
  });

  it("rejects dotted section names", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO.replace("[helloworld]", "[hello.world]")))).toBe(
      "Section [hello.world]: a bot name cannot contain '.'",
    );
  });

  it("rejects two bots with the same email", () => {
    const twin = CONVERTER.replace("converter-bot@example.com", "helloworld-bot@example.com");
    expect(errorOf(() => parseBotServerConfig(HELLO + twin))).toBe(
      "Sections [helloworld] and [converter] have the same email 'helloworld-bot@example.com': the bot server could not tell their webhooks apart",
    );
  });

  it("rejects a site that is not a URL", () => {
    expect(
      errorOf(() => parseBotServerConfig(HELLO.replace("http://127.0.0.1:9991", "http://exa mple.com"))),
    ).toBe("Section [helloworld] has an invalid site 'http://exa mple.com'");
  });
});

describe("parseBotServerConfig with --bot-name", () => {
  it("picks the named section and warns that the others are ignored", () => {
    const warnings: string[] = [];
    const config = parseBotServerConfig(HELLO + CONVERTER, {
      botName: "converter",
      onWarning: (w) => warnings.push(w),
    });
    expect([...config.keys()]).toEqual(["converter"]);
    expect(warnings).toEqual([
      "Single bot mode is enabled",
      "Sections except the 'converter' will be ignored",
    ]);
  });

  it("renames the first section, so a zuliprc's [api] runs as the named bot", () => {
    const warnings: string[] = [];
    const zuliprc = HELLO.replace("[helloworld]", "[api]");
    const config = parseBotServerConfig(zuliprc, {
      botName: "helloworld",
      onWarning: (w) => warnings.push(w),
    });
    expect(config.get("helloworld")).toEqual({
      name: "helloworld",
      email: "helloworld-bot@example.com",
      key: "hellokey",
      site: "http://127.0.0.1:9991",
      token: "hellotoken",
    });
    expect(warnings).toEqual([
      "Single bot mode is enabled",
      "First bot name in the config list was changed from 'api' to 'helloworld'",
    ]);
  });

  it("does not validate the ignored sections", () => {
    const broken = "[converter]\nemail = x@example.com\n";
    expect([...parseBotServerConfig(HELLO + broken, { botName: "helloworld" }).keys()]).toEqual([
      "helloworld",
    ]);
  });

  it("needs at least one section", () => {
    expect(errorOf(() => parseBotServerConfig("", { botName: "helloworld" }))).toBe(
      "There are no sections in the config file: write the name of the bot you want to run in a section header, e.g. [helloworld]",
    );
  });

  it("rejects a bot name that is not a bot", () => {
    expect(errorOf(() => parseBotServerConfig(HELLO, { botName: "nobot", knownBots: ["helloworld"] }))).toBe(
      "Unknown bot 'nobot' in section [nobot]. Known bots: helloworld. A bot of your own: give its module with 'bot = ./path/to/bot.js'.",
    );
  });
});

describe("parseBotServerEnvConfig", () => {
  const json = JSON.stringify({
    helloworld: {
      email: "helloworld-bot@example.com",
      key: "hellokey",
      site: "http://127.0.0.1:9991",
      token: "t1",
    },
    converter: {
      email: "converter-bot@example.com",
      key: "convkey",
      site: "http://127.0.0.1:9991",
      token: "t2",
    },
  });

  it("reads bots from JSON, in order", () => {
    expect([...parseBotServerEnvConfig(json).values()].map((e) => [e.name, e.token])).toEqual([
      ["helloworld", "t1"],
      ["converter", "t2"],
    ]);
  });

  it("supports --bot-name", () => {
    expect([...parseBotServerEnvConfig(json, { botName: "converter" }).keys()]).toEqual(["converter"]);
  });

  it("explains every way the variable can be wrong", () => {
    expect(errorOf(() => parseBotServerEnvConfig(undefined))).toBe(
      "Could not read environment variable 'ZULIP_BOTSERVER_CONFIG': Variable not set.",
    );
    expect(errorOf(() => parseBotServerEnvConfig("{nope"))).toBe(
      "Environment variable 'ZULIP_BOTSERVER_CONFIG' does not hold valid JSON",
    );
    expect(errorOf(() => parseBotServerEnvConfig("[]"))).toBe(
      `Environment variable 'ZULIP_BOTSERVER_CONFIG' must hold a JSON object of bots, e.g. {"helloworld": {"email": …, "key": …, "site": …, "token": …}}`,
    );
    expect(errorOf(() => parseBotServerEnvConfig('{"helloworld": "x"}'))).toBe(
      "Section [helloworld] of 'ZULIP_BOTSERVER_CONFIG' must be a JSON object with email, key, site and token",
    );
    expect(errorOf(() => parseBotServerEnvConfig('{"helloworld": {"email": "a@b"}}'))).toBe(
      "Section [helloworld] is missing option 'key'",
    );
  });
});

describe("loadBotServerConfig", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "botserver-config-"));

  it("reads a file", () => {
    const file = path.join(dir, "botserverrc");
    writeFileSync(file, HELLO);
    expect([...loadBotServerConfig({ configFile: file }).keys()]).toEqual(["helloworld"]);
  });

  it("names the absolute path of a missing file", () => {
    expect(errorOf(() => loadBotServerConfig({ configFile: path.join(dir, "missing") }))).toBe(
      `Could not read config file ${path.join(dir, "missing")}: File not found.`,
    );
  });

  it("reads the environment with useEnvVars", () => {
    const env = {
      ZULIP_BOTSERVER_CONFIG: JSON.stringify({
        help: { email: "h@example.com", key: "k", site: "http://x", token: "t" },
      }),
    };
    expect([...loadBotServerConfig({ useEnvVars: true, env }).keys()]).toEqual(["help"]);
  });
});

describe("parseBotConfigFile", () => {
  it("returns each section's options, with top-level options as defaults", () => {
    const sections = parseBotConfigFile(
      "owner = ops\n[followup]\nstream = issues\n[giphy]\nkey = abc\nowner = me\n",
    );
    expect(Object.fromEntries(sections)).toEqual({
      followup: { owner: "ops", stream: "issues" },
      giphy: { owner: "me", key: "abc" },
    });
  });
});
