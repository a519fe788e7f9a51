/**
 * Types for the part of zulip-js 2.1.0 (a CommonJS package without types: `module.exports = zulip`)
 * that the client tests use. Shapes follow node_modules/zulip-js/lib.
 */
declare module "zulip-js" {
  namespace zulip {
    /** A parsed JSON answer; zulip-js does not look at the HTTP status. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted as literals
    type Response = Record<string, any>;
    /**
     * Arguments. POST sends multipart form data (arrays JSON-encoded by zulip-js, other values as
     * strings); GET, PATCH and DELETE append them to the query string with String(value).
     */
    type Params = Record<string, unknown>;

    interface Config {
      realm: string;
      username: string;
      apiKey?: string;
      password?: string;
      apiURL?: string;
    }

    interface Client {
      config: Config & { apiURL: string };
      callEndpoint(endpoint: string, method?: string, params?: Params): Promise<Response>;
      /** Registers a queue and long-polls it forever; it has no way to stop. */
      callOnEachEvent(callback: (event: Response) => void, eventTypes?: string[] | null): Promise<never>;
      accounts: { retrieve(): Promise<Response> };
      server: { settings(params?: Params): Promise<Response> };
      users: {
        retrieve(params?: Params): Promise<Response>;
        create(params: Params): Promise<Response>;
        me: {
          getProfile(): Promise<Response>;
          subscriptions: {
            add(params: Params): Promise<Response>;
            remove(params: Params): Promise<Response>;
          };
        };
      };
      streams: {
        retrieve(params?: Params): Promise<Response>;
        getStreamId(params: string | Params): Promise<Response>;
        subscriptions: { retrieve(params?: Params): Promise<Response> };
        topics: { retrieve(params: { stream_id: number }): Promise<Response> };
      };
      messages: {
        retrieve(params: Params): Promise<Response>;
        send(params: Params): Promise<Response>;
        update(params: Params & { message_id: number }): Promise<Response>;
        getById(params: Params & { message_id: number }): Promise<Response>;
        getHistoryById(params: { message_id: number }): Promise<Response>;
        render(params: Params | string): Promise<Response>;
        deleteById(params: { message_id: number }): Promise<Response>;
        flags: { add(params: Params): Promise<Response>; remove(params: Params): Promise<Response> };
      };
      queues: { register(params?: Params): Promise<Response>; deregister(params: Params): Promise<Response> };
      events: { retrieve(params: Params): Promise<Response> };
      typing: { send(params: Params & { to: number[] }): Promise<Response> };
      emojis: { retrieve(params?: Params): Promise<Response> };
      filters: { retrieve(params?: Params): Promise<Response> };
      reactions: { add(params: Params): Promise<Response>; remove(params: Params): Promise<Response> };
    }
  }

  function zulip(config: { zuliprc: string } | zulip.Config): Promise<zulip.Client>;
  export = zulip;
}
