import { defineBot } from "../kit/index.js";

export default defineBot({
  name: "helloworld",
  embeddable: true,
  usage: [
    'This is a boilerplate bot that responds to a user query with "beep boop",',
    'which is robot for "Hello World".',
    "",
    "This bot can be used as a template for other, more sophisticated, bots.",
  ].join("\n"),
  async handleMessage(message, bot) {
    await bot.sendReply(message, "beep boop");
    await bot.react(message, "wave");
  },
});
