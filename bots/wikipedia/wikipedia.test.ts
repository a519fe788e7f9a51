import { afterAll, beforeAll, describe, it } from "@jest/globals";
import { loadRecordings, startReplayServer } from "../kit/replay.js";
import type { ReplayServer } from "../kit/replay.js";
import { botTester } from "../kit/testing.js";
import wikipedia from "./index.js";

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(loadRecordings(new URL("./fixtures/", import.meta.url)).values());
});
afterAll(() => replay.close());

describe("wikipedia (recorded responses)", () => {
  it("links the top 3 articles of a search", () =>
    botTester(wikipedia, { config: { api_url: `${replay.url}/w/api.php` } }).verifyDialog([
      [
        "zulip",
        "For search term:zulip\n" +
          "1:[Zulip](https://en.wikipedia.org/wiki/Zulip)\n" +
          "2:[Comparison_of_instant_messaging_protocols](https://en.wikipedia.org/wiki/Comparison_of_instant_messaging_protocols)\n" +
          "3:[Slack_(software)](https://en.wikipedia.org/wiki/Slack_(software))\n",
      ],
    ]));

  it("asks for a term, says when nothing is found, and when Wikipedia fails", () =>
    botTester(wikipedia, { config: { api_url: `${replay.url}/w/api.php` } }).verifyDialog([
      ["", "Please enter your search term after @**Test Bot**"],
      ["qwzxqwzx", "I am sorry. The search term you provided is not found :slightly_frowning_face:"],
      [
        "down",
        "Uh-Oh ! Sorry ,couldn't process the request right now.:slightly_frowning_face:\nPlease try again later.",
      ],
    ]));
});
