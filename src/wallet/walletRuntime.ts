/**
 * Everything the wallet actors need that pulls in viem, behind one module the app imports on demand: the first
 * screen does not pay for viem until the member (or the eager connect) reaches for the wallet.
 */
export { createWalletRequests } from './walletRequests';
export { subscribeToProvider } from './providerEvents';
export { ProviderNotFoundError } from './errors';
