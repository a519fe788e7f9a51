import { describeCases } from "../kit/testing.js";
import alertmanager from "./index.js";

describeCases(alertmanager, new URL("./fixtures/cases", import.meta.url));
