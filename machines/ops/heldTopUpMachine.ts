/**
 * An operator's decision on one held top-up (docs/API.md, "Operators"), an instance of the desk's decision skeleton
 * (machines/shared/deskDecision.ts): a top-up from a sender that is no member is released to a member after a check
 * (the operator types the member's address), or returned on chain to its sender by the payer. Each is decided once,
 * released or returned, never both; the request id made when the operator confirms is kept for every retry, so a
 * retry never moves it twice. A reorganised top-up (reconcile lists it) can be neither.
 */
import { checkAddress } from '../shared/address';
import { createDeskDecisionMachine } from '../shared/deskDecision';
import type { DecisionSpec } from '../shared/deskDecision';

/** The part of a held top-up (opsHeldTopUps) the decision reads. */
export interface DecidableTopUp {
  txHash: string;
  logPosition: number;
  state: string;
  reorged: boolean;
  releasedTo?: string | undefined;
}

export type HeldTopUpAct = 'release' | 'return';

export const heldTopUpSpec: DecisionSpec<DecidableTopUp, HeldTopUpAct, DecidableTopUp> = {
  id: 'heldTopUp',
  acts: { release: { address: '' }, return: {} },
  openActs: (topUp) => (topUp.state === 'held' && !topUp.reorged ? ['release', 'return'] : []),
  isFormValid: (act, form) => act === 'return' || checkAddress(form.address ?? '') === null,
  merge: (topUp, answer) => answer ?? topUp,
  describe: { ready: 'heldTopUp.ready', closed: 'heldTopUp.closed' },
};

/** A machine of its own for one screen's item (provideBuilt changes the machine it is given). */
// @__NO_SIDE_EFFECTS__
export const createHeldTopUpMachine = () => createDeskDecisionMachine(heldTopUpSpec);
export const heldTopUpMachine = createHeldTopUpMachine();
export type HeldTopUpMachine = typeof heldTopUpMachine;
