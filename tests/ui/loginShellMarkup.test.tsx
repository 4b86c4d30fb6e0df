/**
 * The sign-in shell the server puts in index.html (server/plugins/loginShell.ts) is the markup the app renders
 * first: same title bar title and the same hero node, so replacing it moves nothing. A change to the page frame,
 * the hero or BrandMark fails here until the shell follows.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import enCommon from '../../locales/en/common.json';
import enLogin from '../../locales/en/login.json';
import { firstTextsBlock, loginShell } from '../../server/plugins/loginShell';
import { readFirstTexts } from '../../src/i18n/firstTexts';
import { renderApp } from './support/renderApp';

describe('the sign-in shell', () => {
  it('behavior: matches what /login renders: the title bar title and the whole hero', async () => {
    await renderApp({ path: '/login/DEMO2026' });
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    const shell = document.createElement('div');
    shell.innerHTML = loginShell({ title: enLogin.title, appName: enCommon.layout.appName, lead: enLogin.description });

    const rendered = document.body.querySelector('.hero');
    const shellHero = shell.querySelector('.hero');
    expect(rendered).not.toBeNull();
    expect(shellHero?.isEqualNode(rendered)).toBe(true);

    // The hero sits at the same place in both: the same chain of elements up to the app shell.
    const ancestry = (element: Element | null) => {
      const names: string[] = [];
      for (let node = element; node; node = node.parentElement) {
        names.push(`${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`);
        if (node.classList.contains('app-shell')) break;
      }
      return names;
    };
    expect(ancestry(shellHero)).toEqual(ancestry(rendered));
    expect(shell.querySelector('h1.page-title')?.textContent).toBe(document.querySelector('h1.page-title')?.textContent);
  });

  it('behavior: the texts the server puts in the document are what the app reads, a closing tag in a text included', () => {
    const texts = { common: enCommon, login: { ...enLogin, title: 'Sign in </script><p>' } };
    const page = new DOMParser().parseFromString(`<body><div id="root"></div>${firstTextsBlock('en', texts)}</body>`, 'text/html');
    expect(page.querySelectorAll('p')).toHaveLength(0);
    expect(readFirstTexts(page)).toEqual({ lng: 'en', resources: texts });
  });

  it.each([
    ['no block', ''],
    ['not JSON', '<script type="application/json" id="first-texts">{</script>'],
    ['an unsupported language', '<script type="application/json" id="first-texts">{"lng":"fr","resources":{"common":{}}}</script>'],
    ['a namespace that is not an object', '<script type="application/json" id="first-texts">{"lng":"en","resources":{"common":"x"}}</script>'],
  ])('behavior: %s reads as none (the app fetches its texts)', (_case, block) => {
    const page = new DOMParser().parseFromString(`<body>${block}</body>`, 'text/html');
    expect(readFirstTexts(page)).toBeUndefined();
  });
});
