import { defineBot } from "../kit/index.js";

export default defineBot({
  name: "help",
  usage: [
    'This plugin will give info about Zulip to any user that types a message saying "help".',
    "",
    "This is example code; ideally, you would flesh this out for more useful help",
    "pertaining to your Zulip instance.",
  ].join("\n"),
  async handleMessage(message, bot) {
    await bot.sendReply(message, "Info on Zulip can be found here:\nhttps://github.com/zulip/zulip");
  },
});
