/**
 * The desk's Content screen: a notice written in zh and en, previewed as members see it (the sanitiser's
 * rule), saved as a draft, published, pinned and unpublished; the screen's loading, error-with-retry, empty and
 * loaded states; the about page, goods (a sale meanwhile refuses a stock change), pools and bots; the role.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDesk } from './support/renderDesk';

const welcome = {
  id: 'welcome',
  published: true,
  pinned: false,
  publishedAt: '2026-11-20T08:00:00.000Z',
  zh: { title: '欢迎', summary: '欢迎加入', body: '<p>欢迎加入</p>' },
  en: { title: 'Welcome', summary: 'Welcome aboard', body: '<p>Welcome aboard</p>' },
};

const rules = {
  id: 'rules',
  published: false,
  pinned: false,
  publishedAt: null,
  zh: { title: '规则', summary: '规则', body: '<p>规则</p>' },
  en: { title: 'Rules', summary: 'Rules', body: '<p>Rules</p>' },
};

/** The screen's first show waits for its lazily loaded module (seconds on a loaded 2-core runner). */
const firstShow = { timeout: 10_000 };

const item = { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', image: '/media/goods/longjing-tea.svg', price: '88', stock: 10, held: 2, listed: true, position: 0 };

describe('the desk: content', { timeout: 15_000 }, () => {
  it('behavior: the Content screen is for the content role (and admin); finance does not see it', async () => {
    await renderDesk({ path: '/ops/content', signedInAs: { roles: ['finance'] } });
    expect(await screen.findByText('This screen is for operators with the role: Content.', {}, firstShow)).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: "The desk's screens" })).queryByRole('link', { name: 'Content' })).toBeNull();
  });

  it('behavior: notices load, fail with a retry, then list; none says so', async () => {
    let answer: (value: { code: number; result?: unknown }) => void = () => undefined;
    const desk = await renderDesk({ path: '/ops/content', signedInAs: { roles: ['content'] }, handlers: { 'GET /api/admin/content/notices': () => new Promise((resolve) => (answer = resolve)) } });
    expect(within(await screen.findByRole('navigation', { name: "The desk's screens" }, firstShow)).getByRole('link', { name: 'Content' })).toBeTruthy();
    expect(await screen.findByText('Loading…', {}, firstShow)).toBeTruthy();
    answer({ code: -1 });
    await desk.user.click(await screen.findByRole('button', { name: 'Try again' }));
    answer({ code: 0, result: { list: [rules, { ...welcome, pinned: true }] } });
    const list = await screen.findByRole('list', { name: 'Notices' });
    expect(within(list).getByRole('button', { name: /^Rules.*Draft/ })).toBeTruthy();
    expect(within(list).getByRole('button', { name: /^Welcome.*Published.*Pinned/ })).toBeTruthy();

    desk.answer('GET /api/admin/content/notices', () => ({ code: 0, result: { list: [] } }));
    await desk.user.click(screen.getByRole('button', { name: 'About page' }));
    await desk.user.click(screen.getByRole('button', { name: 'Notices' }));
    expect(await screen.findByText('No notices yet. Write the first one.')).toBeTruthy();
  });

  it('behavior: a new notice is written in zh and en, previewed without its script, saved as a draft, published, pinned and unpublished', async () => {
    const notices: (typeof welcome | typeof rules)[] = [welcome];
    const desk = await renderDesk({
      path: '/ops/content?tab=notices',
      signedInAs: { roles: ['content'] },
      handlers: {
        'GET /api/admin/content/notices': () => ({ code: 0, result: { list: notices } }),
        'POST /api/admin/content/notices/put': () => ({ code: 0, result: { ...rules, preview: { zh: rules.zh.body, en: rules.en.body, changedBySanitiser: true } } }),
        'POST /api/admin/content/notices/publish': ({ body }) => {
          const change = body as { published: boolean; pinned: boolean };
          return { code: 0, result: { ...rules, ...change, publishedAt: change.published ? '2026-11-27T10:00:00.000Z' : null } };
        },
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Write a notice' }, firstShow));
    const editor = await screen.findByRole('article', { name: 'A new notice' });
    const preview = within(editor).getByRole('button', { name: 'Preview' });
    expect(preview.hasAttribute('disabled')).toBe(true);
    await desk.user.type(within(editor).getByLabelText('Notice id'), 'welcome');
    expect(within(editor).getByText('A notice has this id already: pick another.')).toBeTruthy();
    await desk.user.clear(within(editor).getByLabelText('Notice id'));
    await desk.user.type(within(editor).getByLabelText('Notice id'), 'rules');
    const [zhTitle, enTitle] = within(editor).getAllByLabelText('Title');
    const [zhBody, enBody] = within(editor).getAllByLabelText(/^Text \(HTML/);
    if (!zhTitle || !enTitle || !zhBody || !enBody) throw new Error('the editor has no title or text for each language');
    await desk.user.type(zhTitle, '规则');
    await desk.user.click(zhBody);
    await desk.user.paste('<p>规则</p><script>window.hacked = 1</script>');
    await desk.user.type(enTitle, 'Rules');
    await desk.user.click(enBody);
    await desk.user.paste('<p>Rules</p>');
    await desk.user.click(within(editor).getByRole('button', { name: 'Preview' }));

    const zhPreview = within(editor).getByRole('article', { name: 'Preview: Chinese (zh)' });
    expect(within(zhPreview).getByText('规则', { selector: 'p' })).toBeTruthy();
    expect(zhPreview.querySelector('script')).toBeNull();
    expect(within(editor).getByRole('article', { name: 'Preview: English (en)' })).toBeTruthy();
    notices.unshift(rules);
    await desk.user.click(within(editor).getByRole('button', { name: 'Save as draft' }));
    expect(await within(editor).findByText(/The server left out part of what was written/)).toBeTruthy();
    expect(within(editor).getByText('Draft')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/content/notices/put')?.body).toEqual({
      id: 'rules',
      zh: { title: '规则', body: '<p>规则</p><script>window.hacked = 1</script>' },
      en: { title: 'Rules', body: '<p>Rules</p>' },
    });
    // The list is read again with the new draft in it.
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Notices' })).getByRole('button', { name: /^Rules.*Draft/ })).toBeTruthy());

    await desk.user.click(within(editor).getByRole('button', { name: 'Publish' }));
    await desk.user.click(await within(editor).findByRole('button', { name: 'Pin on top' }));
    await desk.user.click(await within(editor).findByRole('button', { name: 'Unpublish' }));
    expect(await within(editor).findByRole('button', { name: 'Publish' })).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/notices/publish').map((call) => call.body)).toEqual([
      { id: 'rules', published: true, pinned: false },
      { id: 'rules', published: true, pinned: true },
      { id: 'rules', published: false, pinned: false },
    ]);

    // Writing another starts empty, and the id just saved is taken.
    await desk.user.click(screen.getByRole('button', { name: 'Write a notice' }));
    const next = await screen.findByRole('article', { name: 'A new notice' });
    await desk.user.type(within(next).getByLabelText('Notice id'), 'rules');
    expect(within(next).getByText('A notice has this id already: pick another.')).toBeTruthy();
  });

  it('behavior: a refused publication says why and sends the same request again', async () => {
    const answers = [{ code: 1006 }, { code: 0, result: { ...welcome, published: false, publishedAt: null } }];
    const desk = await renderDesk({
      path: '/ops/content?tab=notices&notice=welcome',
      signedInAs: { roles: ['admin'] },
      handlers: {
        'GET /api/admin/content/notices': () => ({ code: 0, result: { list: [welcome] } }),
        'POST /api/admin/content/notices/publish': () => answers.shift() ?? { code: -1 },
      },
    });
    const editor = await screen.findByRole('article', { name: 'Notice welcome' }, firstShow);
    expect(within(editor).getByRole('article', { name: 'Preview: English (en)' })).toBeTruthy();
    await desk.user.click(within(editor).getByRole('button', { name: 'Unpublish' }));
    expect(await within(editor).findByText('Your roles do not allow this, or this address is no operator.')).toBeTruthy();
    await desk.user.click(within(editor).getByRole('button', { name: 'Try again' }));
    expect(await within(editor).findByRole('button', { name: 'Publish' })).toBeTruthy();
    const bodies = desk.calls.filter((call) => call.key === 'POST /api/admin/content/notices/publish').map((call) => call.body);
    expect(bodies).toEqual([
      { id: 'welcome', published: false, pinned: false },
      { id: 'welcome', published: false, pinned: false },
    ]);
  });

  it('behavior: the about page saves and shows what members see', async () => {
    const page = { zh: { title: '关于我们', body: '<p>旧</p>' }, en: null };
    const desk = await renderDesk({
      path: '/ops/content?tab=about',
      signedInAs: { roles: ['content'] },
      handlers: {
        'GET /api/admin/content/about': () => ({ code: 0, result: page }),
        'POST /api/admin/content/about/put': ({ body }) => {
          const sent = body as { zh: { title: string; body: string } };
          page.zh = { title: sent.zh.title, body: '<p>新</p>' };
          return { code: 0, result: { ...page, preview: { zh: '<p>新</p>', en: null, changedBySanitiser: true } } };
        },
      },
    });
    expect(await screen.findByText('No English: members reading English see the Chinese page.', {}, firstShow)).toBeTruthy();
    const text = screen.getByLabelText(/^Text \(HTML/);
    await desk.user.clear(text);
    await desk.user.click(text);
    await desk.user.paste('<p>新</p><iframe src="https://example.org"></iframe>');
    await desk.user.click(screen.getByRole('button', { name: 'Save: members see it at once' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(screen.getByText(/The server left out part of what was written/)).toBeTruthy();
    expect(await screen.findByText('新')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/content/about/put')?.body).toEqual({ zh: { title: '关于我们', body: '<p>新</p><iframe src="https://example.org"></iframe>' } });
  });

  it('behavior: a stock change sends the stock read; a sale meanwhile (3006) is refused, the list read again, then saved on the new stock', async () => {
    const answers = [{ code: 3006 }, { code: 0, result: { ...item, stock: 25 } }];
    // A member buys two while the operator types: the list read again has 8.
    const lists = [[item], [{ ...item, stock: 8, held: 4 }]];
    const desk = await renderDesk({
      path: '/ops/content?tab=goods',
      signedInAs: { roles: ['content'] },
      handlers: {
        'GET /api/admin/content/goods': () => ({ code: 0, result: { list: lists.length > 1 ? lists.shift() : lists[0] } }),
        'POST /api/admin/content/goods/put': () => answers.shift() ?? { code: -1 },
      },
    });
    expect(await screen.findByText('stock 10 · 2 in paid orders', {}, firstShow)).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Edit Longjing tea' }));
    const stock = screen.getAllByLabelText('Stock for sale')[0];
    if (!stock) throw new Error('no stock field');
    await desk.user.clear(stock);
    await desk.user.type(stock, '25');
    await desk.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Already decided otherwise (by another operator, or the chain). Read the list again.')).toBeTruthy();
    expect(await screen.findByText('A sale changed the stock meanwhile: it is 8 now. Check the stock for sale, then Save again.')).toBeTruthy();
    expect(screen.getByText('stock 8 · 4 in paid orders')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/content/goods/put').map((call) => call.body)).toEqual([
      { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', price: '88', stock: 25, stockWas: 10, listed: true },
      { id: 'tea', nameZh: '龙井茶', nameEn: 'Longjing tea', price: '88', stock: 25, stockWas: 8, listed: true },
    ]);
  });

  it('behavior: pools and bots list, say when there are none, and add one', async () => {
    const desk = await renderDesk({
      path: '/ops/content?tab=pools',
      signedInAs: { roles: ['content'] },
      handlers: {
        'GET /api/admin/content/pools': () => ({ code: 0, result: { list: [] } }),
        'POST /api/admin/content/pools/put': () => ({ code: 0, result: { id: '1', name: 'Gold', totalAmount: '1000', minHolding: '10' } }),
        'GET /api/admin/content/bots': () => ({ code: 0, result: { list: [{ id: 'alpha', name: 'Alpha', status: 'running', profitRate: '2.5', createdAt: '2026-11-20T08:00:00.000Z' }] } }),
      },
    });
    expect(await screen.findByText('No share pools yet. Add the first one.', {}, firstShow)).toBeTruthy();
    await desk.user.type(screen.getByLabelText('Name'), 'Gold');
    await desk.user.type(screen.getByLabelText('Daily amount (WPOS)'), '1000');
    await desk.user.clear(screen.getByLabelText('Minimum holding (WPOS)'));
    await desk.user.type(screen.getByLabelText('Minimum holding (WPOS)'), '10');
    await desk.user.click(screen.getByRole('button', { name: 'Add the pool' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/content/pools/put')?.body).toEqual({ name: 'Gold', totalAmount: '1000', minHolding: '10' });

    await desk.user.click(screen.getByRole('button', { name: 'Bots' }));
    const bots = await screen.findByRole('list', { name: 'Bots' });
    expect(within(bots).getByText('profit 2.5 %')).toBeTruthy();
    expect(within(bots).getByText('Running')).toBeTruthy();
  });
});
