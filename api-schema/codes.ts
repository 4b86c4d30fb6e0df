/**
 * Envelope codes of docs/API.md ("Codes"). The client shows `Common.{code}` for each; every code here has a text in
 * every locale (tests/i18n checks that).
 */
export const ApiCode = {
  ok: 0,
  clientFailure: -1,
  invalidParameters: 1001,
  notSignedIn: 1002,
  bindRequired: 1003,
  nonceInvalid: 1004,
  signatureInvalid: 1005,
  /** An operator without the role the call needs (docs/API.md, "Operators"). */
  roleRequired: 1006,
  /** An operator acting for themselves: to their own member address, or confirming their own request (docs/API.md, "Operators: the policy"). */
  selfActRefused: 1007,
  inviteCodeUnknown: 2001,
  recommenderAlreadyBound: 2002,
  bindCycle: 2003,
  insufficientBalance: 3001,
  amountOutOfLimits: 3002,
  requestIdReused: 3003,
  recipientInvalid: 3004,
  requestInProgress: 3005,
  alreadyDecided: 3006,
  chainUnavailable: 3007,
  /** An operator froze the member's withdrawals (docs/API.md, "Operators: finance calls"). */
  withdrawalsFrozen: 3008,
  /** Above what the operators' policy allows for this act, even with a second operator, or alone where the act cannot wait for one. */
  policyLimit: 3009,
  /** Payouts paused on doubt cannot resume while a cause of the pause still holds (docs/API.md, "Credit on chain: payouts paused"). */
  payoutsDoubt: 3010,
  notFound: 4004,
  tooManyRequests: 4290,
  internal: 5000,
  /** Readiness (docs/API.md, "Health"): this instance should get no requests now; the result lists the failing checks. */
  notReady: 5030,
  /** The database cannot be reached now (a PostgreSQL failover under way): nothing was done; the same request again later. */
  databaseUnavailable: 5031,
} as const;

export type ApiCodeName = keyof typeof ApiCode;
export type ApiCodeValue = (typeof ApiCode)[ApiCodeName];

export const allApiCodes: readonly ApiCodeValue[] = Object.values(ApiCode);

/** HTTP status the server sends with each failure code (docs/API.md, "Envelope"). */
export const httpStatusOf: Record<ApiCodeValue, number> = {
  0: 200,
  [-1]: 500,
  1001: 400,
  1002: 401,
  1003: 403,
  1004: 400,
  1005: 400,
  1006: 403,
  1007: 403,
  2001: 404,
  2002: 409,
  2003: 409,
  3001: 409,
  3002: 400,
  3003: 409,
  3004: 400,
  3005: 409,
  3006: 409,
  // The chain's node did not answer: a dependency failed, not the server (never a 5xx; retry later).
  3007: 424,
  // Forbidden for this member until support lifts it: not a state that settles by itself (409), and retrying is no use.
  3008: 403,
  // The policy's bound: asking again does not help; a second operator (where the act waits for one) or a smaller act does.
  3009: 403,
  // The books or the chain still show the doubt: resuming waits until its cause is gone.
  3010: 409,
  4004: 404,
  4290: 429,
  5000: 500,
  // What a load balancer's health check reads: take this instance out of rotation (only GET /api/health/ready answers it).
  5030: 503,
  // A failover or restart of the database: try again in a moment (the same requestId is safe to send again).
  5031: 503,
};
