import { defineBot } from "../kit/index.js";
import { HELP, fsCommand, newFs } from "./fs.js";
import type { VirtualFs } from "./fs.js";

export default defineBot({
  name: "virtual_fs",
  embeddable: true,
  usage: HELP,
  async handleMessage(message, bot) {
    const sender = message.sender_email;
    // One file system per conversation: the stream, or the set of people in a direct message.
    const recipient =
      typeof message.display_recipient === "string"
        ? message.display_recipient
        : message.display_recipient.map((r) => r.email).join(" ");
    const fs = (await bot.storage.contains(recipient))
      ? await bot.storage.get<VirtualFs>(recipient)
      : newFs();
    fs.user_paths[sender] ??= "/";
    const [next, answer] = fsCommand(fs, sender, message.content);
    await bot.storage.put(recipient, next);
    await bot.sendReply(message, `${sender}:\n${answer}`);
  },
});
