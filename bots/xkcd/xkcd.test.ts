import { afterAll, beforeAll, describe, it } from "@jest/globals";
import { loadRecordings, startReplayServer } from "../kit/replay.js";
import type { RecordedExchange, ReplayServer } from "../kit/replay.js";
import { botTester } from "../kit/testing.js";
import xkcd from "./index.js";

const recorded = loadRecordings(new URL("./fixtures/", import.meta.url));
const get = (name: string): RecordedExchange => recorded.get(name)!;
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(recorded.values());
});
afterAll(() => replay.close());

const HELP = [
  "* `@**Test Bot** help` to show this help message.",
  "* `@**Test Bot** latest` to fetch the latest comic strip from xkcd.",
  "* `@**Test Bot** random` to fetch a random comic strip from xkcd.",
  "* `@**Test Bot** <comic id>` to fetch a comic strip based on `<comic id>` e.g `@**Test Bot** 1234`.",
].join("\n");

describe("xkcd (recorded responses)", () => {
  it("fetches the latest comic, one by id, and explains the commands", () =>
    botTester(xkcd, { config: { api_url: replay.url } }).verifyDialog([
      [
        "latest",
        "#3014: **Recorded Latest**\n[A comic recorded for the tests.](https://imgs.xkcd.com/comics/recorded_latest.png)",
      ],
      ["1", "#1: **Barrel - Part 1**\n[Don't we all.](https://imgs.xkcd.com/comics/barrel_cropped_(1).jpg)"],
      ["help", `xkcd bot supports these commands:\n${HELP}`],
      ["draw me a comic", `xkcd bot only supports these commands, not \`draw me a comic\`:\n${HELP}`],
    ]));

  it("says when a comic does not exist or xkcd is down", () =>
    botTester(xkcd, { config: { api_url: replay.url } }).verifyDialog([
      ["99999", "Sorry, there is likely no xkcd comic strip with id: #99999"],
      ["500", "Sorry, I cannot process your request right now, please try again later!"],
    ]));

  it("fetches a random comic between 1 and the latest", async () => {
    const onlyOne = await startReplayServer([
      {
        ...get("latest"),
        response: { status: 200, body: { ...(get("latest").response.body as object), num: 1 } },
      },
      get("comic_1"),
    ]);
    try {
      await botTester(xkcd, { config: { api_url: onlyOne.url } }).verifyDialog([
        [
          "random",
          "#1: **Barrel - Part 1**\n[Don't we all.](https://imgs.xkcd.com/comics/barrel_cropped_(1).jpg)",
        ],
      ]);
    } finally {
      await onlyOne.close();
    }
  });
});
