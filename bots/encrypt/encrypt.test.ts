import { describe, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import encrypt from "./index.js";

describe("encrypt", () => {
  it("applies ROT13 to letters and keeps everything else", () =>
    botTester(encrypt).verifyDialog([
      ["", "Encrypted/Decrypted text: "],
      ["Let's Do It", "Encrypted/Decrypted text: Yrg'f Qb Vg"],
      ["me&mom together..!!", "Encrypted/Decrypted text: zr&zbz gbtrgure..!!"],
      ["foo bar", "Encrypted/Decrypted text: sbb one"],
      ["Please encrypt this", "Encrypted/Decrypted text: Cyrnfr rapelcg guvf"],
      ["Ünïcödé 123", "Encrypted/Decrypted text: Üaïpöqé 123"],
    ]));

  it("decrypts what it encrypted", () =>
    botTester(encrypt).verifyDialog([["Uryyb jbeyq", "Encrypted/Decrypted text: Hello world"]]));
});
