import { describeCases } from "../kit/testing.js";
import circleci from "./index.js";

describeCases(circleci, new URL("./fixtures/cases", import.meta.url));
