/**
 * The Content screen's lists as tables at a desktop's width (src/ops/screens/content/*Table.tsx): notices, goods,
 * share pools and bots each sort by their columns (amounts and rates as decimals, not as text), open a row's editor
 * beside the table, keep the new one's form, and say how many there are; saving from the opened editor sends the
 * same requests as the phone's list (tests/ui/opsContentScreen.test.tsx).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDesk } from './support/renderDesk';
import type { DeskHandlers, RenderedDesk } from './support/renderDesk';

/** The screen's first show waits for its lazily loaded module (seconds on a loaded 2-core runner). */
const firstShow = { timeout: 10_000 };

const welcome = {
  id: 'welcome',
  published: true,
  pinned: false,
  publishedAt: '2026-11-20T08:00:00.000Z',
  zh: { title: '欢迎', summary: '欢迎加入', body: '<p>欢迎加入</p>' },
  en: { title: 'Welcome', summary: 'Welcome aboard', body: '<p>Welcome aboard</p>' },
};
const rules = { ...welcome, id: 'rules', published: false, publishedAt: null, zh: { title: '规则', summary: '规则', body: '<p>规则</p>' }, en: { title: 'Rules', summary: 'Rules', body: '<p>Rules</p>' } };
const faq = { ...welcome, id: 'faq', pinned: true, publishedAt: '2026-11-25T08:00:00.000Z', zh: { title: '问答', summary: '问答', body: '<p>问答</p>' }, en: null };

