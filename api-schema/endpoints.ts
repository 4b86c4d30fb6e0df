import * as health from './health';
import { operatorEndpoints } from './operatorEndpoints';
import type { Endpoint } from './endpoint';
import { memberEndpoints } from './memberEndpoints';

/** Every call of docs/API.md, by name. The server registers these; the client calls them; openapi.json lists them. */
export const endpoints = {
  // The member app's calls (its client contract carries these only), then the operators'.
  ...memberEndpoints,
  ...operatorEndpoints,
  // A load balancer's and an orchestrator's (docs/API.md, "Health"): no client calls them.
  healthLive: health.healthLive,
  healthReady: health.healthReady,
} satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
