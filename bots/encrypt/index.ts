import { defineBot } from "../kit/index.js";

const FIRST_HALF = "abcdefghijklmABCDEFGHIJKLM";
const SECOND_HALF = "nopqrstuvwxyzNOPQRSTUVWXYZ";

/** ROT13 over ASCII letters; everything else is kept. Applying it twice gives the text back. */
export function rot13(text: string): string {
  let out = "";
  for (const char of text) {
    const first = FIRST_HALF.indexOf(char);
    const second = SECOND_HALF.indexOf(char);
    out += first >= 0 ? SECOND_HALF.charAt(first) : second >= 0 ? FIRST_HALF.charAt(second) : char;
  }
  return out;
}

export default defineBot({
  name: "encrypt",
  embeddable: true,
  usage: [
    "This bot uses ROT13 encryption for its purposes.",
    "It responds to messages starting with @mention-bot.",
    "Feeding encrypted messages into the bot decrypts them.",
  ].join("\n"),
  async handleMessage(message, bot) {
    await bot.sendReply(message, `Encrypted/Decrypted text: ${rot13(message.content)}`);
  },
});
