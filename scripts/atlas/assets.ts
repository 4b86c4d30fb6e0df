/**
 * The atlas' stylesheet and script (scripts/atlas/site), copied beside its pages, and its start page, which sends a
 * reader to their language (no script: two links).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_POLICY, serializeCsp } from '../../server/plugins/contentSecurityPolicy';

const siteDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'site');

const startPage = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${serializeCsp(PAGE_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="产品地图 · Product atlas">
<title>产品地图 · Product atlas</title>
<link rel="stylesheet" href="atlas.css">
</head>
<body>
<main>
<h1>产品地图 <span lang="en">· Product atlas</span></h1>
<ul class="machines">
<li><a href="zh/index.html"><strong>中文</strong></a><p>应用的每个状态机、每个状态、会员在其中看到的画面。</p></li>
<li lang="en"><a href="en/index.html"><strong>English</strong></a><p>Every machine of the app, every state, the screen a member sees in it.</p></li>
</ul>
</main>
</body>
</html>
`;

/** File name under docs/atlas → its text. */
export const atlasAssets: Readonly<Record<string, string>> = {
  'index.html': startPage,
  'atlas.css': readFileSync(path.join(siteDir, 'atlas.css'), 'utf8'),
  'atlas.js': readFileSync(path.join(siteDir, 'atlas.js'), 'utf8'),
};
