import { describeCases } from "../kit/testing.js";
import opsgenie from "./index.js";

describeCases(opsgenie, new URL("./fixtures/cases", import.meta.url));
