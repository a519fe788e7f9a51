import { defineBot } from "../kit/index.js";

export default defineBot({
  name: "incrementor",
  usage: [
    "This is a boilerplate bot that makes use of the update_message function.",
    "For the first @-mention, it initially replies with one message containing a `1`.",
    "Every time the bot is @-mentioned, this number will be incremented in the same message.",
  ].join("\n"),
  async initialize(bot) {
    if (!(await bot.storage.contains("number")) || !(await bot.storage.contains("message_id"))) {
      await bot.storage.put("number", 0);
      await bot.storage.put("message_id", null);
    }
  },
  async handleMessage(message, bot) {
    const number = Number(await bot.storage.get("number")) + 1;
    await bot.storage.put("number", number);
    const messageId = await bot.storage.get<number | null>("message_id");
    if (messageId === null) {
      const sent = await bot.sendReply(message, String(number));
      await bot.storage.put("message_id", sent.id);
    } else {
      await bot.updateMessage({ message_id: messageId, content: String(number) });
    }
  },
});
