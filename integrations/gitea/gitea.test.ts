import { describeCases } from "../kit/testing.js";
import gitea from "./index.js";

describeCases(gitea, new URL("./fixtures/cases", import.meta.url));
