/**
 * The request bodies of the users loads, shared by bench/users.bench.ts and bench/tools/profile-route.ts so a
 * profile is of the load the bench measures. Counters run on per process: every body names new users.
 */
let events = 0;
let batched = 0;
let single = 0;

/** 100 events naming 1,000 recurring users (`ev-0` to `ev-999`), as the events side of the batch ratio. */
export const eventsBody = () =>
  JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({
      name: "Bench",
      identifier: [{ external_id: `ev-${(events++ * 7 + i) % 1000}` }],
      data: { i },
    })),
  );

/** 1,000 new users for /users/batch, external ids `${prefix}-<n>`. */
export const newUsersBody = (prefix: string) =>
  JSON.stringify(
    Array.from({ length: 1000 }, () => ({
      identifier: [{ external_id: `${prefix}-${batched++}` }],
      email: `b${batched}@example.com`,
      data: { plan: "free", b: batched },
    })),
  );

/** One new user for POST /users, external id `${prefix}-<n>`. */
export const newUserBody = (prefix: string) =>
  JSON.stringify({
    identifier: [{ external_id: `${prefix}-${single++}` }],
    email: `u${single}@example.com`,
    data: { plan: "free", n: single },
  });
