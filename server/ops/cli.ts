/**
 * `npm run ops -- <command>` (scripts/ops.ts; compiled, `npm run ops:prod -- <command>`; docs/operations.md,
 * "Operators"): operators from the command line, on the database the server uses (PGlite under DATA_DIR, or
 * DATABASE_URL). Each change is done at once, with no second admin (whoever runs it holds the database on the host),
 * and audited as via `cli`.
 *   add ADDRESS ROLE[,ROLE...] [ROLE...]   add an operator or set their roles (admin, finance, support, content)
 *   remove ADDRESS                         remove one: their sessions and API keys end
 *   list                                   the current operators
 */
import { getAddress, isAddress } from 'viem';
import { operatorRoles, type OperatorRole } from '../../api-schema/endpoint';
import type { Db } from '../db/client';
import { apiCodeOf } from '../errors';
import { ApiCode } from '../../api-schema/codes';
import { listOperators, putOperator, removeOperator, type AuditContext } from './operators';

export const OPS_CLI_USAGE = `usage: npm run ops -- add ADDRESS ROLE[,ROLE...]   (roles: ${operatorRoles.join(', ')})
       npm run ops -- remove ADDRESS
       npm run ops -- list
(a production install, built by npm run build: npm run ops:prod -- ... instead)`;

function addressOf(text: string | undefined): string | undefined {
  return text !== undefined && isAddress(text, { strict: false }) ? getAddress(text) : undefined;
}

function rolesOf(texts: readonly string[]): OperatorRole[] | undefined {
  const roles = texts.flatMap((text) => text.split(',')).map((role) => role.trim().toLowerCase()).filter(Boolean);
  if (roles.length === 0 || !roles.every((role): role is OperatorRole => (operatorRoles as readonly string[]).includes(role))) return undefined;
  return [...new Set(roles)];
}

function why(error: unknown, command: string): string {
  const code = apiCodeOf(error);
  if (code === ApiCode.invalidParameters) return `${command}: that would leave no admin; add another admin first`;
  if (code === ApiCode.notFound) return `${command}: not a current operator`;
  throw error;
}

/**
 * Runs one CLI command.
 *
 * @param args - the words after `npm run ops --`
 * @param io - the database, the time and where to print
 * @returns the exit code (0 done, 1 refused, 2 usage)
 * @example
 * await runOpsCli(['add', '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', 'admin'], { db, now: new Date(), out: console.log, err: console.error });
 */
export async function runOpsCli(args: readonly string[], io: { db: Db; now: Date; out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const [command, ...rest] = args;
  const audit: AuditContext = { at: io.now, actorAddress: null, actorRoles: [], via: 'cli', requestId: null, clientAddress: null };
  if (command === 'list' && rest.length === 0) {
    for (const operator of await listOperators(io.db)) {
      io.out(`${operator.address}  ${operator.roles.join(',')}  added ${operator.addedAt.toISOString()}${operator.addedBy ? ` by ${operator.addedBy}` : ''}`);
    }
    return 0;
  }
  const address = addressOf(rest[0]);
  if (command === 'add' && address) {
    const roles = rolesOf(rest.slice(1));
    if (roles) {
      try {
        const operator = await putOperator(io.db, { address, roles }, audit, 'cliAdd');
        io.out(`${operator.address}  ${operator.roles.join(',')}`);
        return 0;
      } catch (error) {
        io.err(why(error, 'add'));
        return 1;
      }
    }
  }
  if (command === 'remove' && address && rest.length === 1) {
    try {
      const { sessionsEnded, keysRevoked } = await removeOperator(io.db, address, audit, 'cliRemove');
      io.out(`${address} removed (${sessionsEnded} sessions ended, ${keysRevoked} API keys revoked)`);
      return 0;
    } catch (error) {
      io.err(why(error, 'remove'));
      return 1;
    }
  }
  io.err(OPS_CLI_USAGE);
  return 2;
}
