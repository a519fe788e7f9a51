import { describe, expect, it } from "@jest/globals";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../../src/config.js";
import {
  RetryScheduleError,
  parseRetrySchedule,
  retryAfterMs,
  scheduledDelay,
} from "../../src/domain/outgoing/retry-schedule.js";

const NOW = Date.UTC(2026, 10, 28, 7, 0, 0);

describe("parseRetrySchedule", () => {
  it("reads units and bare seconds", () => {
    expect(parseRetrySchedule("5s,5m,30m,2h,5h,10h,10h")).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(parseRetrySchedule("250ms, 2, 1d")).toEqual([250, 2000, 86_400_000]);
  });

  it("refuses a delay it cannot read", () => {
    expect(() => parseRetrySchedule("5s,soon")).toThrow(RetryScheduleError);
  });
});

describe("scheduledDelay", () => {
  it("takes the schedule's entry for the retry, the last one repeating", () => {
    expect([1, 2, 3, 4].map((n) => scheduledDelay(n, [1000, 2000, 4000], 0))).toEqual([
      1000, 2000, 4000, 4000,
    ]);
  });

  it("spreads the delay by up to the jitter either way", () => {
    expect(scheduledDelay(1, [10_000], 0.2, () => 0)).toBe(8000);
    expect(scheduledDelay(1, [10_000], 0.2, () => 0.5)).toBe(10_000);
    expect(scheduledDelay(1, [10_000], 0.2, () => 0.999_999)).toBe(12_000);
  });

  it("spans more than a day by default", () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBe(99_305_000); // 27 h 35 min 5 s
  });
});

describe("retryAfterMs", () => {
  it("reads delay-seconds", () => {
    expect(retryAfterMs("120", NOW, 3_600_000)).toBe(120_000);
    expect(retryAfterMs(["7"], NOW, 3_600_000)).toBe(7000);
  });

  it("reads an HTTP date relative to now; a past date is 0", () => {
    expect(retryAfterMs("Sat, 28 Nov 2026 07:01:30 GMT", NOW, 3_600_000)).toBe(90_000);
    expect(retryAfterMs("Sat, 28 Nov 2026 06:00:00 GMT", NOW, 3_600_000)).toBe(0);
  });

  it("caps long waits", () => {
    expect(retryAfterMs("86400", NOW, 3_600_000)).toBe(3_600_000);
    expect(retryAfterMs("Sun, 29 Nov 2026 07:00:00 GMT", NOW, 3_600_000)).toBe(3_600_000);
  });

  it("ignores an absent or unreadable header", () => {
    expect(retryAfterMs(undefined, NOW, 3_600_000)).toBeUndefined();
    expect(retryAfterMs("", NOW, 3_600_000)).toBeUndefined();
    expect(retryAfterMs("-5", NOW, 3_600_000)).toBeUndefined();
    expect(retryAfterMs("soon", NOW, 3_600_000)).toBeUndefined();
  });
});
