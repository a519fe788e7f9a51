import { describeCases } from "../kit/testing.js";
import bitbucket2 from "./index.js";

describeCases(bitbucket2, new URL("./fixtures/cases", import.meta.url));
