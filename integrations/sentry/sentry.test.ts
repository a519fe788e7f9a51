import { describeCases } from "../kit/testing.js";
import sentry from "./index.js";

describeCases(sentry, new URL("./fixtures/cases", import.meta.url));
