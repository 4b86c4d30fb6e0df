/**
 * One JSON-RPC request over HTTP to a node (development and test code only): the simulated wallet's reads, the
 * development chain's faucet and the tests' anvil calls use it, methods viem's clients have no action for included
 * (anvil_reorg, anvil_impersonateAccount, ...).
 */

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Sends one request and returns the node's answer as it came: its result or its error.
 *
 * @example const { result, error } = await postJsonRpc(url, 'eth_blockNumber', []);
 */
export async function postJsonRpc(url: string, method: string, params: unknown): Promise<{ result?: unknown; error?: JsonRpcError }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
  });
  return (await response.json()) as { result?: unknown; error?: JsonRpcError };
}

/**
 * Sends one request; the result, or an Error naming the method and the node's words.
 *
 * @example await callJsonRpc(url, 'anvil_mine', ['0x1']);
 */
export async function callJsonRpc<T = unknown>(url: string, method: string, params: unknown[]): Promise<T> {
  const { result, error } = await postJsonRpc(url, method, params);
  if (error) throw new Error(`${method}: ${error.message}`);
  return result as T;
}
