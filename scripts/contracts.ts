/**
 * Compiles the contracts under contracts/ with solc-js (the npm `solc` package: the compiler itself, as
 * WebAssembly, so nothing is downloaded) and writes each one's ABI and bytecode to server/chain/artifacts/<Name>.json,
 * which the server (DevToken) and the tests (the SmartAccount pair, an ERC-1271 wallet) deploy from without a
 * compiler. `--check` compiles again and fails when the committed artifact differs (the same rule as the
 * diagrams): the bytecode on the development chain is always what the source says.
 *
 *   npm run contracts          # write the artifacts
 *   npm run contracts:check    # CI: fail when they are stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONTRACTS = ['DevToken', 'SmartAccount', 'SmartAccountFactory'] as const;
export const artifactsDir = path.join(repoRoot, 'server', 'chain', 'artifacts');

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

interface Solc {
  version(): string;
  compile(input: string, options: { import: (file: string) => { contents: string } | { error: string } }): string;
}

/** Resolves `@openzeppelin/...` imports from node_modules, as Hardhat and Foundry's remappings do. */
function findImport(file: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(file), 'utf8') };
  } catch {
    return { error: `not found: ${file}` };
  }
}

/**
 * Compiles the contracts and returns each artifact as the JSON text it is stored as.
 *
 * @returns file name → JSON text
 * @example
 * const artifacts = compileContracts(); // { 'DevToken.json': '{ "contractName": "DevToken", ... }' }
 */
export function compileContracts(): Record<string, string> {
  const solc = require('solc') as Solc;
  const sources = Object.fromEntries(CONTRACTS.map((name) => [`${name}.sol`, { content: readFileSync(path.join(repoRoot, 'contracts', `${name}.sol`), 'utf8') }]));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Paris: no PUSH0, so the bytecode runs on every EVM chain a deployment may use.
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  return Object.fromEntries(
    CONTRACTS.map((name) => {
      const compiled = output.contracts[`${name}.sol`]?.[name];
      if (!compiled) throw new Error(`solc gave no output for ${name}`);
      const artifact = { contractName: name, compiler: solc.version(), abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
      return [`${name}.json`, `${JSON.stringify(artifact, null, 2)}\n`];
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, text] of Object.entries(compileContracts())) {
    const target = path.join(artifactsDir, file);
    let committed = '';
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // Missing: stale.
    }
    if (committed === text) continue;
    if (check) stale.push(file);
    else writeFileSync(target, text);
  }
  if (stale.length > 0) {
    console.error(`server/chain/artifacts is stale (${stale.join(', ')}): run npm run contracts and commit the result`);
    process.exit(1);
  }
  console.log(check ? 'server/chain/artifacts is up to date.' : 'server/chain/artifacts written.');
}
