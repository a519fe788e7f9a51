/** Streams and subscriptions on the wire: the shapes live in src/wire, shared with events. */
export {
  streamListWire as presentStream,
  subscriptionWire as presentSubscription,
} from "../../wire/streams.js";
