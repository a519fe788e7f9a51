/** GET /messages's response fields: the shape lives in src/wire, shared with events. */
export { fetchResultWire as presentFetch } from "../../wire/messages.js";
