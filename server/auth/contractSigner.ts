/**
 * Sign-in for smart-account wallets: an account that is a contract signs through its code (ERC-1271), or, not yet
 * deployed, with a signature wrapped in its factory's call (ERC-6492). ecrecover cannot tell; the app's chain can,
 * through viem's verifyMessage (its universal validator, in one eth_call). Sign-in asks only after ecrecover did not
 * give the claimed address, so an EOA's sign-in never waits on the node.
 *
 * viem's verifyMessage reads every failed call as "not valid", a node that did not answer too. That must neither
 * refuse a member's good signature as wrong (1005) nor sign anyone in, so the calls go through a transport that
 * notes what the node failed to answer, and such a failure is 3007 (the chain cannot be read now).
 */
import { createPublicClient, custom, type Address, type EIP1193RequestFn, type PublicClient } from 'viem';
import { verifyMessage } from 'viem/actions';
import { ChainUnavailableError } from '../errors';

/** JSON-RPC's code for a reverted call (EIP-1474, as geth, anvil and most providers answer eth_call). */
const EXECUTION_REVERTED = 3;
const REVERTED_MESSAGE = /execution reverted/i;
/** Whole bytes of hex: what the universal validator can decode. */
const SIGNATURE_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;

/** Whether a failed request is the node's answer that the call reverted (an invalid signature), not a failure to answer. */
function isRevert(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ('code' in cause && cause.code === EXECUTION_REVERTED) return true;
    if (REVERTED_MESSAGE.test(cause.message)) return true;
  }
  return false;
}

export interface ContractSignature {
  /** The claimed account (EIP-55). */
  address: Address;
  /** The exact signed text (EIP-191 personal_sign). */
  message: string;
  signature: string;
}

/**
 * Whether a contract account signed a message, asked of the chain: ERC-1271 for a deployed account, ERC-6492 for
 * one not deployed yet (the validator runs the factory call in the same eth_call, and nothing is deployed). An
 * address without code and a plain signature is ecrecover again, on the node.
 *
 * @param client - the app chain's client
 * @param signed - account, message and signature
 * @returns true when the account's code accepts the signature; false when it refuses it or the call reverts
 * @throws ChainUnavailableError (3007) when the node did not answer
 * @example
 * if (!(await isSignedByContract(chain.client, { address, message, signature }))) throw new SignatureInvalidError();
 */
export async function isSignedByContract(client: PublicClient, signed: ContractSignature): Promise<boolean> {
  if (!SIGNATURE_BYTES.test(signed.signature)) return false;
  let unanswered: unknown;
  const request: EIP1193RequestFn = async (args) => {
    try {
      return await client.request(args as Parameters<PublicClient['request']>[0]);
    } catch (error) {
      if (!isRevert(error)) unanswered ??= error;
      throw error;
    }
  };
  // The app's client retries and falls back across URLs already; this one only watches.
  const watching = createPublicClient({ transport: custom({ request }, { retryCount: 0 }) });
  const valid = await verifyMessage(watching, { address: signed.address, message: signed.message, signature: signed.signature as `0x${string}` });
  if (unanswered !== undefined) throw new ChainUnavailableError();
  return valid;
}
