import { defineBot } from "../kit/index.js";

const USAGE = [
  "This plugin will allow users to flag messages as being follow-up items.",
  'Users should preface messages with "@mention-bot".',
  "",
  'Before running this, make sure to create a stream called "followup" that your API user can send to.',
].join("\n");

export default defineBot({
  name: "followup",
  embeddable: true,
  usage: USAGE,
  // Zulip reads this section with get_config_info("followup") (not optional): `stream`, default "followup".
  config: { required: true },
  async handleMessage(message, bot) {
    if (message.content === "") {
      await bot.sendReply(
        message,
        "Please specify the message you want to send to followup stream after @mention-bot",
      );
      return;
    }
    if (message.content === "help") {
      await bot.sendReply(message, USAGE);
      return;
    }
    await bot.sendMessage({
      type: "stream",
      to: bot.config.stream ?? "followup",
      topic: message.sender_email,
      content: `from ${message.sender_email}: ${message.content}`,
    });
  },
});
