/**
 * The desk's texts (locales/{zh,en}/ops.json): the same keys in both languages, none empty, and a text for every
 * value the desk shows by name (roles, screens, queue statuses, held top-up states, reconcile's reasons). The member
 * app's list of namespaces leaves 'ops' out (its bundle does not name the desk), so locales.test.ts does not see it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorRoles } from '../../api-schema/endpoint';
import { queueStatusSchema } from '../../api-schema/opsFinance';
import { botStatusSchema } from '../../api-schema/opsContent';
import { heldTopUpStateSchema } from '../../api-schema/opsTopUps';
import { deskScreens } from '../../src/ops/deskScreens';
import { localeKeys, textOrPlural } from '../support/localeKeys';

const root = path.resolve(import.meta.dirname, '../..');
const load = (lng: string) => JSON.parse(readFileSync(path.join(root, 'locales', lng, 'ops.json'), 'utf8')) as Record<string, unknown>;

function leaves(value: unknown, prefix = ''): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

const named = [
  ...operatorRoles.map((role) => `roles.${role}`),
  ...deskScreens.map((screen) => `screens.${screen.id}`),
  ...queueStatusSchema.options.map((status) => `withdrawals.status.${status}`),
  'withdrawals.status.done',
  ...heldTopUpStateSchema.options.map((state) => `topUps.state.${state}`),
  ...['reorganised', 'reverted', 'paidAfterVoid'].flatMap((reason) => [`reconcile.lost.${reason}`, `reconcile.doLost.${reason}`]),
  ...['fee', 'nonceGap', 'rotatedKey', 'unmined'].flatMap((reason) => [`reconcile.stuck.${reason}`, `reconcile.doStuck.${reason}`]),
  ...['token', 'gas'].map((reason) => `reconcile.waiting.${reason}`),
  ...['empty', 'format', 'checksum'].map((reason) => `topUps.addressError.${reason}`),
  ...['actor', 'action', 'target', 'from', 'to'].map((name) => `audit.filters.${name}`),
  ...['notices', 'about', 'goods', 'pools', 'bots'].map((tab) => `content.tabs.${tab}`),
  ...botStatusSchema.options.map((status) => `content.bots.status.${status}`),
  ...['publish', 'pin', 'unpin', 'unpublish'].map((change) => `content.notices.changing.${change}`),
];

describe('the desk\'s texts', () => {
  const zh = new Map(leaves(load('zh')));
  const en = new Map(leaves(load('en')));

  it('behavior: zh and en have the same keys, plural texts with the forms each language needs', () => {
    const zhKeys = localeKeys('zh', [...zh.keys()]);
    const enKeys = localeKeys('en', [...en.keys()]);
    expect(enKeys.keys).toEqual(zhKeys.keys);
    expect([...zhKeys.problems, ...enKeys.problems]).toEqual([]);
  });

  it('behavior: every text is a non-empty string', () => {
    for (const [key, text] of [...zh, ...en]) expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
  });

  it.each(named)('behavior: %s has a text', (key) => {
    expect(typeof textOrPlural((name) => zh.get(name), key)).toBe('string');
    expect(typeof textOrPlural((name) => en.get(name), key)).toBe('string');
  });
});
