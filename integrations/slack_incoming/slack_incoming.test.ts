import { describeCases } from "../kit/testing.js";
import slackIncoming from "./index.js";

describeCases(slackIncoming, new URL("./fixtures/cases", import.meta.url));
