import { describeCases } from "../kit/testing.js";
import github from "./index.js";
import githubsponsors from "./sponsors.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(github, cases, (c) => c.url_path === "/api/v1/external/github");
describeCases(githubsponsors, cases, (c) => c.url_path === "/api/v1/external/githubsponsors");