const tea = { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', image: '/media/goods/longjing-tea.svg', price: '88', stock: 10, held: 2, listed: true, position: 0 };
// Prices that sort differently as text ("120" < "88" < "9.5") and as numbers.
const goods = [tea, { ...tea, id: 'honey', nameZh: '蜂蜜', nameEn: 'Wild honey', price: '120', stock: 3, held: 0, listed: false, position: 1 }, { ...tea, id: 'rice', nameZh: '大米', nameEn: 'Rice', price: '9.5', position: 2 }];

// Daily amounts that sort as text in the order the server sent them.
const pools = [
  { id: '1', name: 'Gold', totalAmount: '1000', minHolding: '10' },
  { id: '2', name: 'Silver', totalAmount: '250.5', minHolding: '0' },
  { id: '3', name: 'Bronze', totalAmount: '80', minHolding: '0' },
];

// Signed rates that sort differently as text ("-1" < "10" < "2.5") and as numbers.
const bots = [
  { id: 'gamma', name: 'Gamma', status: 'stopped', profitRate: '10', createdAt: '2026-11-24T08:00:00.000Z' },
  { id: 'beta', name: 'Beta', status: 'paused', profitRate: '-1', createdAt: '2026-11-22T08:00:00.000Z' },
  { id: 'alpha', name: 'Alpha', status: 'running', profitRate: '2.5', createdAt: '2026-11-20T08:00:00.000Z' },
];

async function renderContent(tab: string, handlers: DeskHandlers, table: string): Promise<RenderedDesk> {
  const desk = await renderDesk({ path: `/ops/content?tab=${tab}`, signedInAs: { roles: ['content'] }, wide: true, handlers });
  await screen.findByRole('table', { name: table }, firstShow);
  return desk;
}

/** What each row's first cell (its open button) shows, top to bottom. */
const shown = (table: string) =>
  within(screen.getByRole('table', { name: table }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('button')[0]?.textContent);

async function sortBy(desk: RenderedDesk, header: RegExp): Promise<HTMLElement> {
  const column = screen.getByRole('columnheader', { name: header });
  await desk.user.click(within(column).getByRole('button'));
  return column;
}

/** The editor stands in the right column of the table's `.desk-columns`, not in the table. */
function expectBeside(editor: HTMLElement, table: string) {
  const columns = screen.getByRole('table', { name: table }).closest('.desk-columns');
  expect(columns?.children[0]?.contains(screen.getByRole('table', { name: table }))).toBe(true);
  expect(columns?.children[1]?.contains(editor)).toBe(true);
}

const openRow = (name: RegExp) => screen.getByRole('button', { name });

describe('the desk: the content tables', { timeout: 15_000 }, () => {
  it('behavior: notices sort by title and publication, open beside the table, say how many, and a new one can still be written', async () => {
    const desk = await renderContent('notices', { 'GET /api/admin/content/notices': () => ({ code: 0, result: { list: [rules, faq, welcome] } }) }, 'Notices');
    expect(shown('Notices')).toEqual(['Rules', '问答', 'Welcome']);
    expect(screen.queryByRole('list', { name: 'Notices' })).toBeNull();
    expect(screen.getByText('In all: 3')).toBeTruthy();
    const title = await sortBy(desk, /^Title/);
    expect(title.getAttribute('aria-sort')).toBe('ascending');
    expect(shown('Notices')).toEqual(['Rules', 'Welcome', '问答']);
    await sortBy(desk, /^Title/);
    expect(title.getAttribute('aria-sort')).toBe('descending');
    expect(shown('Notices')).toEqual(['问答', 'Welcome', 'Rules']);
    // Published on: drafts (never published) first, then the oldest.
    const published = await sortBy(desk, /^Published on/);
    expect(published.getAttribute('aria-sort')).toBe('ascending');
    expect(title.hasAttribute('aria-sort')).toBe(false);
    expect(shown('Notices')).toEqual(['Rules', 'Welcome', '问答']);

    await desk.user.click(openRow(/^Welcome welcome/));
    const editor = await screen.findByRole('article', { name: 'Notice welcome' });
    expectBeside(editor, 'Notices');
    expect(openRow(/^Welcome welcome/).closest('tr')?.getAttribute('aria-current')).toBe('true');
    expect(desk.router.state.location.search).toBe('?tab=notices&notice=welcome');
    await desk.user.click(within(editor).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Pick a notice to edit it, or write a new one.')).toBeTruthy();

    await desk.user.click(screen.getByRole('button', { name: 'Write a notice' }));
    expectBeside(await screen.findByRole('article', { name: 'A new notice' }), 'Notices');
  });

  it('behavior: a notice opened from the table unpublishes with the same request as the list', async () => {
    const desk = await renderContent(
      'notices',
      {
        'GET /api/admin/content/notices': () => ({ code: 0, result: { list: [welcome] } }),
        'POST /api/admin/content/notices/publish': () => ({ code: 0, result: { ...welcome, published: false, publishedAt: null } }),
      },
      'Notices',
    );
    await desk.user.click(openRow(/^Welcome welcome/));
    const editor = await screen.findByRole('article', { name: 'Notice welcome' });
    await desk.user.click(within(editor).getByRole('button', { name: 'Unpublish' }));
    expect(await within(editor).findByRole('button', { name: 'Publish' })).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/notices/publish').map((call) => call.body)).toEqual([{ id: 'welcome', published: false, pinned: false }]);
  });

  it('behavior: goods sort by price as decimals, open beside the table with the new item under, say how many', async () => {
    const desk = await renderContent('goods', { 'GET /api/admin/content/goods': () => ({ code: 0, result: { list: goods } }) }, 'Goods');
    expect(shown('Goods')).toEqual(['Longjing tea', 'Wild honey', 'Rice']);
    expect(screen.getByText('In all: 3')).toBeTruthy();
    const price = await sortBy(desk, /^Price/);
    expect(price.getAttribute('aria-sort')).toBe('ascending');
    expect(shown('Goods')).toEqual(['Rice', 'Longjing tea', 'Wild honey']);
    await sortBy(desk, /^Price/);
    expect(price.getAttribute('aria-sort')).toBe('descending');
    expect(shown('Goods')).toEqual(['Wild honey', 'Longjing tea', 'Rice']);
    expect(price.hasAttribute('data-numeric')).toBe(true);
    await sortBy(desk, /^Listing/);
    expect(shown('Goods')[0]).toBe('Wild honey');

    await desk.user.click(openRow(/^Longjing tea tea/));
    const card = await screen.findByRole('region', { name: 'Edit Longjing tea' });
    expectBeside(card, 'Goods');
    expect((within(card).getByLabelText('Stock for sale') as HTMLInputElement).value).toBe('10');
    expectBeside(screen.getByRole('region', { name: 'A new goods item' }), 'Goods');
    await desk.user.click(within(card).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Edit Longjing tea' })).toBeNull();
    expect(screen.getByText('Open a row to edit it here; add a new one below.')).toBeTruthy();
  });

  it('behavior: a stock change from the opened item sends the stock read; a sale meanwhile (3006) reads the table again, then saves on the new stock', async () => {
    const answers = [{ code: 3006 }, { code: 0, result: { ...tea, stock: 25 } }];
    // A member buys two while the operator types: the list read again has 8.
    const lists = [goods, [{ ...tea, stock: 8, held: 4 }, ...goods.slice(1)]];
    const desk = await renderContent(
      'goods',
      {
        'GET /api/admin/content/goods': () => ({ code: 0, result: { list: lists.length > 1 ? lists.shift() : lists[0] } }),
        'POST /api/admin/content/goods/put': () => answers.shift() ?? { code: -1 },
      },
      'Goods',
    );
    await desk.user.click(openRow(/^Longjing tea tea/));
    const card = await screen.findByRole('region', { name: 'Edit Longjing tea' });
    const stock = within(card).getByLabelText('Stock for sale');
    await desk.user.clear(stock);
    await desk.user.type(stock, '25');
    await desk.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Already decided otherwise (by another operator, or the chain). Read the list again.')).toBeTruthy();
    expect(await within(card).findByText('A sale changed the stock meanwhile: it is 8 now. Check the stock for sale, then Save again.')).toBeTruthy();
    const teaRow = openRow(/^Longjing tea tea/).closest('tr') as HTMLElement;
    expect(within(teaRow).getByText('8')).toBeTruthy();
    await desk.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Saved.')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/goods/put').map((call) => call.body)).toEqual([
      { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', price: '88', stock: 25, stockWas: 10, listed: true },
      { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', price: '88', stock: 25, stockWas: 8, listed: true },
    ]);
  });

  it('behavior: share pools sort by daily amount as decimals, open beside the table and save the same request, with the new pool under', async () => {
    const desk = await renderContent(
      'pools',
      {
        'GET /api/admin/content/pools': () => ({ code: 0, result: { list: pools } }),
        'POST /api/admin/content/pools/put': ({ body }) => ({ code: 0, result: body }),
      },
      'Share pools',
    );
    expect(shown('Share pools')).toEqual(['Gold', 'Silver', 'Bronze']);
    expect(screen.getByText('In all: 3')).toBeTruthy();
    const daily = await sortBy(desk, /^Daily amount/);
    expect(daily.getAttribute('aria-sort')).toBe('ascending');
    expect(shown('Share pools')).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(daily.hasAttribute('data-numeric')).toBe(true);

    await desk.user.click(openRow(/^Gold$/));
    const card = await screen.findByRole('region', { name: 'Edit Gold' });
    expectBeside(card, 'Share pools');
    expectBeside(screen.getByRole('region', { name: 'A new share pool' }), 'Share pools');
    const amount = within(card).getByLabelText('Daily amount (WPOS)');
    await desk.user.clear(amount);
    await desk.user.type(amount, '1200');
    await desk.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Saved.')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/pools/put').map((call) => call.body)).toEqual([{ id: '1', name: 'Gold', totalAmount: '1200', minHolding: '10' }]);
  });

  it('behavior: bots sort by signed profit rate, open beside the table and save the same request, with the new bot under', async () => {
    const desk = await renderContent(
      'bots',
      {
        'GET /api/admin/content/bots': () => ({ code: 0, result: { list: bots } }),
        'POST /api/admin/content/bots/put': ({ body }) => ({ code: 0, result: { ...(body as object), createdAt: '2026-11-22T08:00:00.000Z' } }),
      },
      'Bots',
    );
    expect(shown('Bots')).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(screen.getByText('In all: 3')).toBeTruthy();
    const rate = await sortBy(desk, /^Profit rate/);
    expect(rate.getAttribute('aria-sort')).toBe('ascending');
    expect(shown('Bots')).toEqual(['Beta', 'Alpha', 'Gamma']);
    await sortBy(desk, /^Profit rate/);
    expect(rate.getAttribute('aria-sort')).toBe('descending');
    expect(shown('Bots')).toEqual(['Gamma', 'Alpha', 'Beta']);
    expect(rate.hasAttribute('data-numeric')).toBe(true);

    await desk.user.click(openRow(/^Beta beta/));
    const card = await screen.findByRole('region', { name: 'Edit Beta' });
    expectBeside(card, 'Bots');
    expectBeside(screen.getByRole('region', { name: 'A new bot' }), 'Bots');
    await desk.user.selectOptions(within(card).getByLabelText('Status'), 'running');
    await desk.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Saved.')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/bots/put').map((call) => call.body)).toEqual([{ id: 'beta', name: 'Beta', status: 'running', profitRate: '-1' }]);
    // The table is read again after the save.
    await waitFor(() => expect(desk.calls.filter((call) => call.key === 'GET /api/admin/content/bots')).toHaveLength(2));
  });
});
