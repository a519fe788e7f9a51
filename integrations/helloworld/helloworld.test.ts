import { describeCases } from "../kit/testing.js";
import helloworld from "./index.js";

describeCases(helloworld, new URL("./fixtures/cases", import.meta.url));
