/**
 * The secp256k1 package's N-API binding (server/auth/signerRecovery.ts). It ships no types; what it exports is checked
 * at run time (isSecp256k1Binding) before anything is called.
 */
declare module 'secp256k1/bindings.js' {
  const binding: unknown;
  export default binding;
}
