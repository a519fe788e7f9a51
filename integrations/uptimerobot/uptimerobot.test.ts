import { describeCases } from "../kit/testing.js";
import uptimerobot from "./index.js";

describeCases(uptimerobot, new URL("./fixtures/cases", import.meta.url));
