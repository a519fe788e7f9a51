import { describeCases } from "../kit/testing.js";
import grafana from "./index.js";

describeCases(grafana, new URL("./fixtures/cases", import.meta.url));
