import { describeCases } from "../kit/testing.js";
import pagerduty from "./index.js";

describeCases(pagerduty, new URL("./fixtures/cases", import.meta.url));
