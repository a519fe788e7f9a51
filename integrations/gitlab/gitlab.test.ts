import { describeCases } from "../kit/testing.js";
import gitlab from "./index.js";

describeCases(gitlab, new URL("./fixtures/cases", import.meta.url));
